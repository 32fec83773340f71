"""A real ruleset through the store: a whole WORLFARD match, decided and stored one decision at a time."""
from __future__ import annotations

import uuid

import pytest

from kifu.domain.core.errors import KifuError
from kifu.domain.core.match import Match
from kifu.domain.core.record import first_broken_link
from kifu.domain.core.ruleset import find_ruleset
from kifu.store import MatchStore


def test_a_whole_worlfard_match_round_trips(store: MatchStore) -> None:
    try:
        ruleset = find_ruleset("worlfard")
        decks = [ruleset.content.load_deck(name) for name in ruleset.content.presets()[:2]]
    except (ImportError, AttributeError, KifuError) as exc:
        pytest.skip(f"the worlfard ruleset is not usable yet ({exc!r})")
    played = Match.create(ruleset, match_id=str(uuid.uuid4()), seed=3, decks=decks, players=("ann", "bob"))
    mid = played.header.match_id
    store.create(played)
    decisions = 0
    while played.outcome is None and decisions < 150:
        seat = played.deciding
        assert seat is not None
        options = played.legal(seat)
        command = options[decisions % len(options)]
        assert store.submit(mid, seat, command, expected_seq=played.seq) == played.submit(seat, command)
        decisions += 1
    loaded = store.load(mid)
    assert loaded.envelopes == played.envelopes
    assert loaded.state == played.state
    assert first_broken_link(loaded.header, loaded.envelopes) is None
    [listed] = store.list_matches()
    assert (listed.ruleset, listed.seq, listed.outcome) == ("worlfard", played.seq, played.outcome)
