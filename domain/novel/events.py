"""The events of the novel ruleset; card fields are ``CardId``, seats ``SeatNo``, rows ``PlaceName``."""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import Amount, CardId, PlaceName, SeatNo


class Ev(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """Every event: tagged by class name, fields at their defaults left out of the record.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class PhaseBegun(Ev, frozen=True, kw_only=True):
    """``phase``: first | select | summon | magic | skill | end. ``turn`` 0 is the first phase."""

    phase: str
    turn: int


class Picked(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId = 0
    face_down: bool = False


class RevealChosen(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId = 0


class SelectDone(Ev, frozen=True, kw_only=True):
    seat: SeatNo


class Summoned(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    row: PlaceName


class Equipped(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId


class MagicSet(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    face_down: bool = False
    target: CardId = 0


class MagicFlipped(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId = 0


class MagicResolved(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    category: int
    target: CardId = 0


class MagicFizzled(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    reason: str


class OrderFixed(Ev, frozen=True, kw_only=True):
    """A tie-break inside one magic category (N-Q5): the order the effects were applied in."""

    category: int
    cards: tuple[CardId, ...]


class StatChanged(Ev, frozen=True, kw_only=True):
    card: CardId
    stat: str
    before: Amount
    after: Amount


class Moved(Ev, frozen=True, kw_only=True):
    """A character changed row (a 配置 change, or its back row became the front row)."""

    card: CardId
    row: PlaceName


class HpChanged(Ev, frozen=True, kw_only=True):
    """Damage and healing that happened at once, netted (N-6.4); ``hp`` is the result."""

    card: CardId
    hp: Amount                   # always written, 0 included
    damage: Amount = 0
    heal: Amount = 0


class Died(Ev, frozen=True, kw_only=True):
    card: CardId


class Revived(Ev, frozen=True, kw_only=True):
    card: CardId
    row: PlaceName
    hp: Amount


class Stunned(Ev, frozen=True, kw_only=True):
    card: CardId


class CardSpent(Ev, frozen=True, kw_only=True):
    """A used magic card (or fizzled equipment) goes to the graveyard."""

    card: CardId


class GroupLit(Ev, frozen=True, kw_only=True):
    """The characters of one AGI that act next (N-6.5: they "light up red")."""

    agi: int
    cards: tuple[CardId, ...]


class Acted(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    target: CardId


class CannotAct(Ev, frozen=True, kw_only=True):
    card: CardId
    reason: str


class Lost(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    reason: str


class MatchEnded(Ev, frozen=True, kw_only=True):
    termination: str
    winner: SeatNo = 0


Event = Union[
    PhaseBegun, Picked, RevealChosen, SelectDone, Summoned, Equipped, MagicSet, MagicFlipped, MagicResolved,
    MagicFizzled, OrderFixed, StatChanged, Moved, HpChanged, Died, Revived, Stunned, CardSpent, GroupLit, Acted,
    CannotAct, Lost, MatchEnded,
]
