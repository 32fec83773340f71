"""The decisions an alteil player takes: one tagged union, strict on unknown fields."""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import CardId, Place

_opts = dict(frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True)


class Mulligan(msgspec.Struct, **_opts):  # type: ignore[misc]
    redraw: bool = False


class PlaceInfluence(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId                       # A-4.5 (sealed) and


class NoInfluence(msgspec.Struct, **_opts):  # type: ignore[misc]
    """A-4.5: no unit card in hand, so no opening influence."""


class EndInfluence(msgspec.Struct, **_opts):  # type: ignore[misc]
    pass


class PlaceUnit(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    square: Place


class PassSet(msgspec.Struct, **_opts):  # type: ignore[misc]
    pass


class UseGrimoire(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId                       # A-Q3, A-5.4
    target: CardId = 0
    discard: CardId = 0                # the hand card a "discard 1" cost sends to 戦禍


class Pass(msgspec.Struct, **_opts):  # type: ignore[misc]
    """Close this seat's grimoire window."""


class ChooseActor(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId                       # tie choice


class Wait(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId


class Move(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    square: Place


class UseSkill(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    target: CardId = 0


class Attack(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    target: CardId


class AttackBattlefield(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId
    square: Place


class DiscardForSoul(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId


class EndDiscards(msgspec.Struct, **_opts):  # type: ignore[misc]
    pass


class DiscardToLimit(msgspec.Struct, **_opts):  # type: ignore[misc]
    card: CardId                       # hand limit


class Concede(msgspec.Struct, **_opts):  # type: ignore[misc]
    pass


Command = Union[Mulligan, PlaceInfluence, NoInfluence, EndInfluence, PlaceUnit, PassSet, UseGrimoire, Pass,
                ChooseActor, Wait, Move, UseSkill, Attack, AttackBattlefield, DiscardForSoul, EndDiscards,
                DiscardToLimit, Concede]
