"""Carrying the rules forward after every decision until a player must decide again (W-1.3:
the rules apply every effect and step by themselves).

The settle loop of the match: waiting triggers resolve in order (W-13.2), a closed reaction
chain resolves newest first (W-13.1), and a combat moves through its automatic steps (W-12).
Every step is a rule event; the loop stops where the rules wait for a seat.
"""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import combat
from . import events as ev
from .checks import settle
from .draft import WDraft
from .ops import resolve_spell
from .state import Window
from .triggers import process_next
from .vocabulary import Phase, other

MAX_STEPS = 10_000   # loop guard: a flow that never waits is a bug, not a hang


@implements("W-1.3", "W-5.1", "W-12.2", "W-12.3", "W-12.5", "W-12.7", "W-13.1", "W-13.2", "W-Q11")
def advance(draft: WDraft, cause: int) -> None:
    settled_at = -1
    for _ in range(MAX_STEPS):
        if draft.next_seq != settled_at:   # state-based checks after every step that changed something
            settle(draft, cause)           # (a decision may change VIT, W-14.2)
            settled_at = draft.next_seq
        state = draft.state
        if state.outcome is not None or state.choice is not None:
            return
        window = state.window
        if window is not None and window.resolving:
            if window.chain:
                ref = window.chain[-1]
                resolve_spell(draft, ref // 10, ref % 10, cause)
            else:
                _close_window(draft, cause, window)
            continue
        if state.queue:
            process_next(draft, cause)
            continue
        if window is not None:
            if window.passes >= 2:   # W-13.1: both players passed in succession
                if window.chain:
                    draft.rule("W-13.1", cause, ev.ChainResolving(chain=window.chain))
                else:
                    _close_window(draft, cause, window)
                continue
            return
        c = state.combat
        if c is None:
            if state.phase == Phase.START:   # W-5.1: the start phase ends by itself
                draft.rule("W-5.1", cause, ev.PhaseBegan(phase=Phase.MAIN1))
            return
        # W-12.7 stops a combat whose unit left before damage; units destroyed by the damage itself
        # are W-12.8 end processing, and the combat then ends as resolved
        reason = combat.left_field(state) if c.step != "after" else None
        if reason is not None:
            combat.end_combat(draft, cause, reason, clause="W-12.7")
            continue
        match c.step:
            case "attack":
                if not combat.targets(state):   # W-Q11: nothing in range any more
                    a_line = combat.attacker_line(state)
                    if a_line is not None:
                        draft.rule("W-Q11", cause, ev.UnitBroken(seat=state.turn_seat, line=a_line))
                    combat.end_combat(draft, cause, "no stage spot within the attacker's AGI", clause="W-Q11")
                else:
                    draft.rule("W-12.2", cause, ev.CombatStep(step="target"))
                    return
            case "react1":
                draft.rule("W-12.3", cause, ev.WindowOpened(window=Window(step=1, seat=state.turn_seat)))
                return
            case "defended":
                combat.defender_breaks(draft, cause)
            case "react2":
                draft.rule("W-12.5", cause, ev.WindowOpened(window=Window(step=2, seat=other(state.turn_seat))))
                return
            case "damage":   # the damage traces back to the defense declaration that fixed it
                combat.resolve(draft, c.decided or cause)
            case "after":
                combat.end_combat(draft, cause, "combat resolved")
            case _:   # "target" and "defend" wait for a player
                return
    raise RuntimeError("the rules did not come to rest")  # pragma: no cover


@implements("W-13.1")
def _close_window(draft: WDraft, cause: int, window: Window) -> None:
    draft.rule("W-13.1", cause, ev.WindowClosed(step=window.step))
    if draft.state.combat is not None:
        draft.rule("W-12.4" if window.step == 1 else "W-12.6", cause,
                   ev.CombatStep(step="defend" if window.step == 1 else "damage"))


@implements("W-13.1")
def pass_(draft: WDraft, seat: int) -> None:
    window = draft.state.window
    if window is None or window.resolving:
        raise Illegal("W-13.1", "there is no reaction window open")
    if window.seat != seat:
        raise Illegal("W-13.1", f"seat {window.seat} has the right to cast or pass now")
    draft.decision(seat, ev.Passed(seat=seat), clause="W-13.1")
