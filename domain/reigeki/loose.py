"""A run of events folded on a private mutable copy of the state, frozen once at the end.

Reading a record folds thousands of events of which nobody sees the states in between. The
plain fold (``evolve``) makes a new ``State`` per event, and for most a new ``Side`` and sides
tuple too: two or three ``replace`` calls, where the change itself is a field or two. So
``evolve_run`` copies the state once into a ``Loose`` one (slotted objects, the stage a list),
folds the run with one case per event that assigns in place what ``evolve``'s case replaces (the
battle steps and phases, half a record, without even a call), and makes one ``State`` at the end.

The cases share ``evolve``'s helpers for the rules (``entering``, ``leaving``, ``without``) and
make every value the way it does, so the end state is equal and encodes the same. One thing
equality does not see: the record encodes the sides and a stage even when equal to the default,
unless they are the default object itself (msgspec's ``omit_defaults`` compares a non-empty tuple
by identity), and ``evolve`` makes them anew at their first change. Until both stages are made
(the setup, or a prepared position with an empty stage), a run folds one event at a time.
tests/reigeki/test_fold_run.py checks a run against the fold event by event, on every corpus
record and random matches, cut anywhere.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from msgspec.structs import replace

from . import events as e
from .evolve import buried, entering, leaving, without
from .state import Battle, Mod, Result, Side, State, Unit

_SIDE_FIELDS = Side.__struct_fields__
_STATE_FIELDS = tuple(f for f in State.__struct_fields__ if f != "sides")


class LooseSide:
    """A ``Side`` being changed by a run: the same fields, assigned in place."""

    __slots__ = _SIDE_FIELDS
    keys: tuple[str, ...]
    deck: tuple[int, ...]
    hand: tuple[int, ...]
    discard: tuple[int, ...]
    exdeck: tuple[int, ...]
    exdiscard: tuple[int, ...]
    reiryoku: tuple[int, ...]
    damage: tuple[int, ...]
    flipped: tuple[int, ...]
    stage: list[Unit | None]        # (a list here, changed in place)
    mulliganed: bool
    spell_turn: int
    lost: str

    def __init__(self, side: Side) -> None:
        for name in _SIDE_FIELDS:
            setattr(self, name, getattr(side, name))
        self.stage = list(side.stage)

    def frozen(self) -> Side:
        fields = {name: getattr(self, name) for name in _SIDE_FIELDS}
        fields["stage"] = tuple(self.stage)
        return Side(**fields)


class Loose:
    """A ``State`` being changed by a run: the same fields, assigned in place, its sides included."""

    __slots__ = (*_STATE_FIELDS, "sides")
    sides: list[LooseSide]
    first: int
    active: int
    turn: int
    phase: str
    moved: tuple[int, ...]
    battle: Battle | None
    mods: tuple[Mod, ...]
    result: Result | None

    def __init__(self, state: State) -> None:
        for name in _STATE_FIELDS:
            setattr(self, name, getattr(state, name))
        self.sides = [LooseSide(state.sides[0]), LooseSide(state.sides[1])]

    def frozen(self) -> State:
        sides = (self.sides[0].frozen(), self.sides[1].frozen())
        return State(sides=sides, **{name: getattr(self, name) for name in _STATE_FIELDS})


# -- the cases: each does in place what evolve's case of its event type returns ----------------------
def _decks(s: Loose, ev: e.DecksShuffled) -> None:
    side = s.sides[ev.seat - 1]
    side.keys, side.deck, side.exdeck = ev.keys, ev.deck, ev.exdeck


def _leader(s: Loose, ev: e.LeaderPlaced) -> None:
    s.sides[ev.seat - 1].stage[ev.place - 1] = Unit(card=ev.card, leader=True)


def _first(s: Loose, ev: e.FirstPlayer) -> None:
    s.first, s.active, s.phase = ev.seat, ev.seat, "mulligan"


def _drew(s: Loose, ev: e.Drew) -> None:
    side = s.sides[ev.seat - 1]
    side.deck, side.hand = side.deck[len(ev.cards):], side.hand + ev.cards


def _returned(s: Loose, ev: e.HandReturned) -> None:
    side = s.sides[ev.seat - 1]
    side.hand, side.deck, side.mulliganed = without(side.hand, ev.cards), ev.deck, True


def _kept(s: Loose, ev: e.HandKept) -> None:
    s.sides[ev.seat - 1].mulliganed = True


def _turn(s: Loose, ev: e.TurnBegan) -> None:
    s.active, s.turn, s.moved, s.phase = ev.seat, ev.turn, (), "start"


def _phase(s: Loose, ev: e.PhaseBegan) -> None:
    s.phase = ev.phase


def _step(s: Loose, ev: e.StepBegan) -> None:
    s.phase = ev.step


def _reloaded(s: Loose, ev: e.Reloaded) -> None:
    stage, places = s.sides[ev.seat - 1].stage, ev.places
    for i, unit in enumerate(stage):
        if unit is not None and i + 1 in places:
            stage[i] = replace(unit, burst=False)


def _charged(s: Loose, ev: e.Charged) -> None:
    side = s.sides[ev.seat - 1]
    side.exdeck, side.reiryoku = side.exdeck[1:], side.reiryoku + (ev.card,)


def _moved(s: Loose, ev: e.Moved) -> None:
    side = s.sides[ev.seat - 1]
    stage = side.stage
    unit, there = stage[ev.source - 1], stage[ev.to - 1]
    stage[ev.source - 1] = None
    stage[ev.to - 1] = unit
    if there is not None:
        gone = buried(there)
        side.discard = side.discard + gone
        s.mods = tuple(m for m in s.mods if m.card not in gone)
    s.moved = s.moved + (ev.card,)


def _discarded(s: Loose, ev: e.Discarded) -> None:
    side = s.sides[ev.seat - 1]
    if ev.source == "hand":
        side.hand, side.discard = without(side.hand, ev.cards), side.discard + ev.cards
    else:
        side.reiryoku, side.exdiscard = without(side.reiryoku, ev.cards), side.exdiscard + ev.cards


def _played(s: Loose, ev: e.Played) -> None:
    side = s.sides[ev.seat - 1]
    side.stage[ev.place - 1] = entering(ev, side.stage[ev.place - 1], s.turn)
    side.hand = without(side.hand, (ev.card,))


def _cast(s: Loose, ev: e.SpellCast) -> None:
    side = s.sides[ev.seat - 1]
    used = (ev.card,) + ev.pay
    side.reiryoku, side.exdiscard, side.spell_turn = without(side.reiryoku, used), side.exdiscard + used, s.turn


def _flipped(s: Loose, ev: e.DamageFlipped) -> None:
    side = s.sides[ev.seat - 1]
    side.flipped = side.flipped + (ev.card,)


def _attack(s: Loose, ev: e.AttackDeclared) -> None:
    stage = s.sides[ev.seat - 1].stage
    unit = stage[ev.attacker_place - 1]
    stage[ev.attacker_place - 1] = replace(unit, burst=True) if unit else unit
    s.battle = Battle(attacker=ev.attacker, attacker_place=ev.attacker_place, target=ev.target,
                      target_place=ev.target_place, cause=ev.at)


def _guarded(s: Loose, ev: e.Guarded) -> None:
    if ev.source == "hand":
        side = s.sides[ev.seat - 1]
        side.hand, side.discard = without(side.hand, (ev.card,)), side.discard + (ev.card,)
    b = s.battle
    if b is not None:
        s.battle = replace(b, guards=b.guards + ev.guards, cause=ev.at or b.cause)


def _burst(s: Loose, ev: e.Burst) -> None:
    stage = s.sides[ev.seat - 1].stage
    unit = stage[ev.place - 1]
    stage[ev.place - 1] = replace(unit, burst=True) if unit else unit


def _nullified(s: Loose, ev: e.Nullified) -> None:
    side = s.sides[ev.seat - 1]
    side.hand, side.discard = without(side.hand, (ev.card,)), side.discard + (ev.card,)
    if s.battle is not None:
        s.battle = replace(s.battle, nullified=True)


def _modified(s: Loose, ev: e.Modified) -> None:
    s.mods = s.mods + (Mod(card=ev.card, power=ev.power, graze=ev.graze, lasting=ev.lasting),)


def _left(s: Loose, ev: e.CharacterLeft) -> None:
    side = s.sides[ev.seat - 1]
    unit = side.stage[ev.place - 1]
    if unit is None:
        return
    gone, rest = leaving(unit, ev)
    side.stage[ev.place - 1] = rest
    side.discard = side.discard + gone
    if s.mods:
        s.mods = tuple(m for m in s.mods if m.card not in gone)


def _damage(s: Loose, ev: e.DamageTaken) -> None:
    side = s.sides[ev.seat - 1]
    side.deck, side.damage = side.deck[1:], side.damage + (ev.card,)


def _reigeki(s: Loose, ev: e.ReigekiCharged) -> None:
    side = s.sides[ev.seat - 1]
    side.deck, side.reiryoku = side.deck[1:], side.reiryoku + (ev.card,)


def _battle_end(s: Loose, ev: e.BattleEnded) -> None:
    s.battle = None


def _effects_end(s: Loose, ev: e.EffectsEnded) -> None:
    s.mods = tuple(m for m in s.mods if m.lasting)


def _lost(s: Loose, ev: e.Lost) -> None:
    s.sides[ev.seat - 1].lost = ev.reason


def _over(s: Loose, ev: e.GameOver) -> None:
    s.phase, s.battle = "over", None
    s.result = Result(termination=ev.termination, winner=ev.winner or None, clause="R-1.1")


def _same(s: Loose, ev: Any) -> None:
    pass


# one case per event type of evolve's HANDLERS (a test holds the two tables to the same keys)
CASES: dict[type, Callable[[Loose, Any], None]] = {
    e.DecksShuffled: _decks, e.LeaderPlaced: _leader, e.FirstPlayer: _first, e.Drew: _drew,
    e.HandReturned: _returned, e.HandKept: _kept, e.TurnBegan: _turn, e.PhaseBegan: _phase, e.StepBegan: _step,
    e.Reloaded: _reloaded, e.Charged: _charged, e.Moved: _moved, e.Discarded: _discarded, e.Played: _played,
    e.SpellCast: _cast, e.DamageFlipped: _flipped, e.AttackDeclared: _attack, e.Guarded: _guarded,
    e.Burst: _burst, e.Nullified: _nullified, e.Modified: _modified, e.BattleResolved: _same,
    e.CharacterLeft: _left, e.DamageTaken: _damage, e.ReigekiCharged: _reigeki, e.BattleEnded: _battle_end,
    e.EffectsEnded: _effects_end, e.Lost: _lost, e.GameOver: _over,
}


_NO_SIDES = State().sides          # the defaults a new state holds, and a decoded one that leaves them out
_NO_STAGE = _NO_SIDES[0].stage


def _settled(state: State) -> bool:
    """Are the sides and both stages made by a fold already (not the defaults themselves)?"""
    sides = state.sides
    return sides is not _NO_SIDES and sides[0].stage is not _NO_STAGE and sides[1].stage is not _NO_STAGE


def evolve_run(state: State, events: Sequence[Any], fold: Callable[[State, Any], State]) -> State:
    """What ``fold`` makes of ``events`` one at a time, with one ``State`` made at the end."""
    rest = iter(events)
    case_of = CASES.get
    step, phase = e.StepBegan, e.PhaseBegan
    while True:
        if not _settled(state):
            # the setup, until both leaders stand: folded one at a time, so that the sides and
            # each stage are made anew exactly when ``evolve`` makes them (see the docstring)
            for event in rest:
                state = fold(state, event)
                if _settled(state):
                    break
            else:
                return state
        loose = Loose(state)
        for event in rest:
            kind = type(event)
            if kind is step:          # (a third of a record, and the phases a sixth: no call for them)
                loose.phase = event.step
                continue
            if kind is phase:
                loose.phase = event.phase
                continue
            case = case_of(kind)
            if case is not None:
                case(loose, event)
                continue
            # the core's own events (a prepared position, a judge's act): folded on the frozen state
            frozen = loose.frozen()
            state = fold(frozen, event)
            if state is not frozen:
                break                 # a new state put in: a new loose copy of it
        else:
            return loose.frozen()
