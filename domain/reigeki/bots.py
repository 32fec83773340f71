"""Bots: ``random`` (over ``legal``, leaning away from ending steps so matches look like play) and
``greedy`` (one ply: simulates each option with the pure ``decide`` on its masked position and
scores the result: lethal and a won game first, then damage, material and the threat of the
attack in progress, so it guards only what is worth guarding and attacks where it hits)."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.bot import Seen
from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import KifuError
from kifu.domain.core.rng import Rng

from . import commands as c
from .decide import DAMAGE_LOSS, LEADER_THRESHOLD, attack_power, can_attack_from, card_of, decide, power_graze
from .evolve import evolve
from .state import State, other


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        legal = seen.legal
        actions = [cmd for cmd in legal if not isinstance(cmd, c.Proceed)]
        if actions and self.rng.below(4) != 0:
            return self.rng.choice(actions)
        return self.rng.choice(legal)


def _unit_value(state: State, seat: int, place: int) -> float:
    unit = state.side(seat).stage[place - 1]
    if unit is None or unit.leader:
        return 0.0
    p, g = power_graze(state, unit)
    v = 1.5 + 0.45 * p + 0.3 * g + (0.8 if unit.under else 0.0)
    return v + (0.6 if can_attack_from(state, place, unit) or unit.burst else 0.0)


def evaluate(state: State, seat: int) -> float:
    r = state.result
    if r is not None:
        return 0.0 if r.winner is None else (1000.0 if r.winner == seat else -1000.0)
    score = 0.0
    for s, sign in ((seat, 1.0), (other(seat), -1.0)):
        side = state.side(s)
        dmg = len(side.damage)
        v = -3.0 * dmg - 2.0 * max(0, dmg - 4)
        v += sum(_unit_value(state, s, p) for p in range(1, 7))
        v += sum(0.9 if card_of(state, h).type == "reigeki" else 0.35 for h in side.hand) if s == seat \
            else 0.35 * len(side.hand)
        v += 0.5 * len(side.reiryoku)
        v -= 1.5 * max(0, 6 - len(side.deck))
        score += sign * v
    b = state.battle
    if b is not None and not b.nullified and state.phase in ("guard", "spell"):
        defender = other(state.active)
        target = state.side(defender).stage[b.target_place - 1]
        sign = 1.0 if defender != seat else -1.0
        power = attack_power(state)
        if target is not None and target.card == b.target:
            if target.leader and power > LEADER_THRESHOLD:
                score += sign * (3.0 + (6.0 if len(state.side(defender).damage) >= DAMAGE_LOSS - 1 else 0.0)) * 0.9
            elif not target.leader and power >= power_graze(state, target)[1]:
                score += sign * _unit_value(state, defender, b.target_place) * 0.9
    return score


class GreedyBot:
    MAX_SIMULATED = 48

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        legal = seen.legal
        if len(legal) == 1:
            return legal[0]
        if isinstance(legal[0], c.Mulligan):
            return c.Mulligan(redraw=False)
        position: State = seen.position
        seat = seen.seat
        if isinstance(legal[0], c.Discard):
            return min(legal, key=lambda cmd: (card_of(position, cmd.card).type == "reigeki",
                                               card_of(position, cmd.card).lv, card_of(position, cmd.card).power))
        candidates = legal
        if len(candidates) > self.MAX_SIMULATED:
            step = len(candidates) / self.MAX_SIMULATED
            candidates = [candidates[int(i * step)] for i in range(self.MAX_SIMULATED)] + [legal[-1]]
        best, choices = -1e18, []
        for cmd in candidates:
            draft: Draft[State, Any] = Draft(position, 1, Rng(self.rng.next_u64()), evolve)
            try:
                decide(position, seat, cmd, draft)
            except KifuError:
                continue
            score = evaluate(draft.state, seat)
            if isinstance(cmd, c.Proceed):
                score += 0.01        # no change is worth a move that changes nothing
            if score > best + 1e-9:
                best, choices = score, [cmd]
            elif score > best - 1e-9:
                choices.append(cmd)
        if not choices:
            return legal[-1]
        return choices[self.rng.below(len(choices))]
