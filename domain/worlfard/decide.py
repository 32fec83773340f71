"""``decide``: route a decision to the rule that handles it, then carry the rules forward until a
seat must decide again. Pure; raises Illegal naming the clause."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import activate, checks, combat, flow, main_phase, setup, spells, triggers, turns
from . import commands as c
from .draft import WDraft
from .state import State
from .vocabulary import Phase, other


def awaiting(state: State) -> int | None:
    """The seat the rules wait for: derived from the state, never stored."""
    phase = state.phase
    if phase in _NOT_PLAYING:
        if phase == Phase.OVER:
            return None
        if phase == Phase.ORDER:
            return state.chooser or None
        first = state.first_seat
        return first if state.side(first).mulligan == "pending" else other(first)
    if state.choice is not None:
        return state.choice.seat
    if state.window is not None and not state.window.resolving:
        return state.window.seat
    if state.combat is not None and state.combat.step == "defend":
        return other(state.turn_seat)
    return state.turn_seat


def awaited(state: State) -> frozenset[int]:
    """The core's view of ``awaiting``: WORLFARD always waits for one seat at a time."""
    seat = awaiting(state)
    return frozenset() if seat is None else _ONE[seat]


_ONE = {1: frozenset((1,)), 2: frozenset((2,))}
# awaiting runs several times a decision: one set test tells the phases before and after play
_NOT_PLAYING = frozenset({Phase.OVER, Phase.ORDER, Phase.MULLIGAN})


def waiting_clause(state: State) -> str:
    """The clause that makes it this seat's decision (cited when another seat tries to decide)."""
    match state.phase:
        case Phase.ORDER:
            return "W-4.3"
        case Phase.MULLIGAN:
            return "W-Q16"
    pending = _expected(state)
    return _PENDING[pending[0]][0] if pending is not None else "W-5.6"


_PENDING = {
    "choice": ("W-2.4", "a skill waits for its controller's choice (Choose, or Decline if optional)"),
    "window": ("W-13.1", "a reaction window is open: cast a Short Spell or Pass"),
    "target": ("W-12.2", "an attack was declared: the next decision is its target spot (Target)"),
    "defend": ("W-12.4", "the defender declares Block, Evade or NoDefense"),
}


def _expected(state: State) -> tuple[str, frozenset[type]] | None:
    """What the pending step accepts, if a step is pending."""
    if state.choice is not None:
        return _CHOICE
    if state.window is not None:
        return _WINDOW
    combat = state.combat
    if combat is not None:
        if combat.step == "target":
            return _TARGET
        if combat.step == "defend":
            return _DEFEND
    return None


_CHOICE = ("choice", frozenset({c.Choose, c.Decline}))
_WINDOW = ("window", frozenset({c.Cast, c.Pass}))
_TARGET = ("target", frozenset({c.Target}))
_DEFEND = ("defend", frozenset({c.Block, c.Evade, c.NoDefense}))
_ANSWERS = frozenset({c.Choose, c.Decline, c.Pass, c.Target, c.Block, c.Evade, c.NoDefense})   # only to a pending step
_BEFORE_PLAY = frozenset({Phase.ORDER, Phase.MULLIGAN})


@implements("W-5.6")
def decide(state: State, seat: int, command: c.Command, draft: WDraft) -> None:
    kind = type(command)
    pending = _expected(state)
    if pending is not None:
        if kind not in pending[1]:
            raise Illegal(*_PENDING[pending[0]])
    elif kind in _ANSWERS:
        raise Illegal("W-5.6", f"nothing is waiting for {kind.__name__} now")
    if kind is c.ChooseOrder:
        setup.choose_order(draft, seat, cast(c.ChooseOrder, command).go_first)
        return
    if kind is c.Mulligan:
        setup.mulligan(draft, seat, cast(c.Mulligan, command).redraw)
    elif state.phase in _BEFORE_PLAY:
        raise Illegal("W-4.4", f"the match has not begun: {kind.__name__} is not possible before the "
                               "order choice and mulligans")
    else:
        rule = _RULES.get(kind)
        if rule is None:
            raise Illegal("W-1", f"unknown decision {command!r}")
        checks.begin(draft, state)
        rule(draft, seat, command)
    if draft.envelopes:
        flow.advance(draft, draft.envelopes[0].seq)
        checks.ended(draft)


# the rule each decision goes to once the match has begun (looked up by the command's type)
_RULES: dict[type, Callable[[WDraft, int, Any], None]] = {
    c.SetTower: lambda d, seat, x: main_phase.set_tower(d, seat, x.card, x.line),
    c.Summon: lambda d, seat, x: main_phase.summon(d, seat, x.card, x.line, x.towers, x.souls, x.heart, x.heart_soul),
    c.Cast: lambda d, seat, x: spells.cast(d, seat, x.card, x.line, x.towers, x.souls, x.targets, x.heart,
                                           x.heart_soul),
    c.Activate: lambda d, seat, x: activate.activate(d, seat, x.card, x.skill, x.towers, x.souls, x.targets),
    c.Move: lambda d, seat, x: main_phase.move(d, seat, x.line, x.to),
    c.Attack: lambda d, seat, x: combat.attack(d, seat, x.line),
    c.Target: lambda d, seat, x: combat.target(d, seat, x.line),
    c.Block: lambda d, seat, x: combat.block(d, seat, x.line),
    c.Evade: lambda d, seat, x: combat.evade(d, seat),
    c.NoDefense: lambda d, seat, x: combat.no_defense(d, seat),
    c.Pass: lambda d, seat, x: flow.pass_(d, seat),
    c.Choose: lambda d, seat, x: triggers.choose(d, seat, x.targets),
    c.Decline: lambda d, seat, x: triggers.decline(d, seat),
    c.Proceed: lambda d, seat, x: turns.proceed(d, seat, x.to),
}
