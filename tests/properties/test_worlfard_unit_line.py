"""``targets.unit_line`` keeps where each unit stands for the last stage rows asked about: after
every event of random matches (and with the rows of another match asked in between) it must say
what a scan of both stages says, for every card on a stage and for cards that are not."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from test_worlfard_properties import deck_pairs, game, played, seeds, states

from kifu.domain.worlfard.state import State
from kifu.domain.worlfard.targets import unit_line


def scanned(state: State, card: int) -> tuple[int, int] | None:
    """The from-scratch answer: both stages walked, seat 1 first."""
    for seat in (1, 2):
        for line, unit in enumerate(state.side(seat).stage, 1):
            if unit is not None and unit.card == card:
                return seat, line
    return None


def _cards(state: State) -> set[int]:
    on_stage = {u.card for side in state.sides for u in side.stage if u is not None}
    elsewhere = {card for side in state.sides for card in side.hand[:3]}
    return on_stage | elsewhere | {0, 1001, 2001}


@settings(game, max_examples=4)
@given(seed=seeds, other=seeds, decks=deck_pairs)
def test_unit_line_equals_a_scan_of_both_stages_after_every_event(seed: int, other: int, decks: Any) -> None:
    match, interloper = played(seed, decks), played(other, decks)
    foreign = [state for _, state in states(interloper)]
    for index, (env, state) in enumerate(states(match)):
        for card in _cards(state):
            assert unit_line(state, card) == scanned(state, card), (env.seq, card)
        if index % 7 == 0 and foreign:      # another match's rows in between: nothing may leak across
            stranger = foreign[index % len(foreign)]
            for card in _cards(stranger):
                assert unit_line(stranger, card) == scanned(stranger, card)
