"""Bots: ``random`` (uniform over ``legal``, so every card gets played) and ``greedy``.

Greedy reads only what its seat may know (``seen.position`` is ``view.mask``'s state). In the
skill phase it simulates each ``Act`` with the pure ``decide`` on that position: when its pick
resolves at once (no enemy character shares the AGI), the simulated events are scored — kills
first, then damage dealt minus damage taken; otherwise (the other seat's sealed pick is unknown)
it scores the act with the rules' own damage function (``combat.attack_damage``). In the select
phase a pick only records a choice, so it values the cards: a lethal magic first, then strong
characters, equipment on its best attacker; a face-down magic last.
"""
from __future__ import annotations

from typing import Any

from kifu.domain.core.bot import Seen
from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import KifuError
from kifu.domain.core.rng import Rng

from . import events as ev
from .cards import card
from .combat import attack_damage
from .commands import Act, Command, Done, Pick, Reveal
from .decide import decide
from .evolve import evolve
from .state import ROW_SLOTS, State


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        return self.rng.choice(seen.legal)


class GreedyBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        state: State = seen.position
        best: list[Command] = []
        top = float("-inf")
        for cmd in seen.legal:
            s = self.score(state, seen.seat, cmd)
            if s > top:
                top, best = s, [cmd]
            elif s == top:
                best.append(cmd)
        return self.rng.choice(best)

    def score(self, state: State, seat: int, cmd: Command) -> float:
        if isinstance(cmd, Done):
            return 0.0
        if isinstance(cmd, Act):
            return self._act(state, seat, cmd)
        if isinstance(cmd, Reveal):
            return 5 + self._magic(state, seat, state.card(cmd.card).name, cmd.target)
        assert isinstance(cmd, Pick)
        c = state.card(cmd.card)
        d = card(c.name)
        side = state.side(seat)
        if len(side.front) + len(side.back) >= 2 * ROW_SLOTS:
            # a full field: play one card a turn, the cheapest, so the deck lasts (N-Q7 would lose)
            return -1.0 if side.picks else 1.0 - d.cost / 10
        if d.kind == "character":
            value = (d.hp + 2 * d.atk + 2 * d.def_ + d.agi * 3 + d.rng * 5) / 10
            return 10 + value + (40 if not state.field(seat) else 0)
        if d.kind == "equipment":
            t = state.card(cmd.target)
            return 8 + d.bonus.atk + d.bonus.def_ + d.bonus.max_hp / 3 + d.bonus.rng * 5 + t.atk / 10
        if cmd.face_down:
            return 1.0
        return self._magic(state, seat, c.name, cmd.target)

    def _magic(self, state: State, seat: int, name: str, target: int) -> float:
        d = card(name)
        t = state.card(target) if target else None
        match d.effect:
            case "damage" if t is not None:
                dmg = max(0, d.amount - t.def_)
                return 60 + t.atk if dmg >= t.hp else 5 + dmg / 2
            case "hp_mul" if t is not None:
                delta = t.hp * d.num // d.den - t.hp
                return (abs(delta) / 2 if t.owner != seat else min(delta, t.max_hp - t.hp) / 2) + 2
            case "heal" if t is not None:
                return 2 + min(d.amount, t.max_hp - t.hp) / 2
            case "revive" if t is not None:
                return 40 + t.atk / 2
            case "stun" if t is not None:
                return 6 + t.atk / 5
            case "add":
                return 5 + d.amount * len(state.field(seat)) / 3
            case "mul" if t is not None:
                return 4 + t.stat(d.stat) * abs(d.num - d.den) / max(d.den, 1) / 3
            case "move":
                return 0.5
        return 0.5

    def _act(self, state: State, seat: int, cmd: Act) -> float:
        simulated = self._simulate(state, seat, cmd)
        return simulated if simulated is not None else self._act_formula(state, seat, cmd)

    def _simulate(self, state: State, seat: int, cmd: Act) -> float | None:
        draft: Draft[State, Any] = Draft(state, 1, Rng(0), evolve)
        try:
            decide(state, seat, cmd, draft)
        except KifuError:
            return None
        events = [e.event for e in draft.envelopes]
        if not any(isinstance(e, ev.HpChanged) for e in events):
            return None        # waits for the other seat's pick: nothing to score yet
        score = 0.0
        for e in events:
            if isinstance(e, ev.HpChanged):
                sign = 1 if state.card(e.card).owner != seat else -1
                score += sign * (e.damage - e.heal)
            elif isinstance(e, ev.Died):
                sign = 1 if state.card(e.card).owner != seat else -1
                score += sign * (200 + state.card(e.card).atk)
            elif isinstance(e, ev.MatchEnded):
                score += 10_000 if e.winner == seat else -10_000 if e.winner else 0
        return score + state.card(cmd.card).atk / 100

    def _act_formula(self, state: State, seat: int, cmd: Act) -> float:
        actor = state.card(cmd.card)
        d = card(actor.name)
        t = state.card(cmd.target)
        if d.action == "heal":
            return min(d.amount, t.max_hp - t.hp)
        targets = [t]
        if d.action == "attack_row":
            targets = [state.card(x) for x in getattr(state.side(t.owner), t.zone)]
        total = 0.0
        for x in targets:
            dmg = attack_damage(actor.atk, card(actor.name).element, card(x.name).element, x.def_)
            total += 200 + x.atk if dmg >= x.hp else dmg
        return total + actor.atk / 100
