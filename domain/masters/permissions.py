"""Who may do what, when (M-2 .. M-7): one predicate per permission, shared by ``decide`` (which
raises Illegal with the clause and reason) and ``legal`` (which lists what passes).

Each ``may_*`` returns ``(clause, reason)`` of the first thing that forbids it, or None when
allowed. ``legal`` asks only yes or no, mostly of things that are refused, so each refusal's
message is built only after the matching ``can_*`` predicate (the one test both use) said no.
"""
from __future__ import annotations

from kifu.domain.core.clauses import implements

from .board import around, territory
from .state import State
from .vocabulary import MAIN_PHASES, SKILL_PHASE

Reason = tuple[str, str]     # a refusal: the clause and why
Why = Reason | None


def has_priority(state: State, seat: int) -> bool:
    """M-2.1: no choice pending and ``seat`` holds priority."""
    p = state.priority
    return p is not None and p.holder == seat and not state.pending


def sorcery_time(state: State, seat: int, phases: tuple[str, ...]) -> bool:
    """The active master, holding priority, in one of ``phases``, with an empty stack and no combat."""
    return (seat == state.active and state.phase in phases and not state.stack and state.combat is None
            and has_priority(state, seat))


def holds_priority(state: State, seat: int) -> Why:
    if has_priority(state, seat):
        return None
    p = state.priority
    if state.pending or p is None:
        return ("M-2.1", "no priority is open now: a choice is pending")
    if p.holder != seat:
        return ("M-2.1", f"seat {p.holder} holds priority")
    return None


@implements("M-8.1")
def sorcery_timing(state: State, seat: int, phases: tuple[str, ...], clause: str, what: str) -> Why:
    """Why ``sorcery_time`` says no (None when it says yes)."""
    if sorcery_time(state, seat, phases):
        return None
    why = holds_priority(state, seat)
    if why:
        return why
    if state.phase not in phases:
        return (clause, f"{what} is possible only in {' / '.join(phases)}, not in {state.phase}")
    if seat != state.active:
        return (clause, f"{what} is possible only in your own turn")
    if state.stack:
        return (clause, f"{what} needs an empty stack")
    return ("M-8.1", f"{what} is not possible during a combat")


@implements("M-4.1", "M-6.1")
def may_move_master(state: State, seat: int) -> Why:
    """M-4.1, M-6.1, M-Q4: main 1 or main 2, empty stack, once per turn."""
    why = sorcery_timing(state, seat, MAIN_PHASES, "M-4.1", "moving the master")
    if why:
        return why
    if state.side(seat).master_moved:
        return ("M-6.1", "the master has already moved this turn")
    return None


@implements("M-4.2")
def may_summon(state: State, seat: int) -> Why:
    """M-4.2 / M-6: main phases, empty stack."""
    return sorcery_timing(state, seat, MAIN_PHASES, "M-4.2", "summoning")


@implements("M-4.4", "M-5.1", "M-Q7", "M-C7")
def may_ambush(state: State, seat: int) -> Why:
    """M-4.4, M-5.1 and M-Q7: an 【伏兵】 piece in main 1, main 2 or at the start of the action
    phase (until the first piece moves), whatever the stack holds; not during a combat.
    The sample set's 【伏兵】 piece is 伏兵の弓手 (M-C7)."""
    why = holds_priority(state, seat)
    if why:
        return why
    if seat != state.active:
        return ("M-Q7", "ambush deployment is the active master's")
    if state.combat is not None:
        return ("M-Q7", "ambush deployment is not possible during a combat")
    if state.phase in MAIN_PHASES or (state.phase == "action" and not state.moved_in_action):
        return None
    return ("M-5.1", "ambush deployment is possible in the main phases and at the start of the action phase")


def summon_squares(state: State, seat: int, ambush: bool) -> list[int]:
    """M-4.2 with M-Q5: empty squares of the own territory or around the master; under the
    ambush rule (M-Q7) empty squares of the own territory only."""
    occ = state.occupied()
    squares = set(territory(seat))
    if not ambush:
        squares.update(around(state.side(seat).master))
    return sorted(sq for sq in squares if sq not in occ)


@implements("M-4.3", "M-Q8")
def may_cast(state: State, seat: int) -> Why:
    """M-4.3 with M-Q8: spells are main-phase, empty-stack only."""
    return sorcery_timing(state, seat, MAIN_PHASES, "M-4.3", "casting a spell")


@implements("M-5.2")
def may_move_piece(state: State, seat: int) -> Why:
    """M-5.2: pieces move in the action phase, with an empty stack."""
    return sorcery_timing(state, seat, ("action",), "M-5.2", "moving a piece")


def can_activate(state: State, seat: int) -> bool:
    """M-5.4 and M-8.6: activated skills in the action phase (its combats included), whenever
    the seat holds priority, whatever the stack. The seed lists them under the action phase
    alone (the main, standby and end phases list what else may be done there)."""
    return state.phase == SKILL_PHASE and has_priority(state, seat)


def may_activate(state: State, seat: int) -> Why:
    """Why ``can_activate`` says no (None when it says yes)."""
    if can_activate(state, seat):
        return None
    why = holds_priority(state, seat)
    if why:
        return why
    return ("M-5.4", f"activated skills are used in the action phase (and its combats), not in {state.phase}")


@implements("M-3.3", "M-Q13")
def may_charge_piece(state: State, seat: int) -> Why:
    """M-3.3 / M-7.1 with M-Q13: standby or end, once per turn."""
    why = sorcery_timing(state, seat, ("standby", "end"), "M-3.3", "a face-up piece charge")
    if why:
        return why
    if state.side(seat).charged:
        return ("M-Q13", "a piece was already charged this turn")
    return None


# -- yes or no, for ``legal`` (the same tests as the ``may_*`` above, without the reasons) ----------
def can_move_master(state: State, seat: int) -> bool:
    return sorcery_time(state, seat, MAIN_PHASES) and not state.side(seat).master_moved


def can_ambush(state: State, seat: int) -> bool:
    return seat == state.active and has_priority(state, seat) and may_ambush(state, seat) is None


def can_charge_piece(state: State, seat: int) -> bool:
    return sorcery_time(state, seat, ("standby", "end")) and not state.side(seat).charged
