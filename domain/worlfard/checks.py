"""State-based checks run after every consequence until nothing more fires (a settle loop).

Destruction and vanishing (W-8.3, W-8.4 with W-Q5) and losing (W-1.1): each check that fires is
its own rule event citing the event that caused it.
"""
from __future__ import annotations

from functools import cache
from typing import cast

from kifu.domain.core.clauses import implements
from kifu.domain.core.memo import Slot

from . import events as ev
from .cards import catalog, static_vit_reducers
from .draft import WDraft
from .state import State
from .stats import definition, keeper_bonus, unit_stat

MAX_ROUNDS = 64  # loop guard: a settle that does not settle is a bug, not a hang


@implements("W-14.2")
def settle(draft: WDraft, cause: int) -> None:
    if not _at_rest(draft):
        for _ in range(MAX_ROUNDS):
            if not (_removals(draft, cause) | _orphaned_spells(draft, cause)):
                break
        else:  # pragma: no cover - guard
            raise RuntimeError("state-based checks did not settle")
    _rest.value = (draft, len(draft.envelopes))
    state = draft.state
    s1, s2 = state.sides
    if s1.life <= 0 or s2.life <= 0 or s1.lost is not None or s2.lost is not None:   # (check_losses' own test)
        check_losses(draft, cause)


# Where the rules last came to rest: a draft, and how many of its events there were when its state
# was found settled (one tuple, replaced whole; a draft is decided on one thread). The removal
# checks read the units (card, damage, curse), towers, table spells and stored effects; the events
# in HARMLESS change none of these (or only lower damage, break or ready cards, end sleep), so
# after them the checks would read what they found settled and fire nothing. A decision's first
# check is skipped the same way when it starts on a state a decision ended at rest (``_quiet``:
# the last four such states, kept alive so identity holds, one tuple replaced whole).
_rest: Slot[tuple[WDraft | None, int]] = Slot("worlfard.rest", (None, 0))
_quiet: Slot[tuple[State, ...]] = Slot("worlfard.quiet_states", ())

HARMLESS: frozenset[type] = frozenset({
    ev.DeckShuffled, ev.HeartsSet, ev.CoinTossed, ev.OrderChosen, ev.CardsDrawn, ev.MulliganTaken,
    ev.MulliganDeclined, ev.HandReturned, ev.GameBegan, ev.TurnBegan, ev.PhaseBegan, ev.Recovered,
    ev.DamageRemoved, ev.HeartRecovered, ev.FirstTurnSkips, ev.CardDrawn, ev.DeckOut, ev.PhaseLeft,
    ev.SleepRemoved, ev.SummonDeclared, ev.CostPaid, ev.KeeperBroken, ev.UnitBroken, ev.AttackDeclared,
    ev.TargetDeclared, ev.BlockDeclared, ev.EvadeDeclared, ev.NoDefenseDeclared, ev.DefenseFixed,
    ev.PlayerAttacked, ev.HeartsBroken, ev.LifeLost, ev.CombatEnded, ev.SpellCast, ev.SpellResolved,
    ev.SpellFizzled, ev.SpellBroken, ev.HeartCast, ev.HeartRevealed, ev.SkillActivated, ev.SkillTriggered,
    ev.ChoiceAwaited, ev.TargetsChosen, ev.SkillDeclined, ev.TriggerResolves, ev.SkillResolved,
    ev.SkillFizzled, ev.PlayerDamaged, ev.DamagePrevented, ev.DestroyPrevented, ev.LifeGained,
    ev.UnitRegenerated, ev.WindowOpened, ev.Passed, ev.ChainResolving, ev.WindowClosed, ev.CombatStep,
    ev.CardsMilled, ev.PlayerLost, ev.MatchEnded,
})
_OFF_FIELD = frozenset({"hand", "deck", "soul", "grave", "seal", "heart"})


def harmless(event: object) -> bool:
    """Whether ``event`` leaves everything the removal checks read as it was (a card moved
    between zones off the field included)."""
    kind = type(event)
    return kind in HARMLESS or (kind is _MOVED and cast(ev.CardMoved, event).src in _OFF_FIELD)


_MOVED = ev.CardMoved


def _at_rest(draft: WDraft) -> bool:
    """True when ``draft``'s state is known settled: the rules came to rest in it and only
    harmless events followed (``harmless``, written out: this runs after every step)."""
    rested, count = _rest.value
    if rested is not draft:
        return False
    for envelope in draft.envelopes[count:]:
        event = envelope.event
        kind = type(event)
        if kind not in HARMLESS and (kind is not _MOVED or cast(ev.CardMoved, event).src not in _OFF_FIELD):
            return False
    return True


def begin(draft: WDraft, state: State) -> None:
    """A decision starts on ``state``: if a decision ended on it at rest, it is settled."""
    for known in _quiet.value:
        if known is state:
            _rest.value = (draft, len(draft.envelopes))
            return


def quiet() -> tuple[State, ...]:
    """The states ``begin`` knows settled. A bot that decides on positions of its own puts them
    back when done (``keep_quiet``), so its simulations do not push out the match's own state."""
    return _quiet.value


def keep_quiet(states: tuple[State, ...]) -> None:
    _quiet.value = states


def ended(draft: WDraft) -> None:
    """A decision ended: remember its state as settled if it is known so."""
    if _at_rest(draft):
        _quiet.value = (draft.state, *_quiet.value[:3])


@implements("W-8.3", "W-8.4")
def _removals(draft: WDraft, cause: int) -> bool:
    fired = False
    lowering = vit_lowering(draft.state)
    sturdy = no_unit_printed_at_vit_0()
    for seat in (1, 2):
        state = draft.state     # (as the checks of seat 1 left it)
        for index, unit in enumerate(state.sides[seat - 1].stage):
            if unit is None or (not unit.damage and lowering is not None and unit.card not in lowering
                                and (sturdy or definition(state, unit.card).VIT > 0)):
                continue   # undamaged, nothing lowers its VIT (the common case of surely_survives)
            line = index + 1
            if surely_survives(draft.state, seat, line, lowering):
                continue
            vit = unit_stat(draft.state, seat, line, "VIT")
            if vanishes(vit):
                draft.rule("W-8.4", cause, ev.UnitVanished(seat=seat, line=line, card=unit.card))
                fired = True
            elif unit.damage >= vit:
                draft.rule("W-8.3", cause, ev.UnitDestroyed(seat=seat, line=line, card=unit.card,
                                                             damage=unit.damage, VIT=vit))
                fired = True
    return fired


@cache
def no_unit_printed_at_vit_0() -> bool:
    """Whether every unit card has a printed VIT above 0 (then an undamaged unit whose VIT
    nothing lowers needs no look at its card)."""
    return all(d.VIT > 0 for d in catalog().values() if d.is_unit)


def vit_lowering(state: State) -> dict[int, int | None] | None:
    """How far stored effects may have lowered each unit's VIT, by card: the negative adds
    summed, or None where an effect sets it; None for every unit if a card's lasting skill can
    lower VIT. Whatever else applies only adds to VIT (lasting skills, W-7.3), so it is a floor."""
    if static_vit_reducers():
        return None
    lowering: dict[int, int | None] = {}
    for e in state.effects:
        if e.stat == "VIT" and (e.op == "set" or e.value < 0):
            so_far = lowering.get(e.target, 0)
            lowering[e.target] = None if e.op == "set" or so_far is None else so_far + e.value
    return lowering


def surely_survives(state: State, seat: int, line: int, lowering: dict[int, int | None] | None) -> bool:
    """True when the unit on (seat, line) is neither destroyed nor vanishes whatever its field
    says: its damage is under the floor of its VIT (printed, lowered, W-7.3's +1), so the checks
    need no field for it. False means: look at its VIT."""
    if lowering is None:
        return False
    unit = state.sides[seat - 1].stage[line - 1]
    assert unit is not None, f"no unit of seat {seat} on line {line}"
    lowered = lowering.get(unit.card, 0)
    if lowered is None:
        return False
    floor = definition(state, unit.card).VIT + lowered
    return unit.damage < floor or unit.damage < floor + keeper_bonus(state, seat, line, unit.card)


@implements("W-10.3")
def _orphaned_spells(draft: WDraft, cause: int) -> bool:
    """W-10.3: a Long Spell whose targets have all left goes to the graveyard."""
    fired = False
    on_stage: set[int] | None = None     # worked out for the first Long Spell that targets units
    for seat in (1, 2):
        table = draft.state.sides[seat - 1].table
        if not any(table):
            continue     # no spell on this table (most checks): nothing to look up
        for index, spell in enumerate(table):
            if spell is None or spell.waiting or not spell.targets or definition(draft.state, spell.card).type != "LS":
                continue
            if on_stage is None:
                on_stage = {u.card for s in (1, 2) for u in draft.state.sides[s - 1].stage if u is not None}
            unit_targets = [t for t in spell.targets if t >= 1000]
            if unit_targets and not any(t in on_stage for t in unit_targets):
                draft.rule("W-10.3", cause, ev.CardMoved(card=spell.card, src="table", dst="grave", seat=seat,
                                                         line=index + 1))
                fired = True
    return fired


@implements("W-8.4", "W-Q5")
def vanishes(vit: int) -> bool:
    """W-Q5 PROPOSAL: a unit whose current VIT is 0 vanishes (graveyard), whatever its damage;
    otherwise damage ≥ VIT destroys it (soul)."""
    return vit <= 0


@implements("W-1.1", "W-Q15")
def check_losses(draft: WDraft, cause: int) -> bool:
    """W-1.1: life 0 or less loses; both at once is a draw. Returns True if the match ended.

    W-Q15: this is the only way a match ends (no turn limit, and no hand limit anywhere)."""
    state = draft.state
    if state.outcome is not None:
        return True
    s1, s2 = state.sides
    if s1.life > 0 and s2.life > 0 and s1.lost is None and s2.lost is None:
        return False     # nobody loses now and nobody has lost
    for seat in (1, 2):
        side = state.sides[seat - 1]
        if side.lost is None and side.life <= 0:
            draft.rule("W-1.1", cause, ev.PlayerLost(seat=seat, reason=f"life {side.life}"))
    return end_if_decided(draft, cause)


@implements("W-1.1")
def end_if_decided(draft: WDraft, cause: int) -> bool:
    losers = [seat for seat in (1, 2) if draft.state.sides[seat - 1].lost is not None]
    if not losers:
        return False
    if len(losers) == 2:
        draft.rule("W-1.1", cause, ev.MatchEnded(termination="both players lost at once"))
    else:
        loser = losers[0]
        draft.rule("W-1.1", cause, ev.MatchEnded(termination=draft.state.sides[loser - 1].lost or "loss",
                                                 winner=3 - loser))
    return True
