"""Paying a cost (W-6): whole towers and souls, with no redundant source (W-6.4)."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import accumulate, combinations
from math import comb
from typing import Any

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal
from kifu.domain.core.memo import Memo

from .field import tower_height, tower_heights
from .state import State
from .vocabulary import LINES


@implements("W-7.5", "W-Q13")
def tower_value(state: State, seat: int, line: int) -> int:
    """HT for cost: as modified by effects (W-7.5), floored at 0 (W-Q13)."""
    return tower_height(state, seat, line)


@implements("W-6.4")
def is_redundant_free(values: list[int], cost: int) -> bool:
    """W-6.4: the total reaches the cost and dropping any single source would fall short."""
    total = sum(values)
    return total >= cost and all(total - v < cost for v in values)


def canonical_payment(towers: tuple[int, ...], souls: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One order for the same sources, so a recorded decision does not depend on how it was typed."""
    return tuple(sorted(towers)), tuple(sorted(souls))


@implements("W-3.2", "W-6.1", "W-6.2", "W-6.3", "W-6.4")
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
    if towers:   # (``tower_value`` of each: the seat's heights, which the payer just worked out for this state)
        heights = tower_heights(state, seat)
        values = [heights[line - 1] for line in towers] + [1] * len(souls)
    else:
        values = [1] * len(souls)
    total = sum(values)
    if total < cost:
        raise Illegal("W-6.1", f"the payment generates {total} but the cost is {cost}")
    if not is_redundant_free(values, cost):
        raise Illegal("W-6.4", f"the payment generates {total} for a cost of {cost}, and a source is redundant: "
                               "without it the cost would still be met")
    return total


Payment = tuple[tuple[int, ...], tuple[int, ...]]       # (towers, souls)
Payments = Sequence[Payment]
NO_PAYMENTS: Payments = ()      # a payer's answer for a cost nothing pays (the only empty one: tested by identity)


@implements("W-6.4")
def payments(state: State, seat: int, cost: int) -> Payments:
    """Every legal (towers, souls) payment of ``cost``: the exact set W-6.4 allows, in a fixed order."""
    return payer(state, seat)(cost)


def payer(state: State, seat: int, ready: list[int] | None = None) -> Payer:
    """``payments`` of ``seat`` now for any cost: the towers and souls are looked at once.

    The answer depends only on which towers can break, their HT and the souls, which stay the
    same over many decisions: the payments are kept by those sources, each cost worked out on
    first request (a small table, cleared when full)."""
    side = state.sides[seat - 1]
    if ready is None:   # (unless the caller has read them off the rows already) W-6.3: a tower breaks
        # only whole, only while it and its keeper (if any) are ready
        ready = [line for line, tower, keeper in zip(_LINES, side.towers, side.stage, strict=True)
                 if tower.cards and not tower.broken and (keeper is None or not keeper.broken)]
    if ready:
        heights_now = tower_heights(state, seat)
        sources = (tuple(ready), tuple([heights_now[line - 1] for line in ready]), side.soul)
    else:
        sources = ((), (), side.soul)
    return _sourced(sources)


def _sourced(sources: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]) -> Payer:
    found = _by_sources.get(sources)
    if found is None:
        found = _by_sources.put(sources, _ByCost(*sources))
    return found


_LINES = range(1, LINES + 1)


class _ByCost(dict[int, Payments]):
    """The payments from one set of sources, by cost: a cost is counted when first asked."""

    __slots__ = ("_sources", "_shape")

    def __init__(self, ready: tuple[int, ...], heights: tuple[int, ...], souls: tuple[int, ...]) -> None:
        super().__init__()
        self._sources = (ready, heights, souls)
        self._shape = (tuple(sorted([h for h in heights if h])), len(souls))   # (HT 0 pays nothing)

    __call__ = dict.__getitem__      # a payer: cost -> payments

    def __missing__(self, cost: int) -> Payments:
        key = (*self._shape, cost)
        size = _counts.get(key)
        if size is None:     # (the souls change often, the shapes and costs little: a count is kept)
            size = _counts.put(key, _count(*key))
        found = self[cost] = _Paid(*self._sources, cost, size) if size else NO_PAYMENTS
        return found

    def without(self, soul: int) -> _ByCost:
        """The payments that leave ``soul`` unpaid (a heart's extra soul pays besides): those
        from the other souls, in the same order (``combinations`` keeps its pool's order)."""
        ready, heights, souls = self._sources
        return _sourced((ready, heights, tuple([s for s in souls if s != soul])))


Payer = _ByCost     # called with a cost: its payments


class _Paid(Sequence[Payment]):
    """The payments of one cost from one set of sources, in ``_enumerate``'s order, counted
    without being listed: a random bot reads one of them, so the first read is worked out alone;
    a second read (a bot that looks at every decision) lists them all."""

    __slots__ = ("_ready", "_heights", "_souls", "_cost", "_size", "_listed")

    def __init__(self, ready: tuple[int, ...], heights: tuple[int, ...], souls: tuple[int, ...], cost: int,
                 size: int) -> None:
        self._ready, self._heights, self._souls, self._cost, self._size = ready, heights, souls, cost, size
        self._listed: tuple[Payment, ...] | bool = False       # True once read by index

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index: Any) -> Any:
        listed = self._listed
        if listed.__class__ is tuple:
            return listed[index]
        if listed or isinstance(index, slice):
            return self._all()[index]
        self._listed = True
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("payment index out of range")
        return _nth(self._ready, self._heights, self._souls, self._cost, index)

    def __iter__(self) -> Iterator[Payment]:
        return iter(self._all())

    def _all(self) -> tuple[Payment, ...]:
        listed = self._listed
        if not isinstance(listed, tuple):
            listed = self._listed = tuple(_enumerate(self._ready, self._heights, self._souls, self._cost))
        return listed


def _count(shape: tuple[int, ...], souls: int, cost: int) -> int:
    """How many payments ``_enumerate`` lists for ``cost`` from towers of these heights (in any
    order: the count does not depend on which line has which) and this many souls: the tower
    sets that pay it alone without a redundant tower, and those short of it by no more than the
    souls, each with every choice of the souls missing."""
    if cost <= 0:
        return 1        # nothing paid: any tower would be redundant
    sums, alone = _by_total(shape)
    found = alone[cost] if cost < len(alone) else 0
    for total in range(max(0, cost - souls), min(cost, len(sums))):
        if sums[total]:
            found += sums[total] * comb(souls, cost - total)
    return found


def _by_total(shape: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """For towers of these heights (ascending, none at 0): how many tower sets reach each total
    (``sums``), and how many pay each cost alone with no redundant tower (``alone[cost]``:
    total ≥ cost > total − lowest). Counted by total instead of listing the sets, from the
    counts for the same towers without the lowest (shapes share them, so each is worked out once)."""
    found = _totals.get(shape)
    if found is None:
        if not shape:
            found = [1], [0]
        else:
            above, alone_above = _by_total(shape[1:])
            height = shape[0]
            top = len(above) - 1 + height
            # the sets whose lowest tower is this one (ties: this first one): it, with a set of
            # the higher ones of total t, pays alone the costs t + 1 .. t + height
            steps = [0] * (top + 2)
            for t, n in enumerate(above):
                if n:
                    steps[t + 1] += n
                    steps[t + height + 1] -= n
            alone = [a + b for a, b in zip(alone_above + [0] * height, accumulate(steps), strict=False)]
            sums = above + [0] * height
            for t, n in enumerate(above):
                sums[t + height] += n
            found = sums, alone
        _totals.put(shape, found)
    return found


_totals: Memo[tuple[int, ...], tuple[list[int], list[int]]] = Memo("worlfard.payment_totals", bound=4096)
_counts: Memo[tuple[tuple[int, ...], int, int], int] = Memo("worlfard.payment_counts", bound=4096)   # ``_count``


def _nth(ready: tuple[int, ...], heights: tuple[int, ...], souls: tuple[int, ...], cost: int, index: int) -> Payment:
    """``list(_enumerate(ready, heights, souls, cost))[index]``, without listing the others: the
    tower sets (``_tower_sets``, kept) are walked in the same order only as far as the one that
    holds it."""
    if cost <= 0:
        return (), ()
    free = len(souls)
    for towers, total, least in _tower_sets(ready, heights):
        if total >= cost:
            if total - least < cost:
                if not index:
                    return towers, ()
                index -= 1
            continue
        need = cost - total
        if need <= free:
            size = comb(free, need)
            if index < size:
                return towers, _nth_combination(souls, need, index)
            index -= size
    raise IndexError("payment index out of range")


def _nth_combination(pool: tuple[int, ...], r: int, index: int) -> tuple[int, ...]:
    """``list(combinations(pool, r))[index]`` (the itertools recipe)."""
    n = len(pool)
    c = comb(n, r)
    out = []
    while r:
        c, n, r = c * r // n, n - 1, r - 1
        while index >= c:
            index -= c
            c, n = c * (n - r) // n, n - 1
        out.append(pool[-1 - n])
    return tuple(out)


_by_sources: Memo[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], _ByCost] = Memo(
    "worlfard.payments_by_sources", bound=1024)


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
        value = dict(zip(ready, heights, strict=True))
        found = tuple((towers, sum(hs), min(hs, default=0))
                      for n in range(len(ready) + 1) for towers in combinations(ready, n)
                      if all(hs := [value[line] for line in towers]))
        _sets.put(key, found)
    return found


_sets: Memo[tuple[tuple[int, ...], tuple[int, ...]], TowerSets] = Memo("worlfard.tower_sets", bound=1024)


def can_pay(state: State, seat: int, cost: int) -> bool:
    return bool(payments(state, seat, cost))
