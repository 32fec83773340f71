"""``legal``: every decision a seat may take now, built from the same permissions ``decide``
checks (permissions.py), so the two cannot drift apart."""
from __future__ import annotations

from . import commands as c
from .board import around, name, paths
from .combat import why_still
from .decide import awaiting
from .effects import target_ok
from .permissions import can_ambush, can_charge_piece, can_move_master, has_priority, sorcery_time, summon_squares
from .vocabulary import MAIN_PHASES
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
    normal = sorcery_time(state, seat, MAIN_PHASES)    # may_summon's and may_cast's test
    ambush = not normal and can_ambush(state, seat)
    can_charge = can_charge_piece(state, seat)
    activating = has_priority(state, seat)             # may_activate's
    moving = sorcery_time(state, seat, ("action",))    # may_move_piece's
    mana = -1                                          # untapped mana, counted when first needed
    if normal or ambush or can_charge:
        squares: list[str] | None = None               # where a piece may be summoned, worked out once
        for card in side.hand:
            d = state.card(card)
            if d.kind == "piece":
                if can_charge:
                    out.append(c.ChargePiece(card=card))
                if normal or (ambush and d.keyword("ambush") is not None):
                    mana = _mana(state, seat, mana)
                    if d.cost <= mana:
                        if squares is None:
                            squares = [name(sq) for sq in summon_squares(state, seat, not normal)]
                        out.extend(c.Summon(card=card, square=sq) for sq in squares)
            elif normal and d.skill is not None:
                mana = _mana(state, seat, mana)
                if d.cost <= mana:
                    out.extend(c.Cast(card=card, target=t) for t in _targets(state, seat, card, d.skill))
    if can_move_master(state, seat):
        occ = state.occupied()
        out.extend(c.MoveMaster(to=name(sq)) for sq in around(side.master) if sq not in occ)
    if not (moving or activating):
        return out
    occ = state.occupied() if moving else {}
    for p in state.pieces:
        if p.seat != seat:
            continue
        d = state.card(p.card)
        if moving and not why_still(d, p):
            for path in paths(p.square, d.mov, occ, seat):
                out.append(c.Move(piece=p.card, path=tuple(name(x) for x in path)))
        skill = d.skill
        if activating and skill is not None and skill.when == "activated" and not (skill.tap and p.tapped):
            mana = _mana(state, seat, mana)
            if skill.mana > mana:
                continue
            if any(op.op == "avoid" for op in skill.ops) and (state.combat is None or state.combat.defender != p.card):
                continue
            out.extend(c.Activate(card=p.card, target=t) for t in _targets(state, seat, p.card, skill))
    return out


def _mana(state: State, seat: int, known: int) -> int:
    """The seat's untapped mana: ``known`` once counted (not -1), else counted now."""
    return known if known >= 0 else state.untapped_mana(seat)


def _targets(state: State, seat: int, source: int, skill) -> list[str]:  # type: ignore[no-untyped-def]
    """The squares a skill may target ("" for none)."""
    if skill.target in ("none", "self"):
        return [""] if not target_ok(state, seat, source, skill, 0) else []
    return [name(p.square) for p in state.pieces if not target_ok(state, seat, source, skill, p.card)]
