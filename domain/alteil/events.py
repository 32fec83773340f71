"""Every event of an alteil match: what a player decided and what the rules did about it.

Decision events mirror a command (``replay.command_of``); rule events carry the clause that
made them (in the envelope). Card fields are ``CardId`` so the core can render and redact them.
"""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import Amount, CardId, Place, SeatNo

_opts = dict(frozen=True, tag=True, omit_defaults=True, kw_only=True)


# -- setup (A-4) -------------------------------------------------------------------------------------
class DeckShuffled(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    order: tuple[CardId, ...]          # the new deck, top first


class CardsDrawn(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]


class MulliganDecided(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    redraw: bool = False


class HandReturned(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]


class FirstPlayerDecided(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class BattlefieldSet(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]          # squares 1..6, face-down


class OpeningStarted(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A-4.5: both players now choose their opening influence in secret."""


class OpeningInfluence(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId = 0                   # 0: no unit card in hand, no influence


# -- soul power (A-10) --------------------------------------------------------------------------------
class SoulGained(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]          # from the deck top, in order (fewer if the deck ran out)
    wanted: Amount = 0


class SoulPaid(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]          # from the pile's top to the deck top, in order
    amount: Amount = 0


class SoulReduced(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]
    amount: Amount = 0


# -- the turn (A-5) ----------------------------------------------------------------------------------
class TurnBegan(msgspec.Struct, **_opts):  # type: ignore[misc]
    turn: int
    seat: SeatNo


class PhaseBegan(msgspec.Struct, **_opts):  # type: ignore[misc]
    phase: str
    seat: SeatNo = 0                   # who decides first in it


class UnitsUntapped(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]


class DrawFailed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class InfluencePlaced(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    god: str = ""


class InfluenceEnded(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class UnitPlaced(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    square: Place


class SetPassed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class SkillFired(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A START, NEXT or SOUL skill takes effect (A-5.4, A-6.5)."""

    seat: SeatNo
    card: CardId
    icon: str


class NextScheduled(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId


class WindowOpened(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A seat may use grimoires now (A-Q3 before a unit's action; A-5.4 START grimoires)."""

    seat: SeatNo


class WindowPassed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class GrimoireUsed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId = 0
    discard: CardId = 0


class CardDiscarded(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A card leaves the hand for 戦禍 (a cost, or the hand limit)."""

    seat: SeatNo
    card: CardId


class TieChoice(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A-5.5: units tie on the highest AGI; ``seat`` chooses which of its own acts next."""

    seat: SeatNo
    agi: int
    units: tuple[CardId, ...]


class ActorChosen(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId


class ActorNamed(msgspec.Struct, **_opts):  # type: ignore[misc]
    """The unit that acts next, by AGI with nobody to choose (A-5.5)."""

    seat: SeatNo
    card: CardId
    agi: int


class UnitWaited(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    forced: bool = False               # AGI ≤ 0


class UnitMoved(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    square: Place


class SkillUsed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId = 0


class Attacked(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId


class BattlefieldAttacked(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    square: Place


class BattlefieldDestroyed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo                       # the owner of the square
    square: Place
    card: CardId                       # goes to its owner's hand


class DamageDealt(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo                       # the damaged unit's owner
    card: CardId
    amount: Amount
    total: Amount = 0


class Healed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    amount: Amount


class Modified(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    stat: str
    amount: Amount


class UnitDied(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId


class InfluenceDiscarded(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId


class DiscardedForSoul(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId


class DiscardsEnded(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class DiscardedToLimit(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId


class HandChecked(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    size: Amount


class EffectsEnded(msgspec.Struct, **_opts):  # type: ignore[misc]
    kept: tuple[CardId, ...] = ()      # NEXT skills still pending


class Conceded(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class PlayerLost(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    reason: str


Event = Union[DeckShuffled, CardsDrawn, MulliganDecided, HandReturned, FirstPlayerDecided, BattlefieldSet,
              OpeningStarted, OpeningInfluence, SoulGained, SoulPaid, SoulReduced, TurnBegan, PhaseBegan,
              UnitsUntapped, DrawFailed, InfluencePlaced, InfluenceEnded, UnitPlaced, SetPassed, SkillFired,
              NextScheduled, WindowOpened, WindowPassed, GrimoireUsed, CardDiscarded, TieChoice, ActorChosen,
              ActorNamed, UnitWaited, UnitMoved, SkillUsed, Attacked, BattlefieldAttacked, BattlefieldDestroyed,
              DamageDealt, Healed, Modified, UnitDied, InfluenceDiscarded, DiscardedForSoul, DiscardsEnded,
              DiscardedToLimit, HandChecked, EffectsEnded, Conceded, PlayerLost]
