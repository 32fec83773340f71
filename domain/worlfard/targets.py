"""Targets 【…】: what may be chosen now (W-10.4), and whether a choice is still correct.

W-Q17: broken or sleeping units and empty spots are choosable unless the text restricts it.

Options are ints: a unit, a soul or a graveyard card is its card id; a tower is seat*10+line; a
player is the seat. Skills that put a card somewhere also need the spot, so their options are
card*10+line: instant summon (to an empty own stage spot), instant cast (to an empty own table
spot) and forced moves (to an adjacent empty spot).
"""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.memo import ByIdentity, Slot

from .card_facts import extra_cost, targeting_skill
from .cards import definition
from .geometry import adjacent, lines
from .payment import can_pay
from .skills import Skill, Target
from .state import State

_defn = definition


def _sides(side: str, seat: int) -> tuple[int, ...]:
    return (seat,) if side == "own" else (3 - seat,) if side == "enemy" else (1, 2)


def _fits(state: State, spec: Target, card: int) -> bool:
    if spec.family is None and spec.element is None and spec.max_lv is None:
        return True          # (no restriction: no card to look up)
    d = _defn(state, card)
    if spec.family is not None and spec.family not in d.families:
        return False
    if spec.element is not None and spec.element not in d.elements:
        return False
    return spec.max_lv is None or d.lv <= spec.max_lv


def unit_line(state: State, card: int) -> tuple[int, int] | None:
    """(seat, line) of the unit ``card`` on a stage, or None (it left the field).

    Combat asks this at every step (has a combat unit left?) while the stages stay the same
    objects: where each unit stands is kept for the last two stage rows asked about (held here,
    so their identity stays theirs; one tuple replaced whole, so a thread never reads one pair's
    answer for another; a card is on one stage spot at most, so the order read in does not matter)."""
    s1, s2 = state.sides
    kept = _where.value
    if s1.stage is not kept[0] or s2.stage is not kept[1]:
        kept = _where.value = (s1.stage, s2.stage, {
            unit.card: (seat, line) for seat, stage in ((1, s1.stage), (2, s2.stage))
            for line, unit in enumerate(stage, 1) if unit is not None})
    return kept[2].get(card)


_where: Slot[tuple[object, object, dict[int, tuple[int, int]]]] = Slot("worlfard.unit_line", (None, None, {}))


def _aim_of(skill: Skill) -> tuple[bool, bool]:
    """Whether ``skill`` moves the unit it aims at (to an adjacent empty spot) or takes control
    of it (to the same line)."""
    kinds = {op.op for op in skill.ops}
    return "move" in kinds, "control" in kinds


_unit_aim = ByIdentity("worlfard.unit_aim", _aim_of, bound=4096)   # read off its ops once per printed skill


@implements("W-Q17")
def options(state: State, skill: Skill, seat: int, source: int | None) -> list[int]:
    """Every correct choice for ``skill``'s target, for its controller ``seat``."""
    spec = skill.target
    if spec is None:
        return []
    out: list[int] = []
    if spec.kind == "unit":
        moves, controls = _unit_aim(skill)
        other = spec.other
        for s in _sides(spec.side, seat):
            stage = state.sides[s - 1].stage
            for i, unit in enumerate(stage):
                if unit is None or (other and unit.card == source) or not _fits(state, spec, unit.card):
                    continue
                if moves:
                    out.extend(unit.card * 10 + to for to in adjacent(i + 1) if stage[to - 1] is None)
                elif controls:
                    if state.sides[seat - 1].stage[i] is None:   # the same line on the new controller's side
                        out.append(unit.card)
                else:
                    out.append(unit.card)
    elif spec.kind == "tower":
        for s in _sides(spec.side, seat):
            out.extend(s * 10 + i + 1 for i, t in enumerate(state.side(s).towers) if t.cards)
    elif spec.kind == "player":
        out.extend(_sides(spec.side, seat))
    elif spec.kind in ("soul", "grave"):
        for s in _sides(spec.side, seat):
            out.extend(c for c in getattr(state.side(s), spec.kind) if _fits(state, spec, c))
    elif spec.kind in ("hand_unit", "soul_unit"):
        zone = state.side(seat).hand if spec.kind == "hand_unit" else state.side(seat).soul
        empty = [line for line in lines() if state.side(seat).stage[line - 1] is None]
        for c in zone:
            if _defn(state, c).is_unit and _fits(state, spec, c):
                out.extend(c * 10 + line for line in empty)
    elif spec.kind == "hand_spell":
        empty = [line for line in lines() if state.side(seat).table[line - 1] is None]
        for c in state.side(seat).hand:
            if _defn(state, c).is_spell and _fits(state, spec, c) and free_castable(state, seat, c):
                out.extend(c * 10 + line for line in empty)
    return out


@implements("W-10.4")
def still_correct(state: State, skill: Skill, seat: int, source: int | None, chosen: tuple[int, ...]) -> bool:
    """W-10.4: at resolution the targets must still be choosable correctly."""
    if skill.target is None:
        return True
    valid = set(options(state, skill, seat, source))
    return bool(chosen) and all(c in valid for c in chosen)


@implements("W-10.5")
def free_castable(state: State, seat: int, card: int) -> bool:
    """W-10.5: an instant cast still pays extra costs and needs its targets to exist."""
    d = definition(state, card)
    skill = targeting_skill(d)
    if skill is not None and skill.target is not None and skill.target.kind == "hand_spell":
        return False   # a spell that casts spells is not itself cast that way (no endless chains)
    if not can_pay(state, seat, extra_cost(d)):
        return False
    return skill is None or bool(options(state, skill, seat, card))
