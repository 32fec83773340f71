"""``evolve``: the dumb fold. One small function per event, no checks, no randomness.

Dispatch is a dict on the event type: one lookup whatever the event, so a fold stays fast."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from msgspec.structs import replace

from kifu.domain.core.clauses import implements
from kifu.domain.core.ruleset import Outcome

from . import events as ev
from .state import Combat, Heart, Side, State, TableSpell, Tower, Unit
from .vocabulary import Phase, Status, owner_of

T = TypeVar("T")


def _set_side(state: State, seat: int, side: Side) -> State:
    sides = (side, state.sides[1]) if seat == 1 else (state.sides[0], side)
    return replace(state, sides=sides)


# The handlers of the most frequent events (a match folds ~1700) set the side inline and build
# the new row in place: each helper call they saved was a Python frame per event.




# A stage, table or tower row still the very default object is left out of the state's encoding
# (msgspec omits a default by identity): every handler that rebuilt one keeps rebuilding it, so the
# encoded states, and so the digests, stay what they were.
def _with(seq: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    items = list(seq)
    items[index] = value
    return tuple(items)


def _without(cards: tuple[T, ...], card: T) -> tuple[T, ...]:
    """``cards`` without ``card`` (the same tuple when it is not there: a card id is in one place once)."""
    if card not in cards:
        return cards
    index = cards.index(card)
    rest = cards[:index] + cards[index + 1:]
    return rest if card not in rest else tuple(c for c in rest if c != card)


def _without_heart(hearts: tuple[Heart, ...], card: int) -> tuple[Heart, ...]:
    for h in hearts:
        if h.card == card:
            return tuple(h for h in hearts if h.card != card)
    return hearts


def _unit(side: Side, line: int) -> Unit:
    unit = side.stage[line - 1]
    assert unit is not None
    return unit


def _set_unit(side: Side, line: int, unit: Unit | None) -> Side:
    return replace(side, stage=_with(side.stage, line - 1, unit))


_ZONES = ("hand", "deck", "soul", "grave", "seal")


def _take(state: State, seat: int, zone: str, card: int, line: int) -> State:
    side = state.sides[seat - 1]
    if zone in _ZONES:
        return _set_side(state, seat, replace(side, **{zone: _without(getattr(side, zone), card)}))
    if zone == "stage":
        return _leave_stage(state, seat, line, card)
    if zone == "table":
        return _set_side(state, seat, replace(side, table=_with(side.table, line - 1, None)))
    if zone == "heart":
        return _set_side(state, seat, replace(side, hearts=_without_heart(side.hearts, card)))
    raise ValueError(f"unknown zone {zone}")


def _put(state: State, owner: int, zone: str, card: int) -> State:
    side = state.sides[owner - 1]
    return _set_side(state, owner, replace(side, **{zone: getattr(side, zone) + (card,)}))


@implements("W-14.1")
def _leave_stage(state: State, seat: int, line: int, card: int) -> State:
    """A unit leaving the stage takes every effect on it along (W-14.1)."""
    state = _set_side(state, seat, _set_unit(state.sides[seat - 1], line, None))
    if any(e.target == card for e in state.effects):
        state = replace(state, effects=tuple(e for e in state.effects if e.target != card))
    return state


def _on_deck_shuffled(state: State, e: Any) -> State:
    seat = e.seat
    order = e.order
    return _set_side(state, seat, replace(state.sides[seat - 1], deck=order))


def _on_hearts_set(state: State, e: Any) -> State:
    seat = e.seat
    hearts = e.hearts
    side = state.sides[seat - 1]
    taken = set(hearts)
    return _set_side(state, seat, replace(
        side, deck=tuple(c for c in side.deck if c not in taken),
        hearts=tuple(Heart(card=c, face_up=i == 0) for i, c in enumerate(hearts))))


def _on_coin_tossed(state: State, e: Any) -> State:
    winner = e.winner
    return replace(state, chooser=winner)


def _on_order_chosen(state: State, e: Any) -> State:
    seat = e.seat
    go_first = e.go_first
    first = seat if go_first else 3 - seat
    return replace(state, first_seat=first, phase=Phase.MULLIGAN)


def _on_cards_drawn(state: State, e: Any) -> State:
    seat = e.seat
    cards = e.cards
    side = state.sides[seat - 1]
    return _set_side(state, seat, replace(side, deck=side.deck[len(cards):], hand=side.hand + cards))


def _on_mulligan_taken(state: State, e: Any) -> State:
    seat = e.seat
    return _set_side(state, seat, replace(state.sides[seat - 1], mulligan="taken"))


def _on_mulligan_declined(state: State, e: Any) -> State:
    seat = e.seat
    return _set_side(state, seat, replace(state.sides[seat - 1], mulligan="kept"))


def _on_hand_returned(state: State, e: Any) -> State:
    seat = e.seat
    cards = e.cards
    side = state.sides[seat - 1]
    gone = set(cards)
    return _set_side(state, seat, replace(side, hand=tuple(c for c in side.hand if c not in gone),
                                          deck=side.deck + cards))


_START = Phase.START


def _on_turn_began(state: State, e: Any) -> State:
    return replace(state, turn=e.turn, turn_seat=e.seat, phase=_START, tower_set=False)


def _on_phase_began(state: State, e: Any) -> State:
    return replace(state, phase=e.phase)


def _on_recovered(state: State, e: Any) -> State:
    seat = e.seat
    sides = state.sides
    side = sides[seat - 1]
    tw = list(side.towers)
    for line in e.towers:
        tw[line - 1] = replace(tw[line - 1], broken=False)
    st = list(side.stage)
    for line in e.units:
        st[line - 1] = replace(st[line - 1], broken=False)
    tb = list(side.table)
    for line in e.tables:
        tb[line - 1] = replace(tb[line - 1], broken=False)
    side = replace(side, towers=tuple(tw), stage=tuple(st), table=tuple(tb))
    return replace(state, sides=(side, sides[1]) if seat == 1 else (sides[0], side))


def _on_damage_removed(state: State, e: Any) -> State:
    seat = e.seat
    lines = e.lines
    side = state.sides[seat - 1]
    st = list(side.stage)
    for line in lines:
        st[line - 1] = replace(_unit(side, line), damage=0)
    return _set_side(state, seat, replace(side, stage=tuple(st)))


def _on_heart_recovered(state: State, e: Any) -> State:
    seat = e.seat
    index = e.index
    side = state.sides[seat - 1]
    return _set_side(state, seat, replace(
        side, hearts=_with(side.hearts, index, replace(side.hearts[index], broken=False))))


def _on_card_drawn(state: State, e: Any) -> State:
    seat = e.seat
    sides = state.sides
    side = sides[seat - 1]
    side = replace(side, deck=side.deck[1:], hand=side.hand + (e.card,))
    return replace(state, sides=(side, sides[1]) if seat == 1 else (sides[0], side))


def _on_sleep_removed(state: State, e: Any) -> State:
    seat = e.seat
    sides = state.sides
    side = sides[seat - 1]
    st = list(side.stage)
    for line in e.lines:
        st[line - 1] = replace(_unit(side, line), status=None)
    side = replace(side, stage=tuple(st))
    return replace(state, sides=(side, sides[1]) if seat == 1 else (sides[0], side))


def _on_tower_set(state: State, e: Any) -> State:
    seat = e.seat
    card = e.card
    line = e.line
    broken = e.broken
    side = state.sides[seat - 1]
    tower = side.towers[line - 1]
    side = replace(side, hand=_without(side.hand, card),
                   towers=_with(side.towers, line - 1, Tower(cards=tower.cards + (card,), broken=broken)))
    sides = (side, state.sides[1]) if seat == 1 else (state.sides[0], side)
    return replace(state, sides=sides, tower_set=True)


def _on_cost_paid(state: State, e: Any) -> State:
    seat = e.seat
    souls = e.souls
    sides = state.sides
    side = sides[seat - 1]
    tw = list(side.towers)
    for line in e.towers:
        tw[line - 1] = replace(tw[line - 1], broken=True)
    if not souls:
        side = replace(side, towers=tuple(tw))
    else:
        spent = set(souls)
        side = replace(side, towers=tuple(tw), soul=tuple(c for c in side.soul if c not in spent),
                       grave=side.grave + souls)
    return replace(state, sides=(side, sides[1]) if seat == 1 else (sides[0], side))


def _on_keeper_broken(state: State, e: Any) -> State:
    seat = e.seat
    sides = state.sides
    side = sides[seat - 1]
    stage = list(side.stage)
    index = e.line - 1
    stage[index] = replace(stage[index], broken=True)
    side = replace(side, stage=tuple(stage))
    return replace(state, sides=(side, sides[1]) if seat == 1 else (sides[0], side))


def _on_unit_summoned(state: State, e: Any) -> State:
    seat = e.seat
    card = e.card
    line = e.line
    asleep = e.asleep
    side = state.sides[seat - 1]
    side = replace(side, hand=_without(side.hand, card), hearts=_without_heart(side.hearts, card),
                   stage=_with(side.stage, line - 1, Unit(card=card, status=Status.SLEEP if asleep else None)))
    return _set_side(state, seat, side)


def _move_unit(state: State, e: Any) -> State:
    seat = e.seat
    sides = state.sides
    side = sides[seat - 1]
    stage = list(side.stage)
    index = e.line - 1
    unit = stage[index]
    stage[index] = None
    stage[e.to - 1] = unit
    side = replace(side, stage=tuple(stage))
    return replace(state, sides=(side, sides[1]) if seat == 1 else (sides[0], side))


def _on_attack_declared(state: State, e: Any) -> State:
    line = e.line
    card = e.card
    return replace(state, combat=Combat(attacker=line, attacker_card=card))


def _on_target_declared(state: State, e: Any) -> State:
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, target=e.line))


def _on_defense_fixed(state: State, e: Any) -> State:
    line = e.line
    card = e.card
    on_player = e.on_player
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, defended=True, defender=line,
                                         defender_card=card, on_player=on_player, decided=e.decision))


def _add_damage(state: State, e: Any) -> State:
    seat = e.seat
    sides = state.sides
    side = sides[seat - 1]
    stage = list(side.stage)
    index = e.line - 1
    unit = stage[index]
    assert unit is not None
    stage[index] = replace(unit, damage=unit.damage + e.amount)
    side = replace(side, stage=tuple(stage))
    return replace(state, sides=(side, sides[1]) if seat == 1 else (sides[0], side))


def _on_hearts_broken(state: State, e: Any) -> State:
    seat = e.seat
    indexes = e.indexes
    side = state.sides[seat - 1]
    hearts = list(side.hearts)
    for i in indexes:
        hearts[i] = replace(hearts[i], broken=True)
    return _set_side(state, seat, replace(side, hearts=tuple(hearts)))


def _set_life(state: State, e: Any) -> State:
    seat = e.seat
    sides = state.sides
    side = replace(sides[seat - 1], life=e.life)
    return replace(state, sides=(side, sides[1]) if seat == 1 else (sides[0], side))


@implements("W-3.5", "W-8.3")
def _on_unit_destroyed(state: State, e: Any) -> State:
    """Destroyed: to its owner's soul (W-8.3), whoever controlled it (W-3.5)."""
    return _put(_leave_stage(state, e.seat, e.line, e.card), owner_of(e.card), "soul", e.card)


@implements("W-8.4")
def _on_unit_vanished(state: State, e: Any) -> State:
    """Vanished: to its owner's graveyard, not the soul (W-8.4)."""
    return _put(_leave_stage(state, e.seat, e.line, e.card), owner_of(e.card), "grave", e.card)


def _on_combat_ended(state: State, e: Any) -> State:
    return replace(state, combat=None)


def _on_player_lost(state: State, e: Any) -> State:
    seat = e.seat
    reason = e.reason
    return _set_side(state, seat, replace(state.sides[seat - 1], lost=reason))


def _on_match_ended(state: State, e: Any) -> State:
    termination = e.termination
    winner = e.winner
    return replace(state, phase=Phase.OVER, combat=None, choice=None, window=None, queue=(),
                   outcome=Outcome(termination=termination, winner=winner, clause="W-1.1"))


def _on_spell_resolved(state: State, e: Any) -> State:
    seat = e.seat
    line = e.line
    w = state.window
    if w is not None and w.chain and w.chain[-1] == seat * 10 + line:
        return replace(state, window=replace(w, chain=w.chain[:-1]))
    return state


def _on_skill_fizzled(state: State, e: Any) -> State:
    return replace(state, queue=state.queue[1:]) if e.queued else state


def _on_spell_placed(state: State, e: Any) -> State:
    seat = e.seat
    card = e.card
    line = e.line
    targets = e.targets
    waiting = e.waiting
    side = state.sides[seat - 1]
    side = replace(side, hand=_without(side.hand, card), hearts=_without_heart(side.hearts, card),
                   table=_with(side.table, line - 1, TableSpell(card=card, targets=targets, waiting=waiting,
                                                                cast=e.cast)))
    state = _set_side(state, seat, side)
    if waiting and state.window is not None:
        w = state.window
        state = replace(state, window=replace(w, chain=w.chain + (seat * 10 + line,), passes=0,
                                              seat=3 - seat))
    return state


def _on_spell_stays(state: State, e: Any) -> State:
    seat = e.seat
    line = e.line
    since = e.since
    side = state.sides[seat - 1]
    spell = side.table[line - 1]
    return _set_side(state, seat, replace(side, table=_with(side.table, line - 1,
                                                            replace(spell, since=since, waiting=False))))


def _on_spell_broken(state: State, e: Any) -> State:
    seat = e.seat
    line = e.line
    side = state.sides[seat - 1]
    return _set_side(state, seat, replace(side, table=_with(side.table, line - 1,
                                                            replace(side.table[line - 1], broken=True))))


def _on_card_moved(state: State, e: Any) -> State:
    card = e.card
    src = e.src
    dst = e.dst
    seat = e.seat
    line = e.line
    state = _take(state, seat, src, card, line)
    return _put(state, owner_of(card), dst, card)


def _on_cards_milled(state: State, e: Any) -> State:
    seat = e.seat
    cards = e.cards
    side = state.sides[seat - 1]
    gone = set(cards)
    state = _set_side(state, seat, replace(side, deck=tuple(c for c in side.deck if c not in gone)))
    owner = state.sides[seat - 1]
    return _set_side(state, seat, replace(owner, grave=owner.grave + cards))


def _on_heart_cast(state: State, e: Any) -> State:
    """The extra soul is paid; the heart itself leaves when the card is placed (summon or cast)."""
    seat = e.seat
    soul = e.soul
    side = state.sides[seat - 1]
    return _set_side(state, seat, replace(side, soul=tuple(c for c in side.soul if c != soul),
                                          grave=side.grave + (soul,)))


def _on_heart_revealed(state: State, e: Any) -> State:
    seat = e.seat
    card = e.card
    side = state.sides[seat - 1]
    return _set_side(state, seat, replace(side, hearts=tuple(
        replace(h, face_up=True) if h.card == card else h for h in side.hearts)))


def _on_skill_triggered(state: State, e: Any) -> State:
    trigger = e.trigger
    return replace(state, queue=state.queue + (trigger,))


def _on_choice_awaited(state: State, e: Any) -> State:
    choice = e.choice
    return replace(state, choice=choice, queue=state.queue[1:])


def _on_trigger_resolves(state: State, e: Any) -> State:
    return replace(state, queue=state.queue[1:])


def _on_targets_chosen(state: State, e: Any) -> State:
    return replace(state, choice=None)


def _on_effect_added(state: State, e: Any) -> State:
    effect = e.effect
    return replace(state, effects=state.effects + (effect,))


def _on_effects_ended(state: State, e: Any) -> State:
    ids = e.ids
    gone = set(ids)
    return replace(state, effects=tuple(e for e in state.effects if e.id not in gone))


def _on_status_given(state: State, e: Any) -> State:
    seat = e.seat
    line = e.line
    status = e.status
    side = state.sides[seat - 1]
    return _set_side(state, seat, _set_unit(side, line, replace(_unit(side, line), status=status)))


def _on_status_removed(state: State, e: Any) -> State:
    seat = e.seat
    line = e.line
    side = state.sides[seat - 1]
    return _set_side(state, seat, _set_unit(side, line, replace(_unit(side, line), status=None)))






def _on_unit_regenerated(state: State, e: Any) -> State:
    seat = e.seat
    line = e.line
    side = state.sides[seat - 1]
    return _set_side(state, seat, _set_unit(side, line, replace(_unit(side, line), damage=0, broken=True)))




def _on_control_gained(state: State, e: Any) -> State:
    seat = e.seat
    src_line = e.src_line
    line = e.line
    loser = state.side(3 - seat)
    unit = loser.stage[src_line - 1]
    state = _set_side(state, 3 - seat, _set_unit(loser, src_line, None))
    return _set_side(state, seat, _set_unit(state.sides[seat - 1], line, unit))


def _on_unit_summoned_free(state: State, e: Any) -> State:
    seat = e.seat
    card = e.card
    line = e.line
    src = e.src
    state = _take(state, seat, src, card, 0)
    return _set_side(state, seat, _set_unit(state.sides[seat - 1], line, Unit(card=card)))


def _on_window_opened(state: State, e: Any) -> State:
    return replace(state, window=e.window)


def _on_passed(state: State, e: Any) -> State:
    w = state.window
    assert w is not None
    return replace(state, window=replace(w, passes=w.passes + 1, seat=3 - e.seat))


def _on_chain_resolving(state: State, e: Any) -> State:
    assert state.window is not None
    return replace(state, window=replace(state.window, resolving=True))


def _on_window_closed(state: State, e: Any) -> State:
    return replace(state, window=None)


def _on_combat_step(state: State, e: Any) -> State:
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, step=e.step))


def _unchanged(state: State, e: Any) -> State:
    """Events that record a decision or a ruling whose consequences are their own events."""
    return state


# the fold table, one case per event type: public, so the core folds through it directly
# (``SpeedUps.evolve_cases``) and a test can name it
HANDLERS: dict[type, Callable[[State, Any], State]] = {
    ev.DeckShuffled: _on_deck_shuffled,
    ev.HeartsSet: _on_hearts_set,
    ev.CoinTossed: _on_coin_tossed,
    ev.OrderChosen: _on_order_chosen,
    ev.CardsDrawn: _on_cards_drawn,
    ev.MulliganTaken: _on_mulligan_taken,
    ev.MulliganDeclined: _on_mulligan_declined,
    ev.HandReturned: _on_hand_returned,
    ev.GameBegan: _unchanged,
    ev.TurnBegan: _on_turn_began,
    ev.PhaseBegan: _on_phase_began,
    ev.Recovered: _on_recovered,
    ev.DamageRemoved: _on_damage_removed,
    ev.HeartRecovered: _on_heart_recovered,
    ev.FirstTurnSkips: _unchanged,
    ev.DeckOut: _unchanged,
    ev.PhaseLeft: _unchanged,
    ev.SummonDeclared: _unchanged,
    ev.CardDrawn: _on_card_drawn,
    ev.SleepRemoved: _on_sleep_removed,
    ev.TowerSet: _on_tower_set,
    ev.CostPaid: _on_cost_paid,
    ev.KeeperBroken: _on_keeper_broken,
    ev.UnitBroken: _on_keeper_broken,
    ev.UnitSummoned: _on_unit_summoned,
    ev.UnitMoved: _move_unit,
    ev.AttackDeclared: _on_attack_declared,
    ev.TargetDeclared: _on_target_declared,
    ev.BlockDeclared: _unchanged,
    ev.EvadeDeclared: _unchanged,
    ev.NoDefenseDeclared: _unchanged,
    ev.PlayerAttacked: _unchanged,
    ev.DefenseFixed: _on_defense_fixed,
    ev.CombatDamage: _add_damage,
    ev.HeartsBroken: _on_hearts_broken,
    ev.LifeLost: _set_life,
    ev.UnitDestroyed: _on_unit_destroyed,
    ev.UnitVanished: _on_unit_vanished,
    ev.CombatEnded: _on_combat_ended,
    ev.PlayerLost: _on_player_lost,
    ev.MatchEnded: _on_match_ended,
    ev.SpellResolved: _on_spell_resolved,
    ev.SpellFizzled: _on_spell_resolved,
    ev.SkillFizzled: _on_skill_fizzled,
    ev.SpellCast: _unchanged,
    ev.SkillActivated: _unchanged,
    ev.SkillResolved: _unchanged,
    ev.PlayerDamaged: _unchanged,
    ev.DamagePrevented: _unchanged,
    ev.DestroyPrevented: _unchanged,
    ev.SpellPlaced: _on_spell_placed,
    ev.SpellStays: _on_spell_stays,
    ev.SpellBroken: _on_spell_broken,
    ev.CardMoved: _on_card_moved,
    ev.CardsMilled: _on_cards_milled,
    ev.HeartCast: _on_heart_cast,
    ev.HeartRevealed: _on_heart_revealed,
    ev.SkillTriggered: _on_skill_triggered,
    ev.ChoiceAwaited: _on_choice_awaited,
    ev.TriggerResolves: _on_trigger_resolves,
    ev.TargetsChosen: _on_targets_chosen,
    ev.SkillDeclined: _on_targets_chosen,
    ev.EffectAdded: _on_effect_added,
    ev.EffectsEnded: _on_effects_ended,
    ev.StatusGiven: _on_status_given,
    ev.StatusRemoved: _on_status_removed,
    ev.RecoveryCancelled: _on_status_removed,
    ev.UnitDamaged: _add_damage,
    ev.LifeGained: _set_life,
    ev.UnitRegenerated: _on_unit_regenerated,
    ev.UnitShifted: _move_unit,
    ev.ControlGained: _on_control_gained,
    ev.UnitSummonedFree: _on_unit_summoned_free,
    ev.WindowOpened: _on_window_opened,
    ev.Passed: _on_passed,
    ev.ChainResolving: _on_chain_resolving,
    ev.WindowClosed: _on_window_closed,
    ev.CombatStep: _on_combat_step,
}


def evolve(state: State, event: ev.Event) -> State:
    try:
        handler = HANDLERS[type(event)]
    except KeyError:
        raise TypeError(f"evolve has no case for {type(event).__name__}") from None
    return handler(state, event)



# ``evolve_run``'s own cases: the events that change only the state's phase, combat, window or
# sides (a combat's steps, declarations, damage and broken units, a reaction window's passes, a
# card drawn, life lost: three quarters of a record's events) and those that change nothing, by
# number (any other event's case is its handler)
(_PHASE, _STEP, _ATTACK, _TARGET, _DEFENSE, _ENDED, _OPENED, _PASSED, _CLOSED, _BROKEN, _DAMAGE, _DRAWN, _LIFE,
 _NOTHING) = range(14)
_RUN_CASES: dict[type, Any] = {     # (a handler, or one of the numbers above)
    **HANDLERS, ev.PhaseBegan: _PHASE, ev.CombatStep: _STEP, ev.AttackDeclared: _ATTACK,
    ev.TargetDeclared: _TARGET, ev.DefenseFixed: _DEFENSE, ev.CombatEnded: _ENDED, ev.WindowOpened: _OPENED,
    ev.Passed: _PASSED, ev.WindowClosed: _CLOSED, ev.UnitBroken: _BROKEN, ev.KeeperBroken: _BROKEN,
    ev.CombatDamage: _DAMAGE, ev.UnitDamaged: _DAMAGE, ev.CardDrawn: _DRAWN, ev.LifeLost: _LIFE,
    ev.LifeGained: _LIFE, **{kind: _NOTHING for kind, case in HANDLERS.items() if case is _unchanged}}


def evolve_run(state: State, events: Sequence[Any], fold: Callable[[Any, Any], Any]) -> State:
    """``run_of_cases(HANDLERS)`` (how a record is read, ``SpeedUps.evolve_run``), building fewer
    states: the events that change only the phase, the combat, the window or the sides
    (``_RUN_CASES``) change local copies of those four, written into a new state once, when an
    event of another kind comes or the run ends — a combat's dozen events make one state, not
    a dozen. Each copy is set to what its handler would set, so
    the states are the same (tests/worlfard/test_worlfard_fold_run.py); an event without a case (the
    core's own) goes to ``fold``."""
    case_of = _RUN_CASES.get
    phase, combat, window, sides = state.phase, state.combat, state.window, state.sides
    held = False           # whether the copies are in use (read from the state, maybe changed since)
    for event in events:
        case = case_of(type(event))
        if case.__class__ is not int:
            if held:
                state = replace(state, phase=phase, combat=combat, window=window, sides=sides)
                held = False
            state = fold(state, event) if case is None else case(state, event)
            continue
        if case == _NOTHING:
            continue
        if not held:
            phase, combat, window, sides = state.phase, state.combat, state.window, state.sides
            held = True
        if case == _STEP:
            assert combat is not None
            combat = replace(combat, step=event.step)
        elif case == _PASSED:
            assert window is not None
            window = replace(window, passes=window.passes + 1, seat=3 - event.seat)
        elif case == _BROKEN:        # (``_on_keeper_broken``)
            seat = event.seat
            side = sides[seat - 1]
            stage = list(side.stage)
            index = event.line - 1
            stage[index] = replace(stage[index], broken=True)
            side = replace(side, stage=tuple(stage))
            sides = (side, sides[1]) if seat == 1 else (sides[0], side)
        elif case == _PHASE:
            phase = event.phase
        elif case == _OPENED:
            window = event.window
        elif case == _CLOSED:
            window = None
        elif case == _TARGET:
            assert combat is not None
            combat = replace(combat, target=event.line)
        elif case == _ATTACK:
            combat = Combat(attacker=event.line, attacker_card=event.card)
        elif case == _DEFENSE:
            assert combat is not None
            combat = replace(combat, defended=True, defender=event.line, defender_card=event.card,
                             on_player=event.on_player, decided=event.decision)
        elif case == _ENDED:
            combat = None
        elif case == _DAMAGE:      # (``_add_damage``)
            seat = event.seat
            side = sides[seat - 1]
            stage = list(side.stage)
            index = event.line - 1
            unit = stage[index]
            assert unit is not None
            stage[index] = replace(unit, damage=unit.damage + event.amount)
            side = replace(side, stage=tuple(stage))
            sides = (side, sides[1]) if seat == 1 else (sides[0], side)
        elif case == _DRAWN:       # (``_on_card_drawn``)
            seat = event.seat
            side = sides[seat - 1]
            side = replace(side, deck=side.deck[1:], hand=side.hand + (event.card,))
            sides = (side, sides[1]) if seat == 1 else (sides[0], side)
        else:   # _LIFE (``_set_life``)
            seat = event.seat
            side = replace(sides[seat - 1], life=event.life)
            sides = (side, sides[1]) if seat == 1 else (sides[0], side)
    if held:
        state = replace(state, phase=phase, combat=combat, window=window, sides=sides)
    return state
