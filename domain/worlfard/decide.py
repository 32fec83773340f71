"""``decide``: route a decision to the rule that handles it. Pure; raises Illegal naming the clause."""
from __future__ import annotations

from domain.core.errors import Illegal

from . import combat, main_phase, setup, turns
from . import commands as c
from .draft import WDraft
from .state import State
from .vocabulary import Phase, other


def awaiting(state: State) -> int | None:
    """The seat the rules wait for: derived from the state, never stored."""
    match state.phase:
        case Phase.OVER:
            return None
        case Phase.ORDER:
            return state.chooser or None
        case Phase.MULLIGAN:
            first = state.first_seat
            return first if state.side(first).mulligan == "pending" else other(first)
    combat_ = state.combat
    if combat_ is not None and combat_.target is not None and not combat_.defended:
        return other(state.turn_seat)
    return state.turn_seat


def decide(state: State, seat: int, command: c.Command, draft: WDraft) -> None:
    phase = state.phase
    expecting_target = state.combat is not None and state.combat.target is None
    if expecting_target and not isinstance(command, c.Target):
        raise Illegal("W-12.2", "an attack was declared: the next decision is its target spot (Target)")
    match command:
        case c.ChooseOrder(go_first=go_first):
            setup.choose_order(draft, seat, go_first)
        case c.Mulligan(redraw=redraw):
            setup.mulligan(draft, seat, redraw)
        case _ if phase in (Phase.ORDER, Phase.MULLIGAN):
            raise Illegal("W-4.4", f"the match has not begun: {type(command).__name__} is not possible before the "
                                   "order choice and mulligans")
        case c.SetTower(card=card, line=line):
            main_phase.set_tower(draft, seat, card, line)
        case c.Summon(card=card, line=line, towers=towers, souls=souls):
            main_phase.summon(draft, seat, card, line, towers, souls)
        case c.Move(line=line, to=to):
            main_phase.move(draft, seat, line, to)
        case c.Attack(line=line):
            combat.attack(draft, seat, line)
        case c.Target(line=line):
            combat.target(draft, seat, line)
        case c.Block(line=line):
            combat.block(draft, seat, line)
        case c.Evade():
            combat.evade(draft, seat)
        case c.NoDefense():
            combat.no_defense(draft, seat)
        case c.Proceed(to=to):
            turns.proceed(draft, seat, to)
        case _:
            raise Illegal("W-1", f"unknown decision {command!r}")
