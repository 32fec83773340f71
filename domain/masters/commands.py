"""The decisions a master takes (untrusted input: decoded strictly, validated by ``decide``).

Squares are named as people say them: ``"c4"`` is column c, row 4 (board.name / board.parse)."""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import CardId, PlaceName


class Cmd(msgspec.Struct, frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True, gc=False):
    """A seat's decision as submitted: read from clients and files, so unknown fields are refused; tagged by class name.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class Mulligan(Cmd, frozen=True, kw_only=True):
    """M-1.7: return the hand, have the deck reshuffled, draw again."""


class Keep(Cmd, frozen=True, kw_only=True):
    """M-1.7: keep this hand (then put one card on the bottom per mulligan taken)."""


class Bottom(Cmd, frozen=True, kw_only=True):
    """M-1.7: put this card from hand on the bottom of the deck."""

    card: CardId


class Draw(Cmd, frozen=True, kw_only=True):
    """M-3.2: draw one card."""


class Charge(Cmd, frozen=True, kw_only=True):
    """M-3.2: put the deck's top card face-down in the mana area instead of drawing."""


class ChargePiece(Cmd, frozen=True, kw_only=True):
    """M-3.3 / M-7.1: put a piece from hand face-up in the mana area (once per turn, M-Q13)."""

    card: CardId


class MoveMaster(Cmd, frozen=True, kw_only=True):
    to: PlaceName


class Summon(Cmd, frozen=True, kw_only=True):
    card: CardId
    square: PlaceName


class Cast(Cmd, frozen=True, kw_only=True):
    card: CardId
    target: PlaceName = ""


class Activate(Cmd, frozen=True, kw_only=True):
    card: CardId
    target: PlaceName = ""


class Move(Cmd, frozen=True, kw_only=True):
    """M-5.2: move a piece along ``path`` (the squares entered, in order)."""

    piece: CardId
    path: tuple[PlaceName, ...]


class Pass(Cmd, frozen=True, kw_only=True):
    """M-2.1: do nothing; priority goes to the other master."""


class Discard(Cmd, frozen=True, kw_only=True):
    """M-7.2: discard a card down to the hand limit (not "destroyed")."""

    card: CardId


Command = Union[
    Mulligan, Keep, Bottom, Draw, Charge, ChargePiece, MoveMaster, Summon, Cast, Activate, Move, Pass, Discard,
]
