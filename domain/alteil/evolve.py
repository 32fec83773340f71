"""evolve: the dumb fold. One handler per event type, no checks (decide validated already)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from msgspec.structs import replace

from kifu.domain.core.commit import ChoiceSealed
from kifu.domain.core.piles import chopped, dropped, plus, renewed, under, without, without_any
from kifu.domain.core.ruleset import Outcome

from . import events as ev
from .piles import frozen, loosened
from .state import Pending, State, Unit
from .vocabulary import ACT, AFTER, CLEANUP, END, LIMIT, OPENING, OVER, PREPARATION, SOUL, TIE, WINDOW, other, owner


def _side(state: State, seat: int, **fields: Any) -> State:
    a, b = state.sides
    if seat == 1:
        return replace(state, sides=(replace(a, **fields), b))
    return replace(state, sides=(a, replace(b, **fields)))


# A handler that moves cards between a side's piles changes them through ``piles``' functions,
# which return a run's ``Loose`` pile itself, changed in place; a tuple pile comes back as itself
# from ``plus`` and ``under`` only when they add no card (from ``renewed``: when it is the new order).
# So where the pile the cards go to comes back as itself, the side's piles are a run's (``evolve_run``
# loosens all of them, and they are changed already) or no card moved: either way the state to go on
# from is the one given, and the handler makes no new side (a call with keywords fewer per event).


def _unit(state: State, card: int, **fields: Any) -> State:
    seat = owner(card)
    side = state.side(seat)
    return _side(state, seat, units=tuple(replace(u, **fields) if u.card == card else u for u in side.units))


def _shuffled(s: State, e: ev.DeckShuffled) -> State:
    side = s.sides[e.seat - 1]
    deck = renewed(side.deck, e.order)
    return s if deck is side.deck else _side(s, e.seat, deck=deck)


def _drawn(s: State, e: ev.CardsDrawn) -> State:
    side = s.sides[e.seat - 1]
    deck, hand = dropped(side.deck, len(e.cards)), plus(side.hand, e.cards)
    return s if hand is side.hand else _side(s, e.seat, deck=deck, hand=hand)


def _mulligan(s: State, e: ev.MulliganDecided) -> State:
    s = _side(s, e.seat, mulligan="taken" if e.redraw else "kept")
    return replace(s, actor=0 if e.seat == 2 else 2)


def _returned(s: State, e: ev.HandReturned) -> State:
    side = s.sides[e.seat - 1]
    hand, deck = without_any(side.hand, e.cards), under(e.cards, side.deck)
    return s if deck is side.deck else _side(s, e.seat, hand=hand, deck=deck)


def _first(s: State, e: ev.FirstPlayerDecided) -> State:
    return replace(s, first_seat=e.seat)


def _battlefield(s: State, e: ev.BattlefieldSet) -> State:
    side = s.sides[e.seat - 1]
    return _side(s, e.seat, deck=dropped(side.deck, len(e.cards)), squares=e.cards,
                 destroyed=(False,) * len(e.cards))


def _opening(s: State, e: ev.OpeningStarted) -> State:
    return replace(s, step=OPENING, sub="", actor=0)


def _sealed(s: State, e: ChoiceSealed) -> State:
    return replace(s, sealed_by=tuple(sorted({*s.sealed_by, e.seat})))


def _opening_influence(s: State, e: ev.OpeningInfluence) -> State:
    if e.card:
        side = s.sides[e.seat - 1]
        hand, influence = without(side.hand, e.card), plus(side.influence, (e.card,))
        s = s if influence is side.influence else _side(s, e.seat, hand=hand, influence=influence)
    return replace(s, opened=s.opened + (e.seat,))


def _soul_gained(s: State, e: ev.SoulGained) -> State:
    side = s.sides[e.seat - 1]
    deck, soul = dropped(side.deck, len(e.cards)), plus(side.soul, e.cards)
    return s if soul is side.soul else _side(s, e.seat, deck=deck, soul=soul)


def _soul_out(s: State, e: ev.SoulPaid | ev.SoulReduced) -> State:
    side = s.sides[e.seat - 1]
    n = len(e.cards)
    # one at a time from the pile's top to the deck top: the last one moved ends on top
    soul, deck = chopped(side.soul, n), under(tuple(reversed(e.cards)), side.deck)
    return s if deck is side.deck else _side(s, e.seat, soul=soul, deck=deck)


def _turn(s: State, e: ev.TurnBegan) -> State:
    # a turn begins with its preparation (PhaseBegan follows at once, in the same decision):
    # the new turn's label is never the last turn's step or the opening
    return replace(s, turn=e.turn, turn_seat=e.seat, step=PREPARATION, sub="")


def _phase(s: State, e: ev.PhaseBegan) -> State:
    return replace(s, step=e.phase, sub=SOUL if e.phase == END else "", actor=e.seat, passes=0, acting=0,
                   gods_used=(), tie_agi=None, tie_seat=0)


def _untapped(s: State, e: ev.UnitsUntapped) -> State:
    return _side(s, e.seat, units=tuple(replace(u, acted=False) for u in s.side(e.seat).units))


def _draw_failed(s: State, e: ev.DrawFailed) -> State:
    return s


def _influence(s: State, e: ev.InfluencePlaced) -> State:
    side = s.sides[e.seat - 1]
    hand, influence = without(side.hand, e.card), plus(side.influence, (e.card,))
    s = s if influence is side.influence else _side(s, e.seat, hand=hand, influence=influence)
    return replace(s, gods_used=s.gods_used + (e.god,))


def _influence_ended(s: State, e: ev.InfluenceEnded) -> State:
    return replace(s, actor=0)


def _placed(s: State, e: ev.UnitPlaced) -> State:
    side = s.sides[e.seat - 1]
    s = _side(s, e.seat, hand=without(side.hand, e.card), units=side.units + (Unit(card=e.card, square=e.square),))
    return replace(s, passes=0, actor=other(e.seat))


def _set_passed(s: State, e: ev.SetPassed) -> State:
    passes = s.passes + 1
    return replace(s, passes=passes, actor=0 if passes >= 2 else other(e.seat))


def _fired(s: State, e: ev.SkillFired) -> State:
    if e.icon == "NEXT":
        return replace(s, pending=tuple(p for p in s.pending if p.card != e.card))
    return s


def _scheduled(s: State, e: ev.NextScheduled) -> State:
    return replace(s, pending=s.pending + (Pending(seat=e.seat, card=e.card, turn=s.turn),))


def _window(s: State, e: ev.WindowOpened) -> State:
    return replace(s, sub=WINDOW, actor=e.seat)


def _window_passed(s: State, e: ev.WindowPassed) -> State:
    if e.seat == s.turn_seat:
        return replace(s, actor=other(e.seat))
    return replace(s, sub=AFTER, actor=0)


def _grimoire(s: State, e: ev.GrimoireUsed) -> State:
    side = s.sides[e.seat - 1]
    hand, senka = without(side.hand, e.card), plus(side.senka, (e.card,))
    return s if senka is side.senka else _side(s, e.seat, hand=hand, senka=senka)


def _discarded(s: State, e: ev.CardDiscarded | ev.DiscardedForSoul | ev.DiscardedToLimit) -> State:
    side = s.sides[e.seat - 1]
    hand, senka = without(side.hand, e.card), plus(side.senka, (e.card,))
    return s if senka is side.senka else _side(s, e.seat, hand=hand, senka=senka)


def _tie(s: State, e: ev.TieChoice) -> State:
    return replace(s, sub=TIE, actor=e.seat, tie_agi=e.agi, tie_seat=e.seat)


def _chosen(s: State, e: ev.ActorChosen) -> State:
    return replace(s, sub=ACT, actor=e.seat, acting=e.card, tie_seat=other(e.seat))


def _named(s: State, e: ev.ActorNamed) -> State:
    return replace(s, sub=ACT, actor=e.seat, acting=e.card)


def _acted(s: State, card: int) -> State:
    if s.unit(card) is not None:
        s = _unit(s, card, acted=True)
    return replace(s, sub="", actor=0, acting=0) if s.acting == card or s.acting == 0 else s


def _waited(s: State, e: ev.UnitWaited) -> State:
    return _acted(s, e.card)


def _moved(s: State, e: ev.UnitMoved) -> State:
    return _acted(_unit(s, e.card, square=e.square), e.card)


def _card_acted(s: State, e: ev.SkillUsed | ev.Attacked | ev.BattlefieldAttacked) -> State:
    return _acted(s, e.card)


def _destroyed(s: State, e: ev.BattlefieldDestroyed) -> State:
    side = s.sides[e.seat - 1]
    squares = list(side.squares)
    squares[e.square - 1] = 0
    destroyed = list(side.destroyed)
    destroyed[e.square - 1] = True
    return _side(s, e.seat, squares=tuple(squares), destroyed=tuple(destroyed), hand=plus(side.hand, (e.card,)))


def _damage(s: State, e: ev.DamageDealt) -> State:
    return _unit(s, e.card, damage=e.total)


def _healed(s: State, e: ev.Healed) -> State:
    u = s.side(e.seat).unit(e.card)
    return _unit(s, e.card, damage=max(0, u.damage - e.amount)) if u else s


def _modified(s: State, e: ev.Modified) -> State:
    u = s.side(e.seat).unit(e.card)
    if u is None:
        return s
    key = e.stat.lower()
    return _unit(s, e.card, **{key: getattr(u, key) + e.amount})


def _died(s: State, e: ev.UnitDied) -> State:
    side = s.sides[e.seat - 1]
    s = _side(s, e.seat, units=tuple(u for u in side.units if u.card != e.card),
              cemetery=plus(side.cemetery, (e.card,)))
    return replace(s, sub="", actor=0, acting=0) if s.acting == e.card else s


def _influence_discarded(s: State, e: ev.InfluenceDiscarded) -> State:
    side = s.sides[e.seat - 1]
    influence, senka = without(side.influence, e.card), plus(side.senka, (e.card,))
    return s if senka is side.senka else _side(s, e.seat, influence=influence, senka=senka)


def _discards_ended(s: State, e: ev.DiscardsEnded) -> State:
    return replace(s, sub=LIMIT)


def _hand_checked(s: State, e: ev.HandChecked) -> State:
    if e.seat == s.turn_seat:
        return replace(s, sub=SOUL, actor=other(e.seat))
    return replace(s, sub=CLEANUP, actor=0)


def _effects_ended(s: State, e: ev.EffectsEnded) -> State:
    for seat in (1, 2):
        units = s.sides[seat - 1].units
        if units and any(u.at or u.df or u.agi for u in units):     # (else the side is left as it is)
            s = _side(s, seat, units=tuple(replace(u, at=0, df=0, agi=0) for u in units))
    return s


def _lost(s: State, e: ev.PlayerLost) -> State:
    s = _side(s, e.seat, lost=e.reason)
    return replace(s, step=OVER, sub="", actor=0,
                   outcome=Outcome(termination=e.reason, winner=other(e.seat), clause=_LOSS_CLAUSE.get(e.reason, "")))


def _conceded(s: State, e: ev.Conceded) -> State:
    return s


def _nothing(s: State, e: Any) -> State:
    return s


_LOSS_CLAUSE = {"battlefield": "A-1.1", "deaths": "A-1.2", "deck-out": "A-1.3", "concession": "A-1.4"}

# the fold table, one case per event type: public, so the core folds through it directly
# (``SpeedUps.evolve_cases``) and a test can name it
HANDLERS: dict[type, Callable[[State, Any], State]] = {
    ev.DeckShuffled: _shuffled, ev.CardsDrawn: _drawn, ev.MulliganDecided: _mulligan, ev.HandReturned: _returned,
    ev.FirstPlayerDecided: _first, ev.BattlefieldSet: _battlefield, ev.OpeningStarted: _opening,
    ChoiceSealed: _sealed, ev.OpeningInfluence: _opening_influence, ev.SoulGained: _soul_gained,
    ev.SoulPaid: _soul_out, ev.SoulReduced: _soul_out, ev.TurnBegan: _turn, ev.PhaseBegan: _phase,
    ev.UnitsUntapped: _untapped, ev.DrawFailed: _draw_failed, ev.InfluencePlaced: _influence,
    ev.InfluenceEnded: _influence_ended, ev.UnitPlaced: _placed, ev.SetPassed: _set_passed, ev.SkillFired: _fired,
    ev.NextScheduled: _scheduled, ev.WindowOpened: _window, ev.WindowPassed: _window_passed,
    ev.GrimoireUsed: _grimoire, ev.CardDiscarded: _discarded, ev.TieChoice: _tie, ev.ActorChosen: _chosen,
    ev.ActorNamed: _named, ev.UnitWaited: _waited, ev.UnitMoved: _moved, ev.SkillUsed: _card_acted,
    ev.Attacked: _card_acted, ev.BattlefieldAttacked: _card_acted, ev.BattlefieldDestroyed: _destroyed,
    ev.DamageDealt: _damage, ev.Healed: _healed, ev.Modified: _modified, ev.UnitDied: _died,
    ev.InfluenceDiscarded: _influence_discarded, ev.DiscardedForSoul: _discarded, ev.DiscardsEnded: _discards_ended,
    ev.DiscardedToLimit: _discarded, ev.HandChecked: _hand_checked, ev.EffectsEnded: _effects_ended,
    ev.Conceded: _conceded, ev.PlayerLost: _lost,
}


def evolve(state: State, event: Any) -> State:
    handler = HANDLERS.get(type(event), _nothing)
    return handler(state, event)


def evolve_run(state: State, events: Sequence[Any], fold: Callable[[State, Any], State]) -> State:
    """What ``fold`` makes of ``events`` one at a time, with the piles made tuples once at the end:
    the states in between are never seen, so their piles stay lists changed in place (``piles.Loose``).
    An event without a case here (the core's own, a judge's) is folded by ``fold`` on the state as
    the plain fold has it."""
    state = loosened(state)
    cases = HANDLERS
    for event in events:
        try:
            case = cases[type(event)]
        except KeyError:      # (rare: a reveal, a prepared position, a judge's act)
            state = loosened(fold(frozen(state), event))
        else:
            state = case(state, event)
    return frozen(state)
