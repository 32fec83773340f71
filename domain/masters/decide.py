"""``decide``: validate a decision (Illegal names the clause), record it, run the rules to rest.

Pure. Everything a rule does follows the decision as a rule event naming its clause and cause.
"""
from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import combat, flow, setup
from . import commands as c
from . import events as ev
from .board import around, name, parse
from .effects import MDraft, settle, target_ok
from .permissions import (
    Reason,
    can_activate,
    can_charge_piece,
    can_move_master,
    may_activate,
    may_ambush,
    may_cast,
    may_charge_piece,
    may_move_master,
    may_summon,
    sorcery_time,
    summon_squares,
)
from .state import State
from .vocabulary import MAIN_PHASES

NOBODY: frozenset[int] = frozenset()
_ONLY = {1: frozenset((1,)), 2: frozenset((2,))}     # built once: asked several times a decision


def _only(seat: int) -> frozenset[int]:
    return _ONLY.get(seat) or frozenset((seat,))


_PASS = c.Pass
_FINE: list[object] = [None]
_PASSED = flow._PASSED


def awaiting(state: State) -> frozenset[int]:
    """The seat the rules wait for: derived from the state, never stored."""
    p = state.priority
    if p is not None and state.outcome is None and not state.pending and state.phase != "mulligan":
        return _ONLY.get(p.holder) or frozenset((p.holder,))    # the usual case, the tests below in order
    if state.outcome is not None:
        return NOBODY
    if state.phase == "mulligan":
        return _only(setup.mulligan_seat(state))
    if state.pending:
        return _only(state.active)
    if state.priority is not None:
        return _only(state.priority.holder)
    return NOBODY


def waiting_clause(state: State) -> str:
    if state.phase == "mulligan":
        return "M-1.7"
    if state.pending == "draw":
        return "M-3.2"
    if state.pending == "discard":
        return "M-7.2"
    if state.combat is not None:
        return "M-8.1"
    return "M-2.1"


def decide(state: State, seat: int, command: c.Command, draft: MDraft) -> None:
    if state.outcome is not None:
        raise Illegal("M-1.2", "the match is over")
    kind = type(command)
    if (kind is _PASS or kind in _PLAY) and not state.pending and state.phase != "mulligan":
        if kind is _PASS:                       # most decisions: flow.pass_priority, written out
            p = draft.state.priority
            if p is None or p.holder != seat or draft.state.pending:
                flow.pass_priority(draft, seat)     # (which says why not)
            else:
                cause = draft.decision(seat, _PASSED.get(seat) or flow.passed_event(seat), "M-2.1")
                # the pass just recorded keeps the round open; no cast here: this runs for most decisions
                if draft.state.priority.passes >= 2:  # type: ignore[union-attr]  # else prio.verdict's "continue"
                    flow.after_passes(draft, cause)
        else:
            _PLAY[kind](draft, seat, command)   # what the ``match`` below does with these, without its tests
    else:
        _setup_or_pending(state, seat, command, draft)
    after = draft.state
    sides = after.sides
    if sides is _FINE[0]:
        return              # the sides last found with both masters above 0 life, neither lost
    one, two = sides
    # settle's own first test, here so that the usual decision (nobody at 0 life, nobody lost, the
    # match going on) costs no call: settle would add nothing then
    if one.life <= 0 or two.life <= 0 or one.lost or two.lost:
        if after.outcome is None and draft.envelopes:
            settle(draft, draft.envelopes[0].seq)
    else:
        _FINE[0] = sides    # (held here, so no other tuple can take its id)


def _setup_or_pending(state: State, seat: int, command: c.Command, draft: MDraft) -> None:
    """Mulligans, draw-or-charge and discards, and the refusals while one of them is due."""
    match command:
        case c.Mulligan():
            setup.mulligan(draft, seat)
        case c.Keep():
            setup.keep(draft, seat)
        case c.Bottom(card=card):
            setup.bottom(draft, seat, card)
        case _ if state.phase == "mulligan":
            raise Illegal("M-1.7", f"the game has not started: {type(command).__name__} is not possible "
                                   "during mulligans")
        case c.Draw():
            flow.draw_or_charge(draft, seat, charge=False)
        case c.Charge():
            flow.draw_or_charge(draft, seat, charge=True)
        case c.Discard(card=card):
            flow.discard(draft, seat, card)
        case _ if state.pending:
            clause = waiting_clause(state)
            raise Illegal(clause, f"{type(command).__name__} is not possible now: "
                                  f"{'draw or charge' if state.pending == 'draw' else 'discard'} first")
        case c.ChargePiece(card=card):
            charge_piece(draft, seat, card)
        case c.MoveMaster(to=to):
            move_master(draft, seat, to)
        case c.Summon(card=card, square=square):
            summon(draft, seat, card, square)
        case c.Cast(card=card, target=target):
            cast(draft, seat, card, target)
        case c.Activate(card=card, target=target):
            activate(draft, seat, card, target)
        case c.Move(piece=piece, path=path):
            combat.move(draft, seat, piece, path)
        case _:
            raise Illegal("M-2.1", f"unknown decision {command!r}")


def _in_hand(state: State, seat: int, card: int, clause: str) -> None:
    if card not in state.side(seat).hand:
        raise Illegal(clause, f"card {card} is not in your hand")


@implements("M-Q6")
def _afford(state: State, seat: int, cost: int, clause: str) -> None:
    """M-Q6: each untapped mana card gives 1 generic mana."""
    have = state.untapped_mana(seat)
    if cost > have:
        raise Illegal(clause, f"costs {cost} mana but only {have} untapped mana card(s) remain (M-Q6)")


@implements("M-3.3", "M-7.1")
def charge_piece(draft: MDraft, seat: int, card: int) -> None:
    state = draft.state
    if not can_charge_piece(state, seat):       # the yes-or-no test first: the reason only for a refusal
        raise Illegal(*typing.cast(Reason, may_charge_piece(state, seat)))
    _in_hand(state, seat, card, "M-3.3")
    if state.card(card).kind != "piece":
        raise Illegal("M-3.3", "only a piece may be charged face-up")
    clause = "M-3.3" if state.phase == "standby" else "M-7.1"     # the face-up charge of M-C8
    draft.decision(seat, ev.ManaCharged(seat=seat, card=card, face_up=True), clause=clause)


@implements("M-Q1")
def _square(text: str) -> int:
    sq = parse(text)
    if not sq:
        raise Illegal("M-Q1", f"{text!r} is not a square of the board (a1 .. e6)")
    return sq


@implements("M-4.1", "M-6.1", "M-Q4")
def move_master(draft: MDraft, seat: int, square: str) -> None:
    """M-4.1 with M-Q4: one square in any of 8 directions into an empty square."""
    state = draft.state
    to = _square(square)
    if not can_move_master(state, seat):
        raise Illegal(*typing.cast(Reason, may_move_master(state, seat)))
    at = state.side(seat).master
    if to not in around(at):
        raise Illegal("M-Q4", f"the master moves one square (8 directions); {name(to)} is not next to {name(at)}")
    if to in state.occupied():
        raise Illegal("M-Q4", f"{name(to)} is occupied")
    draft.decision(seat, ev.MasterMoved(seat=seat, source=name(at), to=name(to)),
                   clause="M-4.1" if state.phase == "main1" else "M-6.1")


@implements("M-4.2", "M-6.1", "M-Q5", "M-Q7")
def summon(draft: MDraft, seat: int, card: int, where: str) -> None:
    state = draft.state
    square = _square(where)
    _in_hand(state, seat, card, "M-4.2")
    d = state.card(card)
    if d.kind != "piece":
        raise Illegal("M-4.2", "only pieces are summoned; spells are cast")
    normal = may_summon(state, seat)
    use_ambush = False
    if normal is not None:
        if d.keyword("ambush") is None:
            raise Illegal(*normal)
        ambush = may_ambush(state, seat)
        if ambush is not None:
            raise Illegal(*ambush)
        use_ambush = True
    _afford(state, seat, d.cost, "M-4.2")
    if square not in summon_squares(state, seat, use_ambush):
        where = "an empty square of your territory" if use_ambush else \
            "an empty square of your territory or around your master"
        raise Illegal("M-Q7" if use_ambush else "M-Q5", f"{name(square)} is not {where}")
    clause = "M-Q7" if use_ambush else ("M-4.2" if state.phase == "main1" else "M-6.1")
    draft.decision(seat, ev.PieceSummoned(seat=seat, card=card, square=name(square), paid=d.cost, ambush=use_ambush),
                   clause=clause)


def _target_card(state: State, target: str) -> int:
    if not target:
        return 0
    p = state.at(_square(target))
    return p.card if p is not None else -1


@implements("M-4.3")
def cast(draft: MDraft, seat: int, card: int, target: str) -> None:
    state = draft.state
    if not sorcery_time(state, seat, MAIN_PHASES):     # may_cast's test
        raise Illegal(*typing.cast(Reason, may_cast(state, seat)))
    _in_hand(state, seat, card, "M-4.3")
    d = state.card(card)
    if d.kind != "spell" or d.skill is None:
        raise Illegal("M-4.3", "only spells are cast; pieces are summoned")
    _afford(state, seat, d.cost, "M-4.3")
    tcard = _target_card(state, target)
    reason = target_ok(state, seat, card, d.skill, tcard)
    if reason:
        raise Illegal("M-4.3", reason)
    draft.decision(seat, ev.SpellCast(seat=seat, card=card, target=tcard, at=target, paid=d.cost), clause="M-4.3")


@implements("M-5.4")
def activate(draft: MDraft, seat: int, card: int, target: str) -> None:
    state = draft.state
    if not can_activate(state, seat):                  # may_activate's test
        raise Illegal(*typing.cast(Reason, may_activate(state, seat)))
    piece = state.piece(card)
    if piece is None or piece.seat != seat:
        raise Illegal("M-5.4", f"card {card} is not one of your pieces on the board")
    skill = state.card(card).skill
    if skill is None or skill.when != "activated":
        raise Illegal("M-5.4", f"{state.name(card)} has no activated skill")
    if skill.tap and piece.tapped:
        raise Illegal("M-5.4", "the skill's cost taps the piece, and it is already tapped")
    _afford(state, seat, skill.mana, "M-5.4")
    if any(op.op == "avoid" for op in skill.ops):
        combat = state.combat
        if combat is None or combat.defender != card:
            raise Illegal("M-8.1", "combat avoidance is used by the attacked piece during its combat")
    tcard = _target_card(state, target)
    reason = target_ok(state, seat, card, skill, tcard)
    if reason:
        raise Illegal("M-5.4", reason)
    draft.decision(seat, ev.SkillActivated(seat=seat, card=card, target=tcard, at=target, paid=skill.mana,
                                         tapped=skill.tap),
                   clause="M-5.4")


# the decisions of the game itself (no mulligan, nothing pending), by type: ``decide`` goes straight to them
_PLAY: dict[type, Callable[[MDraft, int, Any], None]] = {
    c.ChargePiece: lambda draft, seat, cmd: charge_piece(draft, seat, cmd.card),
    c.MoveMaster: lambda draft, seat, cmd: move_master(draft, seat, cmd.to),
    c.Summon: lambda draft, seat, cmd: summon(draft, seat, cmd.card, cmd.square),
    c.Cast: lambda draft, seat, cmd: cast(draft, seat, cmd.card, cmd.target),
    c.Activate: lambda draft, seat, cmd: activate(draft, seat, cmd.card, cmd.target),
    c.Move: lambda draft, seat, cmd: combat.move(draft, seat, cmd.piece, cmd.path),
}
