"""A cached match catching up on stored decisions (``Match.extend``, as the store does when another
service process wrote) keeps each seat's basis and the open seals exactly as a match tracked from
the whole record would (K-seal, and the per-seat bases of the core issue), without folding the
record again."""
from __future__ import annotations

import uuid

import pytest

from kifu.domain.core.driver import drive
from kifu.domain.core.envelope import DECISION
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset


@pytest.mark.parametrize("name", ["secretbid", "worlfard"])
def test_a_tracked_match_extended_by_stored_decisions_tracks_as_one_folded_whole(name: str) -> None:
    rules = find_ruleset(name)
    decks = [rules.content.load_deck(p) for p in rules.content.presets()[:2]]
    played = Match.create(rules, match_id=str(uuid.uuid4()), seed=3, decks=decks, players=("ann", "bob"))
    drive(played, {s: rules.content.bots["random"](s) for s in (1, 2)}, until=lambda: played.seq >= 400)
    envelopes = played.envelopes
    cuts = [i for i, env in enumerate(envelopes) if env.kind == DECISION][::5]
    assert len(cuts) > 3
    for cut in cuts:
        cached = Match.fold(rules, played.header, envelopes[:cut])
        assert cached.since is not None                   # tracked, as a match that has decided
        cached.extend(envelopes[cut:])
        assert cached._tracked, "catching up must not drop the tracking (the next decision would refold)"
        whole = Match.fold(rules, played.header, envelopes)
        assert (cached.since, cached.seals) == (whole.since, whole.seals), cut
        assert (cached.state, cached.head, cached.seq) == (whole.state, whole.head, whole.seq)
