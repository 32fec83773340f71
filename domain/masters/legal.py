"""``legal``: every decision a seat may take now, built from the same permissions ``decide``
checks (permissions.py), so the two cannot drift apart."""
from __future__ import annotations

from . import commands as c
from .board import around, name, paths
from .combat import can_move
from .decide import awaiting
from .effects import target_ok
from .permissions import (may_activate, may_ambush, may_cast, may_charge_piece, may_move_master, may_move_piece,
                          may_summon, summon_squares)
from .state import State

PASS = c.Pass()


def legal(state: State, seat: int) -> list[c.Command]:
    if seat not in awaiting(state):
        return []
    side = state.side(seat)
    if state.phase == "mulligan":
        if side.kept:
            return [c.Bottom(card=card) for card in side.hand]
        return [c.Keep(), c.Mulligan()]
    if state.pending == "draw":
        return [c.Draw(), c.Charge()] if side.deck else [c.Draw()]
    if state.pending == "discard":
        return [c.Discard(card=card) for card in side.hand]
    out: list[c.Command] = [PASS]
    mana = state.untapped_mana(seat)
    normal = may_summon(state, seat) is None
    ambush = not normal and may_ambush(state, seat) is None
    can_cast = may_cast(state, seat) is None
    can_charge = may_charge_piece(state, seat) is None
    for card in side.hand:
        d = state.card(card)
        if d.kind == "piece":
            if can_charge:
                out.append(c.ChargePiece(card=card))
            if d.cost <= mana and (normal or (ambush and d.keyword("ambush") is not None)):
                out.extend(c.Summon(card=card, square=name(sq)) for sq in summon_squares(state, seat, not normal))
        elif can_cast and d.cost <= mana and d.skill is not None:
            out.extend(c.Cast(card=card, target=t) for t in _targets(state, seat, card, d.skill))
    if may_move_master(state, seat) is None:
        occ = state.occupied()
        out.extend(c.MoveMaster(to=name(sq)) for sq in around(side.master) if sq not in occ)
    moving = may_move_piece(state, seat) is None
    activating = may_activate(state, seat) is None
    occ = state.occupied() if moving else {}
    for p in state.pieces:
        if p.seat != seat:
            continue
        d = state.card(p.card)
        if moving and not can_move(state, p):
            for path in paths(p.square, d.mov, occ, seat):
                out.append(c.Move(piece=p.card, path=tuple(name(x) for x in path)))
        skill = d.skill
        if activating and skill is not None and skill.when == "activated" and skill.mana <= mana \
                and not (skill.tap and p.tapped):
            if any(op.op == "avoid" for op in skill.ops) and (state.combat is None or state.combat.defender != p.card):
                continue
            out.extend(c.Activate(card=p.card, target=t) for t in _targets(state, seat, p.card, skill))
    return out


def _targets(state: State, seat: int, source: int, skill) -> list[str]:  # type: ignore[no-untyped-def]
    """The squares a skill may target ("" for none)."""
    if skill.target in ("none", "self"):
        return [""] if not target_ok(state, seat, source, skill, 0) else []
    return [name(p.square) for p in state.pieces if not target_ok(state, seat, source, skill, p.card)]
