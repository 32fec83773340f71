"""The events of the novel ruleset; card fields are ``CardId``, seats ``SeatNo``, rows ``PlaceName``."""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import Amount, CardId, PlaceName, SeatNo

_opts = dict(frozen=True, tag=True, omit_defaults=True, kw_only=True)


class PhaseBegun(msgspec.Struct, **_opts):  # type: ignore[misc]
    """``phase``: first | select | summon | magic | skill | end. ``turn`` 0 is the first phase."""

    phase: str
    turn: int


class Picked(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId = 0
    face_down: bool = False


class RevealChosen(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId = 0


class SelectDone(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo


class Summoned(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    row: PlaceName


class Equipped(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId


class MagicSet(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    face_down: bool = False
    target: CardId = 0


class MagicFlipped(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId = 0


class MagicResolved(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    category: int
    target: CardId = 0


class MagicFizzled(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    reason: str


class OrderFixed(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A tie-break inside one magic category (N-Q5): the order the effects were applied in."""

    category: int
    cards: tuple[CardId, ...]


class StatChanged(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    stat: str
    before: Amount
    after: Amount


class Moved(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A character changed row (a 配置 change, or its back row became the front row)."""

    card: CardId
    row: PlaceName


class HpChanged(msgspec.Struct, **_opts):  # type: ignore[misc]
    """Damage and healing that happened at once, netted (N-6.4); ``hp`` is the result."""

    card: CardId
    hp: Amount                   # always written, 0 included
    damage: Amount = 0
    heal: Amount = 0


class Died(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId


class Revived(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    row: PlaceName
    hp: Amount


class Stunned(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId


class CardSpent(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A used magic card (or fizzled equipment) goes to the graveyard."""

    card: CardId


class GroupLit(msgspec.Struct, **_opts):  # type: ignore[misc]
    """The characters of one AGI that act next (N-6.5: they "light up red")."""

    agi: int
    cards: tuple[CardId, ...]


class Acted(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    card: CardId
    target: CardId


class CannotAct(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    reason: str


class Lost(msgspec.Struct, **_opts):  # type: ignore[misc]
    seat: SeatNo
    reason: str


class MatchEnded(msgspec.Struct, **_opts):  # type: ignore[misc]
    termination: str
    winner: SeatNo = 0


Event = Union[PhaseBegun, Picked, RevealChosen, SelectDone, Summoned, Equipped, MagicSet, MagicFlipped,
              MagicResolved, MagicFizzled, OrderFixed, StatChanged, Moved, HpChanged, Died, Revived, Stunned,
              CardSpent, GroupLit, Acted, CannotAct, Lost, MatchEnded]
