"""Card definitions as data (W-2): loaded from TOML, validated by msgspec with errors naming card and field.

Types UT/MS/SS/LS (W-2.1); name, elements, families, LV, text and the unit parameters (W-2.2,
W-2.3). A family written "呪法:呪術" is two families (W-Q14), so `families` is a list."""
from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from importlib import resources
from typing import Any

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Malformed
from kifu.domain.core.memo import ByIdentity

from .skills import Skill
from .vocabulary import WIDE, CardType, Element, card_index, owner_of


@implements("W-2.1", "W-2.2", "W-2.3", "W-Q14", "W-Q20")
class CardDef(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One card as printed. ``invented`` lists the fields we made up (W-Q20): the seed gives few."""

    number: str
    name: str
    type: CardType
    elements: tuple[Element, ...]
    lv: int
    families: tuple[str, ...] = ()
    STR: int = msgspec.field(default=0, name="str")
    VIT: int = msgspec.field(default=0, name="vit")
    AGI: int = msgspec.field(default=0, name="agi")
    DEF: int = msgspec.field(default=0, name="def")
    text: str = ""
    invented: tuple[str, ...] = ()
    skill: tuple[Skill, ...] = ()

    @property
    def is_unit(self) -> bool:
        return self.type == "UT"

    @property
    def is_spell(self) -> bool:
        return self.type != "UT"

    def keywords(self) -> tuple[str, ...]:
        """Printed keyword skills (『強襲:1』, 『防衛』, …) of a unit on the stage."""
        return tuple(s.keyword for s in self.skill if s.keyword and s.zone == "stage")


class CardSet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    card: tuple[CardDef, ...]


@implements("W-2.3")
def parse_card_set(text: str, source: str) -> CardSet:
    """Parse a card-set TOML; a bad card is reported by its index and name, with the field."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Malformed(f"not valid TOML ({exc})", source) from None
    for index, card in enumerate(raw.get("card", [])):
        try:
            msgspec.convert(card, CardDef)
        except msgspec.ValidationError as exc:
            label = card.get("name", "?") if isinstance(card, dict) else "?"
            raise Malformed(f"card #{index + 1} ({label}): {exc}", source) from None
    try:
        cards = msgspec.convert(raw, CardSet)
    except msgspec.ValidationError as exc:
        raise Malformed(str(exc), source) from None
    seen: set[str] = set()
    for card in cards.card:
        if card.name in seen:
            raise Malformed(f"card name {card.name!r} appears twice", source)
        seen.add(card.name)
        if card.lv < 0 or card.VIT < 0 or card.AGI < 0 or card.STR < 0:
            raise Malformed(f"card {card.name!r}: LV, STR, VIT and AGI are never below 0 (W-2.3)", source)
    return cards


_SET_FILES = ("starter.toml", "sample.toml")


@cache
def catalog() -> dict[str, CardDef]:
    """Every card Kifu knows for WORLFARD, by name."""
    out: dict[str, CardDef] = {}
    for set_file in _SET_FILES:
        text = resources.files("kifu.domain.worlfard.data").joinpath(set_file).read_text("utf-8")
        for card in parse_card_set(text, set_file).card:
            out[card.name] = card
    return out


@cache
def card_set_digest() -> str:
    """Digest of the card data: a record made with other card texts is flagged on audit."""
    h = hashlib.blake2b(digest_size=8)
    for name in sorted(catalog()):
        h.update(msgspec.json.encode(catalog()[name]))
    return h.hexdigest()


def card(name: str) -> CardDef:
    return catalog()[name]


def as_dict(card: CardDef) -> dict[str, Any]:
    fields: dict[str, Any] = msgspec.to_builtins(card)
    return fields


def _definitions_of(names: Any) -> tuple[tuple[CardDef, ...], ...]:
    known = catalog()
    return tuple(tuple(known[n] for n in seat_names) for seat_names in names)


# a match's printed cards by seat and index, worked out once per match from ``state.names`` (one
# tuple every state of the match shares); the match asked last answers without a call
_definitions = ByIdentity("worlfard.definitions", _definitions_of, bound=64)


def definition(state: Any, card: int) -> CardDef:
    """The printed card behind a card id in a match: ``state.names`` is one tuple shared by
    every state of the match, so its definitions are looked up once per match (by identity;
    the match played last is answered without a dictionary lookup)."""
    names, last = state.names, _definitions.last
    if card >= WIDE:
        return _definitions(names)[owner_of(card) - 1][card_index(card)]
    if names is last[0]:
        return last[1][card // 1000 - 1][card % 1000]
    return _definitions(names)[card // 1000 - 1][card % 1000]


@cache
def static_vit_reducers() -> bool:
    """Whether any card can lower VIT by a lasting skill (lets the settle loop skip healthy units)."""
    return any(op.stat == "VIT" and (op.op == "set" or op.value < 0)
               for d in catalog().values() for sk in d.skill if sk.static for op in sk.ops)
