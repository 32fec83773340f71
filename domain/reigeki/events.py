"""Everything that happens in a reigeki match, as events (one tagged union, ``Event``)."""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import Amount, CardId, Place, SeatNo, SeqRef


class Ev(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """Every event: tagged by class name, fields at their defaults left out of the record.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class DecksShuffled(Ev, frozen=True, kw_only=True):
    """R-5.1: ``seat``'s deck and Ex deck, shuffled by the opponent (order hidden from both seats)."""

    seat: SeatNo
    keys: tuple[str, ...]
    deck: tuple[CardId, ...]
    exdeck: tuple[CardId, ...]


class LeaderPlaced(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    place: Place


class FirstPlayer(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class Drew(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


class HandReturned(Ev, frozen=True, kw_only=True):
    """R-5.4: the mulligan: the hand goes back and the deck is shuffled again (new order)."""

    seat: SeatNo
    cards: tuple[CardId, ...]
    deck: tuple[CardId, ...]


class HandKept(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class TurnBegan(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    turn: int


class PhaseBegan(Ev, frozen=True, kw_only=True):
    phase: str


class Reloaded(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    places: tuple[Place, ...]


class Charged(Ev, frozen=True, kw_only=True):
    """R-6.3: the top Ex-deck card into the 霊力 zone, face down (only its owner sees it)."""

    seat: SeatNo
    card: CardId


class Moved(Ev, frozen=True, kw_only=True):
    """R-6.4: a card moves one area; ``displaced`` is the own character a leader's step discards."""

    seat: SeatNo
    card: CardId
    source: Place
    to: Place
    displaced: CardId = 0


class Discarded(Ev, frozen=True, kw_only=True):
    """Cards of ``seat`` put into its discard (or Ex discard) from ``source``: stage, hand, 霊力."""

    seat: SeatNo
    cards: tuple[CardId, ...]
    source: str
    place: Place = 0


class Played(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    place: Place
    on: CardId = 0                # the Lv3 an LvEx is put on


class SpellCast(Ev, frozen=True, kw_only=True):
    """R-7.3: the spell and the 霊力 paid go to the Ex discard; ``level`` is what was paid."""

    seat: SeatNo
    card: CardId
    pay: tuple[CardId, ...] = ()
    flip: CardId = 0
    level: Amount
    target_seat: SeatNo = 0
    target: Place = 0
    to: Place = 0


class DamageFlipped(Ev, frozen=True, kw_only=True):
    """R-7.3: a face-up damage card turned face down to lower a spell's level by 1."""

    seat: SeatNo
    card: CardId


class AttackDeclared(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    attacker: CardId
    attacker_place: Place
    target: CardId
    target_place: Place
    at: SeqRef = 0                # this event's own seq: the battle's later rulings cite it as their cause


class StepBegan(Ev, frozen=True, kw_only=True):
    """A battle step (R-8.3..R-8.8): guard, spell, effect1, battle, effect2, end."""

    step: str


class Guarded(Ev, frozen=True, kw_only=True):
    """R-8.3 / R-8.4: guards given (a hand card, a burst ガードx character, a ガードx spell)."""

    seat: SeatNo
    card: CardId
    source: str                   # "hand" (discarded), "stage" (a burst ガードx character), "spell"
    guards: Amount
    power: Amount                 # the attacker's power after this guard
    at: SeqRef = 0                # this event's own seq: the battle step cites the last guard as its cause


class Burst(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    place: Place


class Nullified(Ev, frozen=True, kw_only=True):
    """R-3.4: a 霊撃 guard from hand nullifies the attack."""

    seat: SeatNo
    card: CardId


class Modified(Ev, frozen=True, kw_only=True):
    """A power/graze change on a character (a skill or a spell), ``lasting`` past the end phase."""

    seat: SeatNo
    card: CardId
    power: Amount = 0
    graze: Amount = 0
    lasting: bool = False


class BattleResolved(Ev, frozen=True, kw_only=True):
    """R-8.6: final power against graze (or the leader's threshold 3); ``success`` or not."""

    power: Amount
    graze: Amount
    success: bool
    leader: bool = False


class CharacterLeft(Ev, frozen=True, kw_only=True):
    """A character leaves the stage for the discard; an LvEx leaves its Lv3 behind (R-7.2)."""

    seat: SeatNo
    card: CardId
    place: Place
    stays: CardId = 0


class DamageTaken(Ev, frozen=True, kw_only=True):
    """R-2.4: the top deck card face up into the damage zone."""

    seat: SeatNo
    card: CardId


class ReigekiCharged(Ev, frozen=True, kw_only=True):
    """R-2.4: the damage card was a 霊撃: face up into the 霊力 zone instead; damage cancelled."""

    seat: SeatNo
    card: CardId


class BattleEnded(Ev, frozen=True, kw_only=True):
    result: str


class EffectsEnded(Ev, frozen=True, kw_only=True):
    """R-6.7: effects without a stated duration end."""

    cards: tuple[CardId, ...] = ()


class Lost(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    reason: str


class GameOver(Ev, frozen=True, kw_only=True):
    termination: str
    winner: SeatNo = 0            # 0: a draw


Event = Union[
    DecksShuffled, LeaderPlaced, FirstPlayer, Drew, HandReturned, HandKept, TurnBegan, PhaseBegan, Reloaded,
    Charged, Moved, Discarded, Played, SpellCast, DamageFlipped, AttackDeclared, StepBegan, Guarded, Burst,
    Nullified, Modified, BattleResolved, CharacterLeft, DamageTaken, ReigekiCharged, BattleEnded, EffectsEnded,
    Lost, GameOver,
]
