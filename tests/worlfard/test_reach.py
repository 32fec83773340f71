"""``Reach`` keeps units' parameters by what reaches them: every answer must be the field's.

Its keys name a superset of what ``Field`` reads for a unit; a key it left something out of
would hand one position's parameters to another. So every answer it gives — worked out or kept
— is compared here with a field built from scratch, over the positions the greedy bot simulates
and every state of random matches, with the memo kept across each match (and bounded small, so
it is emptied mid-match too)."""
from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

import pytest

from kifu.domain.core.driver import drive
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard.bots import GreedyBot, RandomBot
from kifu.domain.worlfard.evolve import evolve
from kifu.domain.worlfard.field import Field
from kifu.domain.worlfard.reach import Reach
from kifu.domain.worlfard.state import State, Unit
from kifu.tools.bench_work import preset_pairs

RULES = find_ruleset("worlfard")


class Checked(Reach):
    """A ``Reach`` that checks each answer against a field built from scratch, and counts which
    kinds of key answered (a unit a unit's lasting skill reaches; one under a tower with a lasting
    skill; one a Long Spell reaches) and how many answers were kept ones."""

    def __init__(self, bound: int = Reach.BOUND) -> None:
        super().__init__()
        self.BOUND = bound
        self.seen: Counter[str] = Counter()

    def stats(self, state: State, seat: int, line: int, unit: Unit) -> tuple[int, int, int, int]:
        known = len(self._stats)
        found = super().stats(state, seat, line, unit)
        p = Field(state).unit(seat, line)
        assert p is not None
        assert found == (p.STR, p.VIT, p.AGI, p.DEF), (seat, line, unit)
        seen = self.seen
        seen["answers"] += 1
        seen["kept"] += len(self._stats) == known
        seen["reached by a unit"] += bool(self._given[seat] or unit.card in self._selves)
        seen["under a lasting tower"] += line in self._keepers[seat]
        seen["reached by a spell"] += bool(self._spelled[seat] or self._targeting)
        return found


def _match(seed: int) -> Match:
    pairs = preset_pairs(RULES)
    return Match.create(RULES, match_id=str(uuid.UUID(int=seed)), seed=seed, decks=list(pairs[seed % len(pairs)]),
                        players=("a", "b"))


def _greedy(seed: int, reach: Reach) -> GreedyBot:
    bot = GreedyBot(seed)
    bot._reach = reach
    return bot


@pytest.mark.parametrize("bound", [Reach.BOUND, 64])
def test_every_unit_parameter_greedy_reads_is_the_fields(bound: int) -> None:
    """Greedy (both seats, one memo each per match) reads every unit of every position it
    simulates through ``Reach``: each answer equals the field's."""
    seen: Counter[str] = Counter()
    for seed in range(1, 9):
        reaches = {1: Checked(bound), 2: Checked(bound)}
        drive(_match(seed), {1: _greedy(seed, reaches[1]), 2: _greedy(seed + 50, reaches[2])})
        for reach in reaches.values():
            seen.update(reach.seen)
    assert seen["answers"] > 5000 and seen["kept"] > seen["answers"] // 2, seen
    assert min(seen["reached by a unit"], seen["under a lasting tower"], seen["reached by a spell"]) > 50, seen


def test_every_unit_parameter_of_random_matches_is_the_fields() -> None:
    """Every state after every event of random matches (one memo per match, greedy against
    random so the memo sees its own positions too)."""
    seen: Counter[str] = Counter()
    for seed in range(1, 6):
        match = _match(seed)
        drive(match, {1: GreedyBot(seed), 2: RandomBot(seed)})
        reach = Checked()
        state: Any = RULES.decider.initial_state(match.header)
        for env in match.envelopes:
            state = evolve(state, env.event)
            for seat, side in enumerate(state.sides, 1):
                for line, unit in enumerate(side.stage, 1):
                    if unit is not None:
                        reach.stats(state, seat, line, unit)
        seen.update(reach.seen)
    assert seen["answers"] > 5000 and seen["kept"] > seen["answers"] // 2, seen
    assert min(seen["reached by a unit"], seen["under a lasting tower"], seen["reached by a spell"]) > 50, seen
