"""The state of a masters match: plain frozen Structs, folded by ``evolve``, read by the rules."""
from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Literal

import msgspec

from kifu.domain.core.priority import Priority
from kifu.domain.core.roles import HIDDEN, CardId
from kifu.domain.core.ruleset import Outcome

from .cards import UNKNOWN, CardDef, catalog
from .vocabulary import Phase


class Value(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):  # values: no cycles, nothing for the GC
    """Every part of the state: a frozen value, fields at their defaults left out.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


_DEFS = catalog()      # name -> card definition (read once: the card set is package data)
_TAPPED: Callable[[Mana], bool] = attrgetter("tapped")
_SQUARE = attrgetter("square")
_SQUARE_SEAT: Callable[[Piece], tuple[int, int]] = attrgetter("square", "seat")
Names = tuple[tuple[str, ...], tuple[str, ...]]
Defs = tuple[tuple[CardDef, ...], tuple[CardDef, ...]]
Flat = dict[int, CardDef]
_TABLES: dict[int, tuple[Names, Defs, Flat]] = {}   # id(names) -> (names, their definitions, by card id)
_LAST: list[tuple[Names, Defs, Flat]] = [(((), ()), ((), ()), {})]   # the last one asked for, read first


def _table(names: Names) -> tuple[Names, Defs, Flat]:
    """A match's card definitions, built once: each seat's in id order, and by card id. A match's
    names are one tuple shared by all its states, so ``State.card`` indexes this table instead of
    looking each name up. A cached table keeps its ``names`` alive, so their id cannot be reused
    while it is cached."""
    last = _LAST[0]
    if last[0] is names:
        return last
    hit = _TABLES.get(id(names))
    if hit is None or hit[0] is not names:
        if len(_TABLES) >= 256:
            _TABLES.clear()
        defs = (tuple(_DEFS.get(n, UNKNOWN) for n in names[0]), tuple(_DEFS.get(n, UNKNOWN) for n in names[1]))
        flat = {seat * 100 + i: d for seat in (1, 2) for i, d in enumerate(defs[seat - 1]) if i < 100}
        hit = _TABLES[id(names)] = (names, defs, flat)
    _LAST[0] = hit
    return hit


def _defs(names: Names) -> Defs:
    """Each seat's card definitions in id order."""
    return _table(names)[1]


def card_table(names: Names) -> Flat:
    """Card id -> definition for the match of ``names``: ``card_table(s.names).get(cid, UNKNOWN)``
    is ``s.card(cid)`` without a call per card (ids it lacks are UNKNOWN's)."""
    return _table(names)[2]


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
        seat, index = divmod(cid, 100)
        names = self.names[seat - 1]
        return names[index] if 1 <= seat <= 2 and index < len(names) else ""

    def card(self, cid: int) -> CardDef:
        """The definition of card ``cid`` (UNKNOWN where ``name`` is "")."""
        return _table(self.names)[2].get(cid, UNKNOWN)    # ids under 100, of a third seat or past a
        #                                                     deck's end are not in the table

    def owner(self, cid: int) -> int:
        return cid // 100

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
