"""The turn structure (W-5): start phase, moving between phases, end phase, next turn."""
from __future__ import annotations

from typing import cast

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal
from kifu.domain.core.memo import Slot

from . import events as ev
from .checks import end_if_decided, settle
from .draft import WDraft
from .field import stat
from .firing import fire
from .state import State
from .vocabulary import Phase, PhaseName, Status, other

# W-5.2 / W-5.3: where each phase may go when the turn player proceeds
NEXT_PHASES: dict[str, tuple[str, ...]] = {
    Phase.MAIN1: ("battle", "end"),
    Phase.BATTLE: ("main2", "end"),
    Phase.MAIN2: ("end",),
}


def is_first_turn(state: State) -> bool:
    """The first player's first turn (W-5.1, W-5.2 exceptions)."""
    return state.turn == 1


def proceed_targets(state: State) -> tuple[str, ...]:
    """Where the turn player may proceed now (asked for every option list of a main or battle
    phase: the cheap tests first)."""
    phase = state.phase
    options = NEXT_PHASES.get(phase, ())
    if not options or state.combat is not None or state.choice is not None or state.window is not None:
        return ()
    if state.turn == 1 and phase == Phase.MAIN1:   # is_first_turn
        options = _FIRST_MAIN1
    if rage_forces_attack(state):   # W-Q9: no leaving the battle (or skipping it) while rage can attack
        options = tuple(o for o in options if o == "battle")
    return options


_FIRST_MAIN1 = tuple(o for o in NEXT_PHASES[Phase.MAIN1] if o != "battle")   # W-5.2: no battle on the first turn
_RAGE_PHASES = frozenset((Phase.MAIN1, Phase.BATTLE))


@implements("W-9.5", "W-Q9")
def rage_forces_attack(state: State) -> bool:
    """W-9.5 with W-Q9: a raging unit that could legally attack must; not on the first turn."""
    if state.turn == 1 or state.phase not in _RAGE_PHASES:   # (is_first_turn)
        return False
    seat = state.turn_seat
    stage = state.sides[seat - 1].stage
    if stage is _calm.value:
        return False
    raging = False
    for i, unit in enumerate(stage):
        if unit is not None and unit.status == _RAGE:
            if not unit.broken and stat(state, seat, i + 1, "AGI") >= 1:
                return True
            raging = True
    if not raging:
        _calm.value = stage
    return False


# the stage row last found with no raging unit (kept alive here, so its identity stays its own): a
# main or battle phase asks of the same row at every decision that does not change it
_calm: Slot[object] = Slot("worlfard.calm_stage", None)
_RAGE = Status.RAGE


@implements("W-5.2", "W-5.3", "W-5.4", "W-9.5", "W-Q9")
def proceed(draft: WDraft, seat: int, to: str) -> None:
    state = draft.state
    if state.combat is not None:
        raise Illegal("W-12.1", "a declared attack cannot be cancelled; finish the combat first")
    allowed = NEXT_PHASES.get(state.phase, ())
    if state.choice is not None or state.window is not None:
        raise Illegal("W-13.1", "finish the waiting choice or reaction window first")
    if to != "battle" and to in allowed and rage_forces_attack(state):
        raise Illegal("W-9.5", "a raging unit that can attack must attack first (W-Q9)")
    if to not in allowed:
        raise Illegal("W-5.2" if state.phase != Phase.BATTLE else "W-5.3",
                      f"from {state.phase} the turn goes to {' or '.join(allowed) or 'nowhere'}, not {to}")
    if to == "battle" and is_first_turn(state):
        raise Illegal("W-5.2", "the first player cannot enter the battle phase on their first turn")
    cause = draft.decision(seat, ev.PhaseLeft(seat=seat, to=to),
                           clause="W-5.3" if state.phase == Phase.BATTLE else "W-5.2")
    if to == "end":
        end_turn(draft, cause)
    else:
        phase = cast(PhaseName, to)   # one of NEXT_PHASES (checked above)
        draft.rule("W-5.3" if to == "battle" else "W-5.4", cause, ev.PhaseBegan(phase=phase))


@implements("W-1.1", "W-5", "W-5.1", "W-7.4", "W-9.2", "W-9.3", "W-11.3", "W-Q6", "W-Q10")
def begin_turn(draft: WDraft, turn: int, seat: int, cause: int) -> None:
    """W-5.1: recover (broken towers too, W-7.4), remove damage (not from a poisoned unit, W-9.2),
    recover one heart, draw — then 1st Main."""
    began = draft.rule("W-5", cause, ev.TurnBegan(turn=turn, seat=seat))
    side = draft.state.sides[seat - 1]
    towers = tuple(i + 1 for i, t in enumerate(side.towers) if t.broken)
    paralysed: list[int] = []
    units: list[int] = []
    damaged: list[int] = []
    for i, u in enumerate(side.stage):   # one pass over the stage, read as the turn began
        if u is not None:
            if u.broken:
                (paralysed if u.status == Status.PARALYSIS else units).append(i + 1)
            if u.damage and u.status != Status.POISON:
                damaged.append(i + 1)
    for line in paralysed:   # W-9.3 with W-Q10: the recovery is cancelled, the paralysis used up
        draft.rule("W-9.3", began, ev.RecoveryCancelled(seat=seat, line=line))
    tables = tuple(i + 1 for i, t in enumerate(side.table) if t is not None and t.broken)
    if towers or units or tables:
        draft.rule("W-5.1", began, ev.Recovered(seat=seat, towers=towers, units=tuple(units), tables=tables))
    if damaged:
        draft.rule("W-5.1", began, ev.DamageRemoved(seat=seat, lines=tuple(damaged)))
    if is_first_turn(draft.state):
        draft.rule("W-5.1", began, ev.FirstTurnSkips(seat=seat))
    else:
        broken = [i for i, h in enumerate(side.hearts) if h.broken]
        if broken:  # W-Q6: the top-most broken heart recovers
            draft.rule("W-11.3", began, ev.HeartRecovered(seat=seat, index=broken[0]))
        deck = draft.state.sides[seat - 1].deck
        if not deck:
            out = draft.rule("W-5.1", began, ev.DeckOut(seat=seat))
            draft.rule("W-1.1", out, ev.PlayerLost(seat=seat, reason="deck out"))
            end_if_decided(draft, out)
            return
        draft.rule("W-5.1", began, ev.CardDrawn(seat=seat, card=deck[0]))
    _start_phase_skills(draft, seat, began)
    # the move to 1st Main comes from flow.advance, once start-phase skills have resolved


@implements("W-11.5")
def _start_phase_skills(draft: WDraft, seat: int, cause: int) -> None:
    """<ハート> skills of the face-up heart and units' start-phase skills fire (W-11.5)."""
    side = draft.state.sides[seat - 1]
    for heart in side.hearts:
        if heart.face_up:   # only a face-up heart's text is known, so only it works (interpretation)
            fire(draft, seat, heart.card, "start_phase", cause, zone="heart")
    for i, unit in enumerate(side.stage):
        if unit is not None:
            fire(draft, seat, unit.card, "start_phase", cause, line=i + 1)


@implements("W-5.5", "W-9.1")
def end_turn(draft: WDraft, cause: int) -> None:
    """W-5.5: sleep is removed, then the turn passes to the other player."""
    state = draft.state
    end = draft.rule("W-5.5", cause, ev.PhaseBegan(phase=Phase.END))
    for seat in (1, 2):
        asleep = tuple(i + 1 for i, u in enumerate(state.sides[seat - 1].stage)
                       if u is not None and u.status == Status.SLEEP)
        if asleep:
            draft.rule("W-9.1", end, ev.SleepRemoved(seat=seat, lines=asleep))
    effects = draft.state.effects
    expiring = {"turn", f"turn:{state.turn}"} if effects else ()
    ids = tuple(e.id for e in effects if e.until in expiring)
    if ids:
        draft.rule("W-5.5", end, ev.EffectsEnded(ids=ids, reason="end of turn"))
        settle(draft, end)   # an ended effect may leave a unit at VIT 0 or damage >= VIT (W-14.2)
    begin_turn(draft, state.turn + 1, other(state.turn_seat), end)
