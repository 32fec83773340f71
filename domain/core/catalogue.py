"""A ruleset's card catalogue as rows with named columns: what ``kifu cards`` and the viewers show.

Every ruleset's cards differ (units with STR/VIT/AGI, characters with ATK/DEF and elements,
pieces with move and cost); the catalogue flattens them into strings under columns the ruleset
names, so listing, filtering and card text on request work the same for every game.
"""
from __future__ import annotations

from typing import Literal

import msgspec


class Column(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """``key`` is what filters name (``--where type=UT``); ``kind`` tells a renderer how to fit it."""

    key: str
    title: str
    kind: Literal["short", "name", "text"] = "short"


class CardRow(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One card: ``name`` and ``text`` (in the seed's notation) always; the rest by column key."""

    name: str
    text: str = ""
    values: dict[str, str] = {}
    invented: tuple[str, ...] = ()       # which of its numbers the seed does not print
    name_en: str = ""                    # an English rendering of the name (``gloss.toml``)
    gloss: str = ""                      # an English gloss of ``text``: the seed's wording stays the card

    def get(self, key: str) -> str:
        if key == "name":
            return self.name
        if key == "text":
            return self.text
        if key == "invented":
            return ", ".join(self.invented)
        if key == "name_en":
            return self.name_en
        if key == "gloss":
            return self.gloss
        return self.values.get(key, "")


class Catalogue(msgspec.Struct, frozen=True, kw_only=True):
    """Columns in display order (``name`` and ``text`` among them) and one row per card."""

    columns: tuple[Column, ...]
    rows: tuple[CardRow, ...]

    def card(self, name: str) -> CardRow | None:
        for row in self.rows:
            if row.name == name:
                return row
        return None

    def in_english(self) -> Catalogue:
        """The same rows with the English name after ``name`` and the gloss after ``text``."""
        columns: list[Column] = []
        for column in self.columns:
            columns.append(column)
            if column.key == "name":
                columns.append(Column(key="name_en", title="English name", kind="name"))
            elif column.key == "text":
                columns.append(Column(key="gloss", title="English gloss", kind="text"))
        return msgspec.structs.replace(self, columns=tuple(columns))

    def keys(self) -> list[str]:
        return [c.key for c in self.columns]
