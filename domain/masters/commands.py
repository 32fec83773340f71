"""The decisions a master takes (untrusted input: decoded strictly, validated by ``decide``).

Squares are named as people say them: ``"c4"`` is column c, row 4 (board.name / board.parse)."""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import CardId, PlaceName

_opts = dict(frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True, gc=False)


class Mulligan(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-1.7: return the hand, have the deck reshuffled, draw again."""


class Keep(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-1.7: keep this hand (then put one card on the bottom per mulligan taken)."""


class Bottom(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-1.7: put this card from hand on the bottom of the deck."""

    card: CardId


class Draw(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-3.2: draw one card."""


class Charge(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-3.2: put the deck's top card face-down in the mana area instead of drawing."""


class ChargePiece(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-3.3 / M-7.1: put a piece from hand face-up in the mana area (once per turn, M-Q13)."""

    card: CardId


class MoveMaster(msgspec.Struct, **_opts):  # type: ignore[misc]
    to: PlaceName


class Summon(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    square: PlaceName


class Cast(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    target: PlaceName = ""


class Activate(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    target: PlaceName = ""


class Move(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-5.2: move a piece along ``path`` (the squares entered, in order)."""

    piece: CardId
    path: tuple[PlaceName, ...]


class Pass(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-2.1: do nothing; priority goes to the other master."""


class Discard(msgspec.Struct, **_opts):  # type: ignore[misc]
    """M-7.2: discard a card down to the hand limit (not "destroyed")."""

    card: CardId


Command = Union[Mulligan, Keep, Bottom, Draw, Charge, ChargePiece, MoveMaster, Summon, Cast, Activate, Move,
                Pass, Discard]
