"""The bench's long matches (``Bench.long_match``): every ruleset that has one starts from a valid
prepared position whose record folds and audits clean; masters' and alteil's decks pass their
registered id range, so their later cards have wide ids that read back to their owner and position
while every id of a registered deck stays what it was (no record changes)."""
from __future__ import annotations

from typing import Any

import pytest

from kifu.domain.alteil import vocabulary as alteil
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.masters import vocabulary as masters
from kifu.projections.audit import audit
from kifu.tools.bench_work import play


@pytest.mark.parametrize("name", ["worlfard", "masters", "alteil", "novel"])
def test_a_long_match_starts_valid_and_its_record_folds_and_audits_clean(name: str) -> None:
    rules = find_ruleset(name)
    assert rules.bench.long_match is not None
    decks, start = rules.bench.long_match(1)
    if rules.notation is not None:
        rules.notation.check(start)       # raises BadPosition on an impossible position
    match, _ = play(rules, 1, decks, start=start, until=2_000)
    assert match.seq >= 2_000 and match.outcome is None      # still going where natural matches are long over
    assert Match.fold(rules, match.header, match.envelopes).state == match.state
    assert audit(rules, match.header, match.envelopes).clean


def test_masters_wide_ids_read_back_and_registered_ids_are_unchanged() -> None:
    for seat in (1, 2):
        for index in range(100):
            assert masters.card_id(seat, index) == seat * 100 + index < masters.WIDE
        for index in range(1_000):
            cid = masters.card_id(seat, index)
            assert (masters.card_seat(cid), masters.card_index(cid)) == (seat, index)
    state = _long_start("masters")
    wide = [cid for side in state.sides for cid in side.deck if cid >= masters.WIDE]
    assert wide and all(state.name(cid) and state.card(cid).name == state.name(cid) for cid in wide)
    assert all(state.owner(cid) == masters.card_seat(cid) for cid in wide)


def test_alteil_wide_ids_read_back_and_registered_ids_are_unchanged() -> None:
    for seat in (1, 2):
        for position in range(1, 1_000):
            assert alteil.card_id(seat, position) == seat * 1000 + position < alteil.WIDE
        for position in range(1, 5_000):
            cid = alteil.card_id(seat, position)
            assert (alteil.owner(cid), alteil.position_of(cid)) == (seat, position)
    state = _long_start("alteil")
    wide = [cid for side in state.sides for cid in side.deck if cid >= alteil.WIDE]
    assert wide and all(state.name(cid) for cid in wide)


def _long_start(name: str) -> Any:
    hook = find_ruleset(name).bench.long_match
    assert hook is not None
    return hook(1)[1]
