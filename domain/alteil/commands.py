"""The decisions an alteil player takes: one tagged union, strict on unknown fields."""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import CardId, Place


class Cmd(msgspec.Struct, frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True):
    """A seat's decision as submitted: read from clients and files, so unknown fields are refused; tagged by class name.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class Mulligan(Cmd, frozen=True, kw_only=True):
    redraw: bool = False


class PlaceInfluence(Cmd, frozen=True, kw_only=True):
    card: CardId                       # A-4.5 (sealed) and


class NoInfluence(Cmd, frozen=True, kw_only=True):
    """A-4.5: no unit card in hand, so no opening influence."""


class EndInfluence(Cmd, frozen=True, kw_only=True):
    pass


class PlaceUnit(Cmd, frozen=True, kw_only=True):
    card: CardId
    square: Place


class PassSet(Cmd, frozen=True, kw_only=True):
    pass


class UseGrimoire(Cmd, frozen=True, kw_only=True):
    card: CardId                       # A-Q3, A-5.4
    target: CardId = 0
    discard: CardId = 0                # the hand card a "discard 1" cost sends to 戦禍


class Pass(Cmd, frozen=True, kw_only=True):
    """Close this seat's grimoire window."""


class ChooseActor(Cmd, frozen=True, kw_only=True):
    card: CardId                       # tie choice


class Wait(Cmd, frozen=True, kw_only=True):
    card: CardId


class Move(Cmd, frozen=True, kw_only=True):
    card: CardId
    square: Place


class UseSkill(Cmd, frozen=True, kw_only=True):
    card: CardId
    target: CardId = 0


class Attack(Cmd, frozen=True, kw_only=True):
    card: CardId
    target: CardId


class AttackBattlefield(Cmd, frozen=True, kw_only=True):
    card: CardId
    square: Place


class DiscardForSoul(Cmd, frozen=True, kw_only=True):
    card: CardId


class EndDiscards(Cmd, frozen=True, kw_only=True):
    pass


class DiscardToLimit(Cmd, frozen=True, kw_only=True):
    card: CardId                       # hand limit


class Concede(Cmd, frozen=True, kw_only=True):
    pass


Command = Union[
    Mulligan, PlaceInfluence, NoInfluence, EndInfluence, PlaceUnit, PassSet, UseGrimoire, Pass, ChooseActor, Wait,
    Move, UseSkill, Attack, AttackBattlefield, DiscardForSoul, EndDiscards, DiscardToLimit, Concede,
]
