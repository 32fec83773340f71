"""Field roles: what an event's or command's field *is* (a card, a seat, a place, an amount).

A ruleset types its event fields with these aliases instead of bare ``int``; the core reads the
roles back from the types (``roles_of``) so that rendering, ``why``, ``diff`` and redaction can
treat every event kind alike without knowing any game's field names. The aliases are plain
``int``/``str`` on the wire: declaring a role changes no record.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Annotated, Any, Literal

import msgspec

Role = Literal["card", "target", "option", "seat", "place", "amount", "seq"]

CardId = Annotated[int, msgspec.Meta(extra={"role": "card"})]
"""A card instance id (0 = a hidden card)."""
TargetRef = Annotated[int, msgspec.Meta(extra={"role": "target"})]
"""A chosen target or an offered option: a card id, a card packed with a place
(card * ``PACK`` + place, when choosing a card also chooses where it goes), a seat, or a seat
packed with a place (a tower). It may name a card either way: ``target_cards`` reads both, and
the core redacts it by that declaration."""
OptionRef = Annotated[int, msgspec.Meta(extra={"role": "option"})]
"""One option of a pending choice, read as a ``TargetRef``. A seat that may not see an option's
card is not told the option exists: the core drops it from that seat's copy instead of showing
a hidden card, so the list's length cannot count the hidden cards that qualify (a hand's
summonable units); the seat learns that the other is choosing and the options it may see."""
PACK = 10
SeatNo = Annotated[int, msgspec.Meta(extra={"role": "seat"})]
"""A seat, 1 or 2."""
Place = Annotated[int, msgspec.Meta(extra={"role": "place"})]
"""A position on the board (a line, a cell index, a slot); the ruleset's layout names it."""
PlaceName = Annotated[str, msgspec.Meta(extra={"role": "place"})]
"""A position given by name (``"front-2"``, ``"b3"``)."""
Amount = Annotated[int, msgspec.Meta(extra={"role": "amount"})]
"""A quantity a ruling produced or used: damage, life, cost, power."""

SeqRef = Annotated[int, msgspec.Meta(extra={"role": "seq"})]
"""The seq of another event of the same record (a declaration a later ruling traces back to)."""

HIDDEN = 0
"""The card id a seat sees in place of a card it may not see."""


def target_cards(value: int) -> tuple[int, int]:
    """The cards a ``TargetRef`` may name: the int itself, or the card packed with a place."""
    return value, value // PACK


class FieldRole(msgspec.Struct, frozen=True):
    """One field of one struct: its role and whether it holds many (a tuple of cards)."""

    name: str
    role: Role
    many: bool = False
    key: str = ""            # the name on the wire, where it differs (``STR`` is written "str")


def _role_of(t: Any) -> tuple[Role | None, bool]:
    if isinstance(t, msgspec.inspect.Metadata):
        role = (t.extra or {}).get("role")
        return (role, False) if role is not None else _role_of(t.type)
    if isinstance(t, (msgspec.inspect.TupleType, msgspec.inspect.VarTupleType, msgspec.inspect.ListType,
                      msgspec.inspect.FrozenSetType, msgspec.inspect.SetType)):
        items = getattr(t, "item_type", None)
        if items is None:
            kinds = {_role_of(i)[0] for i in getattr(t, "item_types", ())}
            return (kinds.pop() if len(kinds) == 1 else None), True
        return _role_of(items)[0], True
    if isinstance(t, msgspec.inspect.UnionType):
        for member in t.types:
            role, many = _role_of(member)
            if role is not None:
                return role, many
    return None, False


def _roles_of(struct_type: type) -> tuple[FieldRole, ...]:
    """The role-bearing fields of one msgspec Struct type, in declaration order."""
    info = msgspec.inspect.type_info(struct_type)
    if not isinstance(info, msgspec.inspect.StructType):
        return ()
    out = []
    for f in info.fields:
        role, many = _role_of(f.type)
        if role is not None:
            out.append(FieldRole(f.name, role, many, f.encode_name))
    return tuple(out)


# (cached; typed as the plain function it caches: mypy takes a class for unhashable at the cache's call)
roles_of: Callable[[type], tuple[FieldRole, ...]] = cache(_roles_of)


def fields_with(struct_type: type, role: Role) -> tuple[str, ...]:
    """Names of the fields of ``struct_type`` that hold ``role`` (one or many)."""
    return tuple(f.name for f in roles_of(struct_type) if f.role == role)


def cards_named(obj: Any) -> list[int]:
    """Every card id an event or command names through its card-role fields (hidden ones too)."""
    out: list[int] = []
    for f in roles_of(type(obj)):
        if f.role != "card":
            continue
        value = getattr(obj, f.name, None)
        if value is None:
            continue
        if f.many:
            out.extend(v for v in value if isinstance(v, int))
        elif isinstance(value, int):
            out.append(value)
    return out
