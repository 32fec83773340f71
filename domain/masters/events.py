"""Events of a masters match: decisions (a player's) and rule events (what the rules did).

Field roles: cards are ``CardId`` (redaction hides them), seats ``SeatNo``, squares ``PlaceName`` (``"c4"``),
numbers a ruling produced ``Amount``.
"""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import Amount, CardId, PlaceName, SeatNo

_opts = dict(frozen=True, tag=True, omit_defaults=True, kw_only=True, gc=False)   # values: no cycles


# -- setup and mulligans (M-1) -----------------------------------------------------------------
class CoinTossed(msgspec.Struct, **_opts):  # type: ignore[misc]
    first: SeatNo


class MasterPlaced(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    square: PlaceName


class DeckShuffled(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo                       # whose deck
    by: SeatNo                         # who shuffled it (M-1.5: the opponent)
    order: tuple[CardId, ...]          # top first; hidden from both seats


class CardsDrawn(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]


class MulliganTaken(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class HandReturned(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    cards: tuple[CardId, ...]


class HandKept(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    mulligans: Amount = 0


class CardBottomed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId


# -- turns, phases and priority (M-2, M-3, M-7) ------------------------------------------------
class TurnBegan(msgspec.Struct, **_opts):  # type: ignore[misc]
    turn: int
    seat: SeatNo


class Untapped(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class DrawChosen(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class ChargeChosen(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class ManaCharged(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A card enters the mana area: face-down from the deck's top (M-3.2; hidden from both seats)
    or a face-up piece from hand (M-3.3, M-7.1; a decision)."""

    seat: SeatNo
    card: CardId
    face_up: bool = False


class PriorityPassed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class PhaseBegan(msgspec.Struct, **_opts):  # type: ignore[misc]
    phase: str
    seat: SeatNo


class Resolved(msgspec.Struct, **_opts):  # type: ignore[misc]
    """The top of the stack resolves (M-2.2); ``fizzled`` when its target is gone."""

    seat: SeatNo
    card: CardId
    fizzled: bool = False


class TurnEnded(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class HandLimitReached(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-7.2: the end phase is over and the hand holds more than the limit: discard follows."""

    seat: SeatNo
    excess: Amount


class HandDiscarded(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId


# -- main and action phases (M-4, M-5, M-6) ----------------------------------------------------
class MasterMoved(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    source: PlaceName
    to: PlaceName


class PieceSummoned(msgspec.Struct, **_opts):  # type: ignore[misc]
    """Squares are named as people say them (``"c4"``: column c, row 4)."""

    seat: SeatNo
    card: CardId
    square: PlaceName
    paid: Amount = 0
    ambush: bool = False


class SpellCast(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId = 0
    at: PlaceName = ""                      # the target's square when chosen
    paid: Amount = 0


class SkillActivated(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId = 0
    at: PlaceName = ""
    paid: Amount = 0
    tapped: bool = False


class PieceMoved(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A move onto an empty square (M-5.2): the piece is tapped."""

    seat: SeatNo
    card: CardId
    path: tuple[PlaceName, ...]


class AttackMoved(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A move whose path ends on an enemy's square (M-5.3): the piece is tapped and stands on the
    last square before the combat until the combat ends (M-8.3)."""

    seat: SeatNo
    card: CardId
    path: tuple[PlaceName, ...]


class CombatBegan(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    attacker: CardId
    defender: CardId                   # 0: the square holds the enemy master (M-Q4)
    origin: PlaceName
    before: PlaceName
    square: PlaceName


class CombatAvoided(msgspec.Struct, **_opts):  # type: ignore[misc]
    attacker: CardId
    square: PlaceName                      # where the attacker stops (the square before the combat)


class CombatDamage(msgspec.Struct, **_opts):  # type: ignore[misc]
    """Damage is calculated (M-8.2); with a counter-attack both blows at once (M-8.5)."""

    attacker: CardId
    defender: CardId
    dealt: Amount                      # final damage to the defender (or the master)
    countered: bool = False
    taken: Amount = 0                  # final damage of the counter-attack to the attacker


class PieceDamaged(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    amount: Amount


class PieceHealed(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    amount: Amount


class AtkRaised(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    amount: Amount


class Shielded(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    amount: Amount


class PieceDestroyed(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    square: PlaceName


class MoveCompleted(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    square: PlaceName


class AttackStopped(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    square: PlaceName


class CombatEnded(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A combat ends without damage because a piece can no longer fight (M-8.6)."""

    attacker: CardId


class MasterDamaged(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    amount: Amount
    life: Amount


class DoomAdded(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    count: Amount


# -- the end (M-1.2) ---------------------------------------------------------------------------
class PlayerLost(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    reason: str


class MatchEnded(msgspec.Struct, **_opts):  # type: ignore[misc]
    winner: SeatNo | None = None
    reason: str = ""


Event = Union[
    CoinTossed, MasterPlaced, DeckShuffled, CardsDrawn, MulliganTaken, HandReturned, HandKept, CardBottomed,
    TurnBegan, Untapped, DrawChosen, ChargeChosen, ManaCharged, PriorityPassed, PhaseBegan, Resolved, TurnEnded,
    HandLimitReached, HandDiscarded, MasterMoved, PieceSummoned, SpellCast, SkillActivated, PieceMoved, AttackMoved, CombatBegan,
    CombatAvoided, CombatDamage, PieceDamaged, PieceHealed, AtkRaised, Shielded, PieceDestroyed, MoveCompleted,
    AttackStopped, CombatEnded, MasterDamaged, DoomAdded, PlayerLost, MatchEnded,
]
