"""Bots for alteil: ``random`` (uniform over legal, so every card gets played) and ``greedy``."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.bot import Seen
from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import KifuError
from kifu.domain.core.rng import Rng

from . import commands as c
from .decide import decide
from .evolve import evolve
from .state import State
from .stats import at, influence
from .vocabulary import BACK, GODS, other


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        return seen.legal[self.rng.below(len(seen.legal))]


class GreedyBot:
    """One ply of look-ahead: each legal decision is simulated with the pure ``decide`` on the
    masked position (what this seat may know) and scored; a win is worth everything, then the
    opponent's battlefield, deaths, the units' worth on the field, hand, soul and influence.
    Ties keep ``legal``'s order (pass and wait come first, so it never acts for nothing)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        legal = seen.legal
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        position: State | None = seen.position
        if position is None:
            return first
        if isinstance(first, c.Mulligan):
            # the seed's mulligan advice: keep a hand with units in it (they are the influence and the army)
            units = sum(1 for card in position.side(seen.seat).hand if (d := position.data(card)) and d.unit)
            return c.Mulligan(redraw=units < 2)
        seat = seen.seat
        best, best_score = first, None
        for command in legal:
            score = self._score(position, seat, command)
            if score is not None and (best_score is None or score > best_score):
                best, best_score = command, score
        return best

    def _score(self, state: State, seat: int, command: Any) -> float | None:
        draft: Draft[State, Any] = Draft(state, 1, Rng(self.rng.next_u64()), evolve)
        try:
            decide(state, seat, command, draft)
        except KifuError:
            return None
        return evaluate(draft.state, seat) + _placement_bonus(state, command)


def _placement_bonus(state: State, command: Any) -> float:
    """Sturdy units to the front row, ロングレンジ to the back (the front-line rule)."""
    if isinstance(command, c.PlaceUnit):
        data = state.data(command.card)
        back = command.square in BACK
        if data is not None:
            return 1.0 if back == data.longrange else 0.0
    return 0.0


def evaluate(state: State, seat: int) -> float:
    if state.outcome is not None:
        return 1e6 if state.outcome.winner == seat else -1e6
    score = 0.0
    for s, sign in ((seat, 1.0), (other(seat), -1.0)):
        side = state.side(s)
        value = 30.0 * side.life - 9.0 * len(side.cemetery) + 0.8 * len(side.soul) + 1.5 * len(side.hand)
        for u in side.units:
            d = state.data(u.card)
            if d is not None:
                value += 3.0 * d.lv + 2.0 + max(0, d.hp - u.damage) + 0.5 * max(0, at(state, u))
        value += 2.0 * sum(min(influence(state, s, g), 4) for g in GODS)
        value -= 6.0 * max(0, 6 - len(side.deck))
        score += sign * value
    return score
