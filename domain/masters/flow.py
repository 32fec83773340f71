"""Turns, phases and the priority rounds (M-2, M-3, M-7): passing, resolving, advancing."""
from __future__ import annotations

from typing import cast

from kifu.domain.core import priority as prio
from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal
from kifu.domain.core.priority import Priority

from . import combat
from . import events as ev
from .effects import MDraft, draw, resolve_top
from .vocabulary import HAND_LIMIT, TURN_PHASES, other


@implements("M-3", "M-3.1", "M-Q12")
def begin_turn(draft: MDraft, turn: int, seat: int, cause: int) -> None:
    """M-3: the standby phase begins; M-3.1 untaps everything of the active master; the
    draw-or-charge (M-3.2) is then awaited. M-Q12: turn 1 has no restriction of its own."""
    seq = draft.rule("M-3", cause, ev.TurnBegan(turn=turn, seat=seat), seat=seat)
    draft.rule("M-3.1", seq, ev.Untapped(seat=seat), seat=seat)


@implements("M-3.2", "M-Q11", "M-C8")
def draw_or_charge(draft: MDraft, seat: int, charge: bool) -> None:
    """M-3.2: draw one, or put the deck's top card face-down in the mana area (M-Q11: with an
    empty deck only "draw" is possible, and it loses). A charge is one source of mana (M-C8)."""
    state = draft.state
    if state.pending != "draw" or seat != state.active:
        raise Illegal("M-3.2", "draw-or-charge is chosen once, at the start of your standby phase")
    deck = state.side(seat).deck
    if charge:
        if not deck:
            raise Illegal("M-Q11", "the deck is empty: nothing to charge (only draw is possible)")
        cause = draft.decision(seat, ev.ChargeChosen(seat=seat), clause="M-3.2")
        draft.rule("M-3.2", cause, ev.ManaCharged(seat=seat, card=deck[0]), seat=seat)
    else:
        cause = draft.decision(seat, ev.DrawChosen(seat=seat), clause="M-3.2")
        draw(draft, seat, 1, "M-3.2", cause)


@implements("M-2.1", "M-5.5")
def pass_priority(draft: MDraft, seat: int) -> None:
    """M-2.1: the holder passes, priority goes to the other master; M-2.2: two passes in
    succession resolve the top of the stack, or (empty stack) end the phase — or, in a combat,
    start the damage calculation (M-8.2). So each phase repeats its actions until both masters
    choose to do nothing (M-5.5)."""
    state = draft.state
    p = state.priority
    if p is None or state.pending:
        raise Illegal("M-2.1", "no priority is open now")
    if p.holder != seat:
        raise Illegal("M-2.1", f"seat {p.holder} holds priority")
    cause = draft.decision(seat, passed_event(seat), "M-2.1")
    if cast(Priority, draft.state.priority).passes >= 2:  # else prio.verdict's "continue"
        after_passes(draft, cause)


def passed_event(seat: int) -> ev.PriorityPassed:
    return _PASSED.get(seat) or ev.PriorityPassed(seat=seat)


def after_passes(draft: MDraft, cause: int) -> None:
    """M-2.2 after the second pass in succession (``cause``): resolve, or advance (M-8.2 in a combat)."""
    after = draft.state
    verdict = prio.verdict(cast(Priority, after.priority), not after.stack)   # (a round is open)
    if verdict == "resolve":
        resolve_top(draft, cause)
    elif verdict == "advance":
        if after.combat is not None:
            combat.resolve(draft, cause)
        else:
            next_phase(draft, cause)


_PASSED = {seat: ev.PriorityPassed(seat=seat) for seat in (1, 2)}    # events are frozen: one per seat serves
_NEXT = dict(zip(TURN_PHASES, TURN_PHASES[1:], strict=False))   # each phase to the one after it
_BEGAN = {(phase, seat): ev.PhaseBegan(phase=phase, seat=seat) for phase in TURN_PHASES for seat in (1, 2)}


@implements("M-2.2", "M-7.2")
def next_phase(draft: MDraft, cause: int) -> None:
    state = draft.state
    if state.phase == "end":
        excess = len(state.side(state.active).hand) - HAND_LIMIT
        if excess > 0:
            draft.rule("M-7.2", cause, ev.HandLimitReached(seat=state.active, excess=excess), seat=state.active)
        else:
            end_turn(draft, cause)
        return
    nxt = _NEXT.get(state.phase) or TURN_PHASES[TURN_PHASES.index(state.phase) + 1]
    active = state.active
    draft.rule("M-2.2", cause, _BEGAN.get((nxt, active)) or ev.PhaseBegan(phase=nxt, seat=active), active)


@implements("M-7", "M-Q9")
def end_turn(draft: MDraft, cause: int) -> None:
    """M-7: the turn ends (effects "until end of turn" end; damage stays, M-Q9); the other
    master's turn begins."""
    state = draft.state
    seq = draft.rule("M-7", cause, ev.TurnEnded(seat=state.active), seat=state.active)
    begin_turn(draft, state.turn + 1, other(state.active), seq)


@implements("M-7.2")
def discard(draft: MDraft, seat: int, card: int) -> None:
    """M-7.2: discard down to 8. A discard is not a destruction: no "when destroyed" skill runs."""
    state = draft.state
    if state.pending != "discard" or seat != state.active:
        raise Illegal("M-7.2", "a discard is made only at the end phase with more than 8 cards in hand")
    if card not in state.side(seat).hand:
        raise Illegal("M-7.2", f"card {card} is not in your hand")
    cause = draft.decision(seat, ev.HandDiscarded(seat=seat, card=card), clause="M-7.2")
    if len(draft.state.side(seat).hand) <= HAND_LIMIT:
        end_turn(draft, cause)
