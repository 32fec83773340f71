"""The turn structure (W-5): start phase, moving between phases, end phase, next turn."""
from __future__ import annotations

from domain.core.errors import Illegal

from . import events as ev
from .checks import end_if_decided
from .draft import WDraft
from .state import State
from .vocabulary import Phase, Status, other

# W-5.2 / W-5.3: where each phase may go when the turn player proceeds
NEXT_PHASES: dict[Phase, tuple[str, ...]] = {
    Phase.MAIN1: ("battle", "end"),
    Phase.BATTLE: ("main2", "end"),
    Phase.MAIN2: ("end",),
}


def is_first_turn(state: State) -> bool:
    """The first player's first turn (W-5.1, W-5.2 exceptions)."""
    return state.turn == 1


def proceed_targets(state: State) -> tuple[str, ...]:
    options = NEXT_PHASES.get(state.phase, ())
    if state.phase == Phase.MAIN1 and is_first_turn(state):
        options = tuple(o for o in options if o != "battle")
    if state.combat is not None:
        return ()
    return options


def proceed(draft: WDraft, seat: int, to: str) -> None:
    state = draft.state
    if state.combat is not None:
        raise Illegal("W-12.1", "a declared attack cannot be cancelled; finish the combat first")
    allowed = NEXT_PHASES.get(state.phase, ())
    if to not in allowed:
        raise Illegal("W-5.2" if state.phase != Phase.BATTLE else "W-5.3",
                      f"from {state.phase.value} the turn goes to {' or '.join(allowed) or 'nowhere'}, not {to}")
    if to == "battle" and is_first_turn(state):
        raise Illegal("W-5.2", "the first player cannot enter the battle phase on their first turn")
    cause = draft.decision(seat, ev.PhaseLeft(seat=seat, to=to), clause="W-5.3" if state.phase == Phase.BATTLE else "W-5.2")
    if to == "end":
        end_turn(draft, cause)
    else:
        draft.rule("W-5.3" if to == "battle" else "W-5.4", cause, ev.PhaseBegan(phase=Phase(to)))


def begin_turn(draft: WDraft, turn: int, seat: int, cause: int) -> None:
    """W-5.1: recover, remove damage, recover one heart, draw — then 1st Main."""
    began = draft.rule("W-5", cause, ev.TurnBegan(turn=turn, seat=seat))
    side = draft.state.side(seat)
    towers = tuple(i + 1 for i, t in enumerate(side.towers) if t.broken)
    units = tuple(i + 1 for i, u in enumerate(side.stage) if u is not None and u.broken)
    if towers or units:
        draft.rule("W-5.1", began, ev.Recovered(seat=seat, towers=towers, units=units))
    damaged = tuple(i + 1 for i, u in enumerate(side.stage)
                    if u is not None and u.damage and u.status != Status.POISON)
    if damaged:
        draft.rule("W-5.1", began, ev.DamageRemoved(seat=seat, lines=damaged))
    if is_first_turn(draft.state):
        draft.rule("W-5.1", began, ev.FirstTurnSkips(seat=seat))
    else:
        broken = [i for i, h in enumerate(side.hearts) if h.broken]
        if broken:  # W-Q6: the top-most broken heart recovers
            draft.rule("W-11.3", began, ev.HeartRecovered(seat=seat, index=broken[0]))
        deck = draft.state.side(seat).deck
        if not deck:
            out = draft.rule("W-5.1", began, ev.DeckOut(seat=seat))
            draft.rule("W-1.1", out, ev.PlayerLost(seat=seat, reason="deck out"))
            end_if_decided(draft, out)
            return
        draft.rule("W-5.1", began, ev.CardDrawn(seat=seat, card=deck[0]))
    draft.rule("W-5.1", began, ev.PhaseBegan(phase=Phase.MAIN1))


def end_turn(draft: WDraft, cause: int) -> None:
    """W-5.5: sleep is removed, then the turn passes to the other player."""
    state = draft.state
    end = draft.rule("W-5.5", cause, ev.PhaseBegan(phase=Phase.END))
    for seat in (1, 2):
        asleep = tuple(i + 1 for i, u in enumerate(state.side(seat).stage)
                       if u is not None and u.status == Status.SLEEP)
        if asleep:
            draft.rule("W-9.1", end, ev.SleepRemoved(seat=seat, lines=asleep))
    begin_turn(draft, state.turn + 1, other(state.turn_seat), end)
