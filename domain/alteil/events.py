"""Every event of an alteil match: what a player decided and what the rules did about it.

Decision events mirror a command (``replay.command_of``); rule events carry the clause that
made them (in the envelope). Card fields are ``CardId`` so the core can render and redact them.
"""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import Amount, CardId, Place, SeatNo


class Ev(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """Every event: tagged by class name, fields at their defaults left out of the record.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


# -- setup (A-4) -------------------------------------------------------------------------------------
class DeckShuffled(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    order: tuple[CardId, ...]          # the new deck, top first


class CardsDrawn(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


class MulliganDecided(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    redraw: bool = False


class HandReturned(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


class FirstPlayerDecided(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class BattlefieldSet(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]          # squares 1..6, face-down


class OpeningStarted(Ev, frozen=True, kw_only=True):
    """A-4.5: both players now choose their opening influence in secret."""


class OpeningInfluence(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId = 0                   # 0: no unit card in hand, no influence


# -- soul power (A-10) --------------------------------------------------------------------------------
class SoulGained(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]          # from the deck top, in order (fewer if the deck ran out)
    wanted: Amount = 0


class SoulPaid(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]          # from the pile's top to the deck top, in order
    amount: Amount = 0


class SoulReduced(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]
    amount: Amount = 0


# -- the turn (A-5) ----------------------------------------------------------------------------------
class TurnBegan(Ev, frozen=True, kw_only=True):
    turn: int
    seat: SeatNo


class PhaseBegan(Ev, frozen=True, kw_only=True):
    phase: str
    seat: SeatNo = 0                   # who decides first in it


class UnitsUntapped(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


class DrawFailed(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class InfluencePlaced(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    god: str = ""


class InfluenceEnded(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class UnitPlaced(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    square: Place


class SetPassed(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class SkillFired(Ev, frozen=True, kw_only=True):
    """A START, NEXT or SOUL skill takes effect (A-5.4, A-6.5)."""

    seat: SeatNo
    card: CardId
    icon: str


class NextScheduled(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId


class WindowOpened(Ev, frozen=True, kw_only=True):
    """A seat may use grimoires now (A-Q3 before a unit's action; A-5.4 START grimoires)."""

    seat: SeatNo


class WindowPassed(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class GrimoireUsed(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId = 0
    discard: CardId = 0


class CardDiscarded(Ev, frozen=True, kw_only=True):
    """A card leaves the hand for 戦禍 (a cost, or the hand limit)."""

    seat: SeatNo
    card: CardId


class TieChoice(Ev, frozen=True, kw_only=True):
    """A-5.5: units tie on the highest AGI; ``seat`` chooses which of its own acts next."""

    seat: SeatNo
    agi: int
    units: tuple[CardId, ...]


class ActorChosen(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId


class ActorNamed(Ev, frozen=True, kw_only=True):
    """The unit that acts next, by AGI with nobody to choose (A-5.5)."""

    seat: SeatNo
    card: CardId
    agi: int


class UnitWaited(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    forced: bool = False               # AGI ≤ 0


class UnitMoved(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    square: Place


class SkillUsed(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId = 0


class Attacked(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId


class BattlefieldAttacked(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    square: Place


class BattlefieldDestroyed(Ev, frozen=True, kw_only=True):
    seat: SeatNo                       # the owner of the square
    square: Place
    card: CardId                       # goes to its owner's hand


class DamageDealt(Ev, frozen=True, kw_only=True):
    seat: SeatNo                       # the damaged unit's owner
    card: CardId
    amount: Amount
    total: Amount = 0


class Healed(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    amount: Amount


class Modified(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    stat: str
    amount: Amount


class UnitDied(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId


class InfluenceDiscarded(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId


class DiscardedForSoul(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId


class DiscardsEnded(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class DiscardedToLimit(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId


class HandChecked(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    size: Amount


class EffectsEnded(Ev, frozen=True, kw_only=True):
    kept: tuple[CardId, ...] = ()      # NEXT skills still pending


class Conceded(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class PlayerLost(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    reason: str


Event = Union[
    DeckShuffled, CardsDrawn, MulliganDecided, HandReturned, FirstPlayerDecided, BattlefieldSet, OpeningStarted,
    OpeningInfluence, SoulGained, SoulPaid, SoulReduced, TurnBegan, PhaseBegan, UnitsUntapped, DrawFailed,
    InfluencePlaced, InfluenceEnded, UnitPlaced, SetPassed, SkillFired, NextScheduled, WindowOpened, WindowPassed,
    GrimoireUsed, CardDiscarded, TieChoice, ActorChosen, ActorNamed, UnitWaited, UnitMoved, SkillUsed, Attacked,
    BattlefieldAttacked, BattlefieldDestroyed, DamageDealt, Healed, Modified, UnitDied, InfluenceDiscarded,
    DiscardedForSoul, DiscardsEnded, DiscardedToLimit, HandChecked, EffectsEnded, Conceded, PlayerLost,
]
