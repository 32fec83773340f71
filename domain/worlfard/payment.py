"""Paying a cost (W-6): whole towers and souls, with no redundant source (W-6.4)."""
from __future__ import annotations

from itertools import combinations
from typing import Callable, Iterator, Sequence

from domain.core.errors import Illegal

from .field import tower_height, tower_heights
from .state import State
from .vocabulary import LINES


def tower_value(state: State, seat: int, line: int) -> int:
    """HT for cost: as modified by effects (W-7.5), floored at 0 (W-Q13)."""
    return tower_height(state, seat, line)


def is_redundant_free(values: list[int], cost: int) -> bool:
    """W-6.4: the total reaches the cost and dropping any single source would fall short."""
    total = sum(values)
    return total >= cost and all(total - v < cost for v in values)


def canonical_payment(towers: tuple[int, ...], souls: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One order for the same sources, so a recorded decision does not depend on how it was typed."""
    return tuple(sorted(towers)), tuple(sorted(souls))


def check_payment(state: State, seat: int, cost: int, towers: tuple[int, ...], souls: tuple[int, ...]) -> int:
    """Validate a payment and return the cost it generates; raises Illegal naming the clause."""
    side = state.side(seat)
    if len(set(towers)) != len(towers):
        raise Illegal("W-6.3", f"a tower is listed twice in {list(towers)}")
    if len(set(souls)) != len(souls):
        raise Illegal("W-6.2", f"a soul is listed twice in {list(souls)}")
    for line in towers:
        if not 1 <= line <= len(side.towers):
            raise Illegal("W-3.2", f"there is no tower line {line}")
        tower = side.towers[line - 1]
        if not tower.cards:
            raise Illegal("W-6.2", f"tower spot {line} holds no tower")
        if tower.broken:
            raise Illegal("W-6.3", f"tower {line} is broken and cannot be broken again")
        keeper = side.stage[line - 1]
        if keeper is not None and keeper.broken:
            raise Illegal("W-6.3", f"tower {line} cannot be broken while its keeper is broken")
    for soul in souls:
        if soul not in side.soul:
            raise Illegal("W-6.2", f"card {soul} is not in seat {seat}'s soul")
    values = [tower_value(state, seat, line) for line in towers] + [1] * len(souls)
    total = sum(values)
    if total < cost:
        raise Illegal("W-6.1", f"the payment generates {total} but the cost is {cost}")
    if not is_redundant_free(values, cost):
        raise Illegal("W-6.4", f"the payment generates {total} for a cost of {cost}, and a source is redundant: "
                               "without it the cost would still be met")
    return total


Payment = tuple[tuple[int, ...], tuple[int, ...]]       # (towers, souls)
Payments = Sequence[Payment]


def payments(state: State, seat: int, cost: int) -> Payments:
    """Every legal (towers, souls) payment of ``cost``: the exact set W-6.4 allows, in a fixed order."""
    return payer(state, seat)(cost)


def payer(state: State, seat: int, ready: list[int] | None = None) -> Callable[[int], Payments]:
    """``payments`` of ``seat`` now for any cost: the towers and souls are looked at once.

    The answer depends only on which towers can break, their HT and the souls, which stay the
    same over many decisions: the payments are kept by those sources, each cost worked out on
    first request (a small table, cleared when full)."""
    side = state.sides[seat - 1]
    if ready is None:   # (unless the caller has read them off the rows already) W-6.3: a tower breaks
        # only whole, only while it and its keeper (if any) are ready
        ready = [line for line, tower, keeper in zip(_LINES, side.towers, side.stage)
                 if tower.cards and not tower.broken and (keeper is None or not keeper.broken)]
    if ready:
        heights_now = tower_heights(state, seat)
        sources = (tuple(ready), tuple([heights_now[line - 1] for line in ready]), side.soul)
    else:
        sources = ((), (), side.soul)
    found = _by_sources.get(sources)
    if found is None:
        if len(_by_sources) > 1024:
            _by_sources.clear()
        found = _by_sources[sources] = _ByCost(*sources)
    return found.__getitem__


_LINES = range(1, LINES + 1)


class _ByCost(dict[int, Payments]):
    """The payments from one set of sources, by cost: a cost is enumerated when first asked."""

    __slots__ = ("_sources",)

    def __init__(self, ready: tuple[int, ...], heights: tuple[int, ...], souls: tuple[int, ...]) -> None:
        super().__init__()
        self._sources = (ready, heights, souls)

    def __missing__(self, cost: int) -> Payments:
        found = self[cost] = tuple(_enumerate(*self._sources, cost))
        return found


_by_sources: dict[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], _ByCost] = {}


def _enumerate(ready: tuple[int, ...], ready_heights: tuple[int, ...], souls: tuple[int, ...],
               cost: int) -> Iterator[Payment]:
    """Every W-6.4 payment, tower sets in ``combinations`` order (fewest towers first), each
    alone or with every choice of souls (in ``combinations`` order)."""
    for towers, total, least in _tower_sets(ready, ready_heights):
        if total >= cost:
            if not towers or total - least < cost:   # without its lowest tower it falls short
                yield towers, ()
            continue
        # souls are worth 1 each: with any soul, the total must equal the cost exactly (and no
        # tower is then redundant, every HT being at least 1)
        need = cost - total
        if need <= len(souls):
            for chosen in combinations(souls, need):
                yield towers, chosen


TowerSets = tuple[tuple[tuple[int, ...], int, int], ...]


def _tower_sets(ready: tuple[int, ...], heights: tuple[int, ...]) -> TowerSets:
    """The sets of ready towers a payment may break, fewest first, with their total and lowest
    HT (none with a tower at HT 0: it would be redundant). The same towers and heights recur over
    many costs, decisions and matches, so they are worked out once (a small table)."""
    key = (ready, heights)
    found = _sets.get(key)
    if found is None:
        value = dict(zip(ready, heights))
        found = tuple((towers, sum(hs), min(hs, default=0))
                      for n in range(len(ready) + 1) for towers in combinations(ready, n)
                      if all(hs := [value[line] for line in towers]))
        if len(_sets) > 1024:
            _sets.clear()
        _sets[key] = found
    return found


_sets: dict[tuple[tuple[int, ...], tuple[int, ...]], TowerSets] = {}


def can_pay(state: State, seat: int, cost: int) -> bool:
    return bool(payments(state, seat, cost))
