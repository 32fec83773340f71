"""The fold: each event applied to the state, nothing validated (dict dispatch on the event type)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from kifu.domain.core.clauses import implements

from . import events as e
from .state import Battle, Mod, Result, State, Unit


def _side(state: State, seat: int, **changes: Any) -> State:
    sides = list(state.sides)
    sides[seat - 1] = replace(sides[seat - 1], **changes)
    return replace(state, sides=(sides[0], sides[1]))


def without(cards: tuple[int, ...], gone: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    out = list(cards)
    for c in gone:
        if c in out:
            out.remove(c)
        elif 0 in out:          # a masked position holds hidden ids (bots simulate on it)
            out.remove(0)
    return tuple(out)


def staged(stage: tuple[Unit | None, ...], place: int, unit: Unit | None) -> tuple[Unit | None, ...]:
    """The stage with ``unit`` in ``place`` (always a new tuple, as the record's digests expect)."""
    out = list(stage)
    out[place - 1] = unit
    return tuple(out)


def buried(unit: Unit) -> tuple[int, ...]:
    """The cards a unit sends to the discard: its card and the Lv3 beneath an LvEx."""
    return (unit.card, unit.under) if unit.under else (unit.card,)


@implements("R-Q5", "R-Q15")
def entering(ev: e.Played, below: Unit | None, turn: int) -> Unit:
    """R-Q5: a character enters reloaded (it may attack this turn); an LvEx takes its Lv3's state (R-Q15)."""
    if ev.on and below is not None:
        return Unit(card=ev.card, under=ev.on, burst=below.burst, entered=turn, under_entered=below.entered)
    return Unit(card=ev.card, entered=turn)


def leaving(unit: Unit, ev: e.CharacterLeft) -> tuple[tuple[int, ...], Unit | None]:
    """The cards a leaving unit discards, and what stays in its place: the Lv3 under an LvEx, in
    the state it entered with (R-Q15), or nothing."""
    if ev.stays:
        return (unit.card,), Unit(card=ev.stays, burst=unit.burst, entered=unit.under_entered)
    return buried(unit), None


def _decks(s: State, ev: e.DecksShuffled) -> State:
    return _side(s, ev.seat, keys=ev.keys, deck=ev.deck, exdeck=ev.exdeck)


def _leader(s: State, ev: e.LeaderPlaced) -> State:
    return _side(s, ev.seat, stage=staged(s.side(ev.seat).stage, ev.place, Unit(card=ev.card, leader=True)))


def _first(s: State, ev: e.FirstPlayer) -> State:
    return replace(s, first=ev.seat, active=ev.seat, phase="mulligan")


def _drew(s: State, ev: e.Drew) -> State:
    side = s.side(ev.seat)
    return _side(s, ev.seat, deck=side.deck[len(ev.cards):], hand=side.hand + ev.cards)


def _returned(s: State, ev: e.HandReturned) -> State:
    side = s.side(ev.seat)
    return _side(s, ev.seat, hand=without(side.hand, ev.cards), deck=ev.deck, mulliganed=True)


def _kept(s: State, ev: e.HandKept) -> State:
    return _side(s, ev.seat, mulliganed=True)


def _turn(s: State, ev: e.TurnBegan) -> State:
    # a turn begins with its start phase (PhaseBegan "start" follows at once, in the same
    # decision): the turn's label is never the last turn's phase or the mulligan
    return replace(s, active=ev.seat, turn=ev.turn, moved=(), phase="start")


def _phase(s: State, ev: e.PhaseBegan) -> State:
    return replace(s, phase=ev.phase)


def _step(s: State, ev: e.StepBegan) -> State:
    return replace(s, phase=ev.step)


def _reloaded(s: State, ev: e.Reloaded) -> State:
    side = s.side(ev.seat)
    stage = tuple(replace(u, burst=False) if u is not None and i + 1 in ev.places else u
                  for i, u in enumerate(side.stage))
    return _side(s, ev.seat, stage=stage)


def _charged(s: State, ev: e.Charged) -> State:
    side = s.side(ev.seat)
    return _side(s, ev.seat, exdeck=side.exdeck[1:], reiryoku=side.reiryoku + (ev.card,))


def _moved(s: State, ev: e.Moved) -> State:
    side = s.side(ev.seat)
    unit = side.stage[ev.source - 1]
    stage = list(side.stage)
    there = stage[ev.to - 1]
    stage[ev.source - 1] = None
    stage[ev.to - 1] = unit
    if there is not None:
        gone = buried(there)
        s = _side(s, ev.seat, discard=side.discard + gone)
        s = replace(s, mods=tuple(m for m in s.mods if m.card not in gone))
    return replace(_side(s, ev.seat, stage=tuple(stage)), moved=s.moved + (ev.card,))


def _discarded(s: State, ev: e.Discarded) -> State:
    side = s.side(ev.seat)
    if ev.source == "hand":
        return _side(s, ev.seat, hand=without(side.hand, ev.cards), discard=side.discard + ev.cards)
    return _side(s, ev.seat, reiryoku=without(side.reiryoku, ev.cards), exdiscard=side.exdiscard + ev.cards)


def _played(s: State, ev: e.Played) -> State:
    side = s.side(ev.seat)
    unit = entering(ev, side.stage[ev.place - 1], s.turn)
    return _side(s, ev.seat, hand=without(side.hand, (ev.card,)), stage=staged(side.stage, ev.place, unit))


@implements("R-Q9")
def _cast(s: State, ev: e.SpellCast) -> State:
    """R-Q9: the spell and every 霊力 card paid (spells and 霊撃) go to the Ex discard."""
    side = s.side(ev.seat)
    used = (ev.card,) + ev.pay
    return _side(s, ev.seat, reiryoku=without(side.reiryoku, used), exdiscard=side.exdiscard + used,
                 spell_turn=s.turn)


def _flipped(s: State, ev: e.DamageFlipped) -> State:
    return _side(s, ev.seat, flipped=s.side(ev.seat).flipped + (ev.card,))


def _attack(s: State, ev: e.AttackDeclared) -> State:
    side = s.side(ev.seat)
    unit = side.stage[ev.attacker_place - 1]
    s = _side(s, ev.seat, stage=staged(side.stage, ev.attacker_place, replace(unit, burst=True) if unit else unit))
    return replace(s, battle=Battle(attacker=ev.attacker, attacker_place=ev.attacker_place, target=ev.target,
                                    target_place=ev.target_place, cause=ev.at))


def _guarded(s: State, ev: e.Guarded) -> State:
    if ev.source == "hand":
        side = s.side(ev.seat)
        s = _side(s, ev.seat, hand=without(side.hand, (ev.card,)), discard=side.discard + (ev.card,))
    b = s.battle
    return replace(s, battle=replace(b, guards=b.guards + ev.guards, cause=ev.at or b.cause)) if b is not None else s


def _burst(s: State, ev: e.Burst) -> State:
    side = s.side(ev.seat)
    unit = side.stage[ev.place - 1]
    return _side(s, ev.seat, stage=staged(side.stage, ev.place, replace(unit, burst=True) if unit else unit))


def _nullified(s: State, ev: e.Nullified) -> State:
    side = s.side(ev.seat)
    s = _side(s, ev.seat, hand=without(side.hand, (ev.card,)), discard=side.discard + (ev.card,))
    return replace(s, battle=replace(s.battle, nullified=True)) if s.battle is not None else s


def _modified(s: State, ev: e.Modified) -> State:
    return replace(s, mods=s.mods + (Mod(card=ev.card, power=ev.power, graze=ev.graze, lasting=ev.lasting),))


def _left(s: State, ev: e.CharacterLeft) -> State:
    side = s.side(ev.seat)
    unit = side.stage[ev.place - 1]
    if unit is None:
        return s
    gone, rest = leaving(unit, ev)
    s = _side(s, ev.seat, stage=staged(side.stage, ev.place, rest), discard=side.discard + gone)
    return replace(s, mods=tuple(m for m in s.mods if m.card not in gone)) if s.mods else s


def _damage(s: State, ev: e.DamageTaken) -> State:
    side = s.side(ev.seat)
    return _side(s, ev.seat, deck=side.deck[1:], damage=side.damage + (ev.card,))


def _reigeki(s: State, ev: e.ReigekiCharged) -> State:
    side = s.side(ev.seat)
    return _side(s, ev.seat, deck=side.deck[1:], reiryoku=side.reiryoku + (ev.card,))


def _battle_end(s: State, ev: e.BattleEnded) -> State:
    return replace(s, battle=None)


def _effects_end(s: State, ev: e.EffectsEnded) -> State:
    return replace(s, mods=tuple(m for m in s.mods if m.lasting))


def _lost(s: State, ev: e.Lost) -> State:
    return _side(s, ev.seat, lost=ev.reason)


def _over(s: State, ev: e.GameOver) -> State:
    return replace(s, phase="over", battle=None,
                   result=Result(termination=ev.termination, winner=ev.winner or None, clause="R-1.1"))


def _same(s: State, ev: Any) -> State:
    return s


# the fold table, one case per event type: public, so the core folds through it directly
# (``SpeedUps.evolve_cases``) and a test can name it
HANDLERS: dict[type, Callable[[State, Any], State]] = {
    e.DecksShuffled: _decks, e.LeaderPlaced: _leader, e.FirstPlayer: _first, e.Drew: _drew,
    e.HandReturned: _returned, e.HandKept: _kept, e.TurnBegan: _turn, e.PhaseBegan: _phase, e.StepBegan: _step,
    e.Reloaded: _reloaded, e.Charged: _charged, e.Moved: _moved, e.Discarded: _discarded, e.Played: _played,
    e.SpellCast: _cast, e.DamageFlipped: _flipped, e.AttackDeclared: _attack, e.Guarded: _guarded,
    e.Burst: _burst, e.Nullified: _nullified, e.Modified: _modified, e.BattleResolved: _same,
    e.CharacterLeft: _left, e.DamageTaken: _damage, e.ReigekiCharged: _reigeki, e.BattleEnded: _battle_end,
    e.EffectsEnded: _effects_end, e.Lost: _lost, e.GameOver: _over,
}


def evolve(state: State, event: Any) -> State:
    fold = HANDLERS.get(type(event))
    return fold(state, event) if fold is not None else state
