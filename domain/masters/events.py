"""Events of a masters match: decisions (a player's) and rule events (what the rules did).

Field roles: cards are ``CardId`` (redaction hides them), seats ``SeatNo``, squares ``PlaceName`` (``"c4"``),
numbers a ruling produced ``Amount``.
"""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import Amount, CardId, PlaceName, SeatNo


class Ev(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, gc=False):  # values: no cycles
    """Every event: tagged by class name, fields at their defaults left out of the record.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


# -- setup and mulligans (M-1) -----------------------------------------------------------------
class CoinTossed(Ev, frozen=True, kw_only=True):
    first: SeatNo


class MasterPlaced(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    square: PlaceName


class DeckShuffled(Ev, frozen=True, kw_only=True):
    seat: SeatNo                       # whose deck
    by: SeatNo                         # who shuffled it (M-1.5: the opponent)
    order: tuple[CardId, ...]          # top first; hidden from both seats


class CardsDrawn(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


class MulliganTaken(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class HandReturned(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


class HandKept(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    mulligans: Amount = 0


class CardBottomed(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId


# -- turns, phases and priority (M-2, M-3, M-7) ------------------------------------------------
class TurnBegan(Ev, frozen=True, kw_only=True):
    turn: int
    seat: SeatNo


class Untapped(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class DrawChosen(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class ChargeChosen(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class ManaCharged(Ev, frozen=True, kw_only=True):
    """A card enters the mana area: face-down from the deck's top (M-3.2; hidden from both seats)
    or a face-up piece from hand (M-3.3, M-7.1; a decision)."""

    seat: SeatNo
    card: CardId
    face_up: bool = False


class PriorityPassed(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class PhaseBegan(Ev, frozen=True, kw_only=True):
    phase: str
    seat: SeatNo


class Resolved(Ev, frozen=True, kw_only=True):
    """The top of the stack resolves (M-2.2); ``fizzled`` when its target is gone."""

    seat: SeatNo
    card: CardId
    fizzled: bool = False


class TurnEnded(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class HandLimitReached(Ev, frozen=True, kw_only=True):
    """M-7.2: the end phase is over and the hand holds more than the limit: discard follows."""

    seat: SeatNo
    excess: Amount


class HandDiscarded(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId


# -- main and action phases (M-4, M-5, M-6) ----------------------------------------------------
class MasterMoved(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    source: PlaceName
    to: PlaceName


class PieceSummoned(Ev, frozen=True, kw_only=True):
    """Squares are named as people say them (``"c4"``: column c, row 4)."""

    seat: SeatNo
    card: CardId
    square: PlaceName
    paid: Amount = 0
    ambush: bool = False


class SpellCast(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId = 0
    at: PlaceName = ""                      # the target's square when chosen
    paid: Amount = 0


class SkillActivated(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId = 0
    at: PlaceName = ""
    paid: Amount = 0
    tapped: bool = False


class PieceMoved(Ev, frozen=True, kw_only=True):
    """A move onto an empty square (M-5.2): the piece is tapped."""

    seat: SeatNo
    card: CardId
    path: tuple[PlaceName, ...]


class AttackMoved(Ev, frozen=True, kw_only=True):
    """A move whose path ends on an enemy's square (M-5.3): the piece is tapped and stands on the
    last square before the combat until the combat ends (M-8.3)."""

    seat: SeatNo
    card: CardId
    path: tuple[PlaceName, ...]


class CombatBegan(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    attacker: CardId
    defender: CardId                   # 0: the square holds the enemy master (M-Q4)
    origin: PlaceName
    before: PlaceName
    square: PlaceName


class CombatAvoided(Ev, frozen=True, kw_only=True):
    attacker: CardId
    square: PlaceName                      # where the attacker stops (the square before the combat)


class CombatDamage(Ev, frozen=True, kw_only=True):
    """Damage is calculated (M-8.2); with a counter-attack both blows at once (M-8.5)."""

    attacker: CardId
    defender: CardId
    dealt: Amount                      # final damage to the defender (or the master)
    countered: bool = False
    taken: Amount = 0                  # final damage of the counter-attack to the attacker


class PieceDamaged(Ev, frozen=True, kw_only=True):
    card: CardId
    amount: Amount


class PieceHealed(Ev, frozen=True, kw_only=True):
    card: CardId
    amount: Amount


class AtkRaised(Ev, frozen=True, kw_only=True):
    card: CardId
    amount: Amount


class Shielded(Ev, frozen=True, kw_only=True):
    card: CardId
    amount: Amount


class PieceDestroyed(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    square: PlaceName


class MoveCompleted(Ev, frozen=True, kw_only=True):
    card: CardId
    square: PlaceName


class AttackStopped(Ev, frozen=True, kw_only=True):
    card: CardId
    square: PlaceName


class CombatEnded(Ev, frozen=True, kw_only=True):
    """A combat ends without damage because a piece can no longer fight (M-8.6)."""

    attacker: CardId


class MasterDamaged(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    amount: Amount
    life: Amount


class DoomAdded(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    count: Amount


# -- the end (M-1.2) ---------------------------------------------------------------------------
class PlayerLost(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    reason: str


class MatchEnded(Ev, frozen=True, kw_only=True):
    winner: SeatNo | None = None
    reason: str = ""


Event = Union[
    CoinTossed, MasterPlaced, DeckShuffled, CardsDrawn, MulliganTaken, HandReturned, HandKept, CardBottomed,
    TurnBegan, Untapped, DrawChosen, ChargeChosen, ManaCharged, PriorityPassed, PhaseBegan, Resolved, TurnEnded,
    HandLimitReached, HandDiscarded, MasterMoved, PieceSummoned, SpellCast, SkillActivated, PieceMoved,
    AttackMoved, CombatBegan, CombatAvoided, CombatDamage, PieceDamaged, PieceHealed, AtkRaised, Shielded,
    PieceDestroyed, MoveCompleted, AttackStopped, CombatEnded, MasterDamaged, DoomAdded, PlayerLost, MatchEnded,
]
