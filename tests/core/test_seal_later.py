"""``Match.seal_later``: digests and chain links worked out when the record is read give the
very record that sealing each decision as it is taken gives."""
from __future__ import annotations

import uuid
from typing import Any

import pytest

from kifu.domain.core.driver import drive, seen_by
from kifu.domain.core.match import Match
from kifu.domain.core.record import encode_record, first_broken_link
from kifu.domain.core.ruleset import find_ruleset


def _match(ruleset: str, seed: int) -> Match:
    rules = find_ruleset(ruleset)
    names = rules.content.presets()
    decks = [rules.content.load_deck(names[seed % len(names)]), rules.content.load_deck(names[(seed + 1) % len(names)])]
    return Match.create(rules, match_id=str(uuid.UUID(int=seed)), seed=seed, decks=decks, players=("a", "b"))


def _bots(ruleset: str, seed: int) -> dict[int, Any]:
    rules = find_ruleset(ruleset)
    return {1: rules.content.bots["random"](seed), 2: rules.content.bots["random"](seed + 1)}


@pytest.mark.parametrize("ruleset", ["worlfard", "secretbid", "masters"])
def test_a_record_sealed_when_read_is_byte_for_byte_the_one_sealed_per_decision(ruleset: str) -> None:
    for seed in (1, 2):
        sealed_now = _match(ruleset, seed)
        drive(sealed_now, _bots(ruleset, seed))
        later = _match(ruleset, seed).seal_later()
        drive(later, _bots(ruleset, seed))
        assert later.seq == sealed_now.seq
        assert encode_record(later.header, later.envelopes) == encode_record(sealed_now.header, sealed_now.envelopes)
        assert later.head == sealed_now.head and first_broken_link(later.header, later.envelopes) is None


def test_reading_mid_play_seals_what_is_open_and_play_goes_on_unsealed() -> None:
    sealed_now = _match("worlfard", 3)
    drive(sealed_now, _bots("worlfard", 3))
    later = _match("worlfard", 3).seal_later()
    bots = _bots("worlfard", 3)
    drive(later, bots, until=lambda: later.seq >= 300)
    assert later.envelopes == sealed_now.envelopes[:later.seq]       # read in the middle: sealed up to here
    seat = later.deciding
    assert seat is not None
    events = later.submit(seat, bots[seat].choose(seen_by(later, seat)))
    assert events[-1].chain == "" and events[-1].digest is None        # what follows is open again
    drive(later, bots)
    assert later.envelopes == sealed_now.envelopes and later.head == sealed_now.head

