"""Bots: ``RandomBot`` (uniform over ``legal``, so every card gets played) and ``GreedyBot``
(simulates its options with the pure ``decide`` on its masked position and scores the result:
lethal first, then good trades, pieces closer to the enemy master, mana and cards).
"""
from __future__ import annotations

from typing import Any

from kifu.domain.core.bot import Seen
from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import KifuError
from kifu.domain.core.rng import Rng

from . import commands as c
from .board import distance, parse
from .decide import decide
from .effects import hp_left
from .evolve import evolve
from .state import State
from .vocabulary import other


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        legal = seen.legal
        return legal[self.rng.below(len(legal))]       # rng.choice(legal), one call fewer


def evaluate(state: State, seat: int) -> float:
    """A material count from ``seat``'s side."""
    if state.outcome is not None:
        w = state.outcome.winner
        return 0.0 if w is None else (10_000.0 if w == seat else -10_000.0)
    score = 0.0
    for s, sign in ((seat, 1.0), (other(seat), -1.0)):
        side = state.side(s)
        enemy_master = state.side(other(s)).master
        value = side.life * 4.0 + side.doom * 6.0 + len(side.mana) * 1.2 + len(side.hand) * 0.4
        if not side.deck:
            value -= 50.0
        for p in state.pieces:
            if p.seat != s:
                continue
            d = state.card(p.card)
            value += 2.0 + d.atk * 1.2 + max(0, hp_left(state, p)) + d.mov * 0.5
            value += max(0, 8 - distance(p.square, enemy_master)) * 0.35 * (d.atk > 0)
        score += sign * value
    return score


def simulate(state: State, seat: int, command: Any, seq: int = 1 << 40) -> State | None:
    """The state after ``command`` and, if it opened a stack or a combat, after both masters pass."""
    try:
        draft: Draft[State, Any] = Draft(state, seq, Rng(seq), evolve)
        decide(state, seat, command, draft)
        for _ in range(8):
            s = draft.state
            if s.outcome is not None or (not s.stack and s.combat is None) or s.priority is None:
                break
            holder = s.priority.holder
            decide(s, holder, c.Pass(), draft)
        return draft.state
    except KifuError:
        return None


def _cost(state: State, cid: int) -> int:
    return state.card(cid).cost


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        legal = seen.legal
        if len(legal) == 1:
            return legal[0]
        state: State = seen.position
        seat = seen.seat
        first = legal[0]
        if isinstance(first, (c.Keep, c.Mulligan)):
            return c.Keep()
        if isinstance(first, (c.Bottom, c.Discard)):
            return max(legal, key=lambda cmd: (_cost(state, cmd.card), cmd.card))
        if isinstance(first, (c.Draw, c.Charge)):
            side = state.side(seat)
            want_mana = len(side.mana) < 6 and len(side.deck) > 8
            return c.Charge() if want_mana and c.Charge() in legal else c.Draw()
        return self._best(state, seat, legal)

    def _best(self, state: State, seat: int, legal: list[Any]) -> Any:
        enemy_master = state.side(other(seat)).master
        candidates: list[Any] = []
        best_summon: dict[int, Any] = {}
        for cmd in legal:
            if isinstance(cmd, c.Summon):      # one square per card: the nearest to the enemy master
                held = best_summon.get(cmd.card)
                if held is None or (distance(parse(cmd.square), enemy_master)
                                    < distance(parse(held.square), enemy_master)):
                    best_summon[cmd.card] = cmd
            else:
                candidates.append(cmd)
        candidates.extend(best_summon.values())
        base = evaluate(state, seat)
        best, best_score = None, float("-inf")
        for cmd in candidates:
            after = simulate(state, seat, cmd)
            if after is None:
                continue
            score = evaluate(after, seat)
            if isinstance(cmd, c.Pass):
                score = max(score, base) - 0.05
            elif isinstance(cmd, c.MoveMaster):
                score -= 0.5                 # the master is not a fighter: move it only for a reason
            score += self.rng.below(100) * 1e-4
            if score > best_score:
                best, best_score = cmd, score
        return best if best is not None else legal[0]
