"""The state of a masters match: plain frozen Structs, folded by ``evolve``, read by the rules."""
from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Literal

import msgspec

from kifu.domain.core.memo import ByIdentity
from kifu.domain.core.priority import Priority
from kifu.domain.core.roles import HIDDEN, CardId
from kifu.domain.core.ruleset import Outcome

from .cards import UNKNOWN, CardDef, catalog
from .vocabulary import WIDE, Phase, card_id, card_index, card_seat


class Value(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):  # values: no cycles, nothing for the GC
    """Every part of the state: a frozen value, fields at their defaults left out.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


_DEFS = catalog()      # name -> card definition (read once: the card set is package data)
_TAPPED: Callable[[Mana], bool] = attrgetter("tapped")
_SQUARE = attrgetter("square")
_SQUARE_SEAT: Callable[[Piece], tuple[int, int]] = attrgetter("square", "seat")
Names = tuple[tuple[str, ...], tuple[str, ...]]
Flat = dict[int, CardDef]


def _table_of(names: Names) -> Flat:
    """A match's card definitions by card id, built once per match: a match's names are one tuple
    shared by all its states, so ``State.card`` indexes this table instead of looking each name up."""
    defs = (tuple(_DEFS.get(n, UNKNOWN) for n in names[0]), tuple(_DEFS.get(n, UNKNOWN) for n in names[1]))
    return {card_id(seat, i): d for seat in (1, 2) for i, d in enumerate(defs[seat - 1])}


card_table = ByIdentity("masters.card_table", _table_of, bound=256)
"""Card id -> definition for the match of ``names``: ``card_table(s.names).get(cid, UNKNOWN)`` is
``s.card(cid)`` without a call per card (ids it lacks are UNKNOWN's)."""


class Piece(Value, frozen=True, kw_only=True):
    card: CardId
    seat: int
    square: int
    damage: int = 0             # M-Q9: persists until healed
    tapped: bool = False        # M-5.2: a piece that moved is tapped
    fresh: bool = False         # M-4.2: summoned this turn (cannot move unless 【速攻】)
    atk_bonus: int = 0          # until end of turn
    shield: int = 0             # damage taken reduced, until end of turn


class Mana(Value, frozen=True, kw_only=True):
    card: CardId
    face_up: bool = False       # M-3.2 face-down from the deck; M-3.3 / M-7.1 a face-up piece
    tapped: bool = False


class Side(Value, frozen=True, kw_only=True):
    deck: tuple[CardId, ...] = ()       # top first
    hand: tuple[CardId, ...] = ()
    grave: tuple[CardId, ...] = ()
    mana: tuple[Mana, ...] = ()
    life: int = 0
    master: int = 0                     # the master's square
    master_moved: bool = False          # M-4.1 / M-6.1: once per turn
    charged: bool = False               # M-Q13: a face-up piece charge this turn
    mulligans: int = 0
    bottom_due: int = 0                 # M-1.7: cards still to put on the bottom
    kept: bool = False
    doom: int = 0                       # M-C9: the special victory's counters
    lost: str = ""


class StackItem(Value, frozen=True, kw_only=True):
    """A spell cast or an activated skill, waiting on the stack (M-2)."""

    seat: int
    card: CardId
    kind: Literal["spell", "skill"]
    target: CardId = 0          # the targeted piece, 0 if none


class Combat(Value, frozen=True, kw_only=True):
    """A combat begun by a move into an enemy's square (M-5.3, M-8): waits for both passes."""

    seat: int                   # the attacker's controller
    attacker: CardId
    defender: CardId            # a piece, or 0 when the square holds the enemy master (M-Q4)
    origin: int                 # the attacker's original square (before the move, M-8.3)
    before: int                 # the last square on its path before the combat (M-8.3)
    square: int                 # the attacked square


class State(Value, frozen=True, kw_only=True):
    names: Names = ((), ())
    sides: tuple[Side, Side] = (Side(), Side())
    first: int = 0
    turn: int = 0
    active: int = 0
    phase: Phase = "mulligan"
    pending: Literal["", "mulligan", "bottom", "draw", "discard"] = ""
    pieces: tuple[Piece, ...] = ()
    stack: tuple[StackItem, ...] = ()   # bottom first
    priority: Priority | None = None
    combat: Combat | None = None
    moved_in_action: bool = False       # M-Q7: "the start of the action phase" lasts until a piece moves
    outcome: Outcome | None = None

    def side(self, seat: int) -> Side:
        return self.sides[seat - 1]

    def name(self, cid: int) -> str:
        if cid == HIDDEN or cid < 100:
            return ""
        seat, index = card_seat(cid), card_index(cid)
        return self.names[seat - 1][index] if 1 <= seat <= 2 and index < len(self.names[seat - 1]) else ""

    def card(self, cid: int) -> CardDef:
        """The definition of card ``cid`` (UNKNOWN where ``name`` is "")."""
        last = card_table.last          # the match asked last, read without a call
        table: Flat = last[1] if last[0] is self.names else card_table(self.names)
        return table.get(cid, UNKNOWN)  # ids under 100, of a third seat or past a deck's end are not in it

    def owner(self, cid: int) -> int:
        return cid // 100 if cid < WIDE else card_seat(cid)

    def piece(self, cid: int) -> Piece | None:
        for p in self.pieces:
            if p.card == cid:
                return p
        return None

    def at(self, square: int) -> Piece | None:
        for p in self.pieces:
            if p.square == square:
                return p
        return None

    def occupied(self) -> dict[int, int]:
        """Square -> the seat whose piece or master stands there."""
        pieces = self.pieces
        occ: dict[int, int] = dict(map(_SQUARE_SEAT, pieces))
        one, two = self.sides
        occ[one.master] = 1
        occ[two.master] = 2
        return occ

    def master_at(self, square: int) -> int:
        for seat in (1, 2):
            if self.sides[seat - 1].master == square:
                return seat
        return 0

    def untapped_mana(self, seat: int) -> int:
        mana = self.sides[seat - 1].mana
        return len(mana) - sum(map(_TAPPED, mana))
