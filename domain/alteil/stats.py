"""A unit's current values: the printed numbers plus this turn's modifiers (A-2.3, A-5.6)."""
from __future__ import annotations

from kifu.domain.core.clauses import implements

from .state import State, Unit


def at(state: State, u: Unit) -> int:
    d = state.data(u.card)
    return (d.at if d else 0) + u.at


def df(state: State, u: Unit) -> int:
    d = state.data(u.card)
    return (d.df if d else 0) + u.df


def agi(state: State, u: Unit) -> int:
    d = state.data(u.card)
    return (d.agi if d else 0) + u.agi


def hp(state: State, u: Unit) -> int:
    d = state.data(u.card)
    return d.hp if d else 0


@implements("A-9.1")
def influence(state: State, seat: int, god: str) -> int:
    """A-9 / A-9.1: influence is counted per god, one per influence card of that god."""
    return sum(1 for c in state.side(seat).influence if (d := state.data(c)) is not None and d.god == god)
