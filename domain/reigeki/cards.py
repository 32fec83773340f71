"""The card set as data (``data/cards.toml``): characters, spells, leaders and 霊撃 (R-3, R-C1..R-C11).

Each card has its printed text in the seed's notation and a structured skill in a small
vocabulary (``Skill``) that one interpreter (``decide.run_skill``) runs. The seed prints no card
list, so every number is invented and each card says which in ``invented``. The set covers a
spread of power and graze around the leader threshold (R-C2), ハイレンジ (R-C3), ガードx on
characters and spells (R-C4), Lv1..Lv3 and LvEx (R-C1), spells Lv1..Lv5 (R-C6), the four battle
triggers (R-C7), a move effect (R-C8), a lasting effect (R-C9), damage effects (R-C10), 霊撃
(R-C5) and a copy-limit exception (R-C11, R-Q16).
"""
from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from importlib import resources
from typing import Literal

import msgspec

from kifu.domain.core.catalogue import CardRow, Catalogue, Column
from kifu.domain.core.clauses import implements
from kifu.domain.core.gloss import with_gloss

LEVEL_EX = 4          # LvEx as a number: above Lv3, placed only by stacking
COPIES_MAX = 3        # at most 3 of a name in the deck
SPELL_COPIES_MAX = 2  # at most 2 of a name in the Ex deck

Kind = Literal["leader", "character", "spell", "reigeki"]
When = Literal["attack", "attacked", "win", "lose", "cast"]
Op = Literal["power", "graze", "draw", "charge", "damage", "destroy", "destroy_all", "buff", "move", "damage_both"]


class Skill(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    when: When
    op: Op
    n: int = 1
    target: Literal["self", "own", "opponent"] = "self"
    max_graze: int = 0
    lasting: bool = False      # R-C9 / R-6.7: 特記 — the effect does not end in the end phase


class Card(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    key: str
    type: Kind
    name: str = ""
    level: int | str = 0
    power: int = 0
    graze: int = 0
    highrange: bool = False
    guard: int = 0
    max_copies: int = 0
    text: str = ""
    invented: tuple[str, ...] = ()
    skill: tuple[Skill, ...] = ()

    @property
    def printed_name(self) -> str:
        return self.name or self.key

    @property
    def lv(self) -> int:
        return LEVEL_EX if self.level == "Ex" else int(self.level)

    @property
    def targeted(self) -> Skill | None:
        """The spell's one skill that needs a chosen target (own or opposing character), if any."""
        for s in self.skill:
            if s.when == "cast" and s.op in ("destroy", "buff", "graze", "move"):
                return s
        return None


class _File(msgspec.Struct, frozen=True):
    card: tuple[Card, ...]


@cache
@implements("R-C1", "R-C2", "R-C3", "R-C4")
def catalog() -> dict[str, Card]:
    text = resources.files("kifu.domain.reigeki.data").joinpath("cards.toml").read_text("utf-8")
    cards = msgspec.convert(tomllib.loads(text), _File).card
    return {c.key: c for c in cards}


REIGEKI = "霊撃"
HIDDEN_CARD = Card(key="", type="character")


@cache
def card_set_digest() -> str:
    raw = resources.files("kifu.domain.reigeki.data").joinpath("cards.toml").read_bytes()
    return "reigeki-" + hashlib.blake2b(raw, digest_size=8).hexdigest()


def _level_text(card: Card) -> str:
    return f"Lv{card.level}" if card.type in ("character", "spell") else ""


@cache
def catalogue() -> Catalogue:
    columns = (Column(key="name", title="name", kind="name"), Column(key="type", title="type"),
               Column(key="level", title="Lv"), Column(key="power", title="P"), Column(key="graze", title="G"),
               Column(key="keywords", title="keywords"), Column(key="text", title="text", kind="text"))
    rows = []
    for card in catalog().values():
        words = []
        if card.highrange:
            words.append("ハイレンジ")
        if card.guard:
            words.append(f"ガード{card.guard}")
        if card.max_copies:
            words.append(f"max {card.max_copies}")
        values = {"type": card.type, "level": _level_text(card), "keywords": " ".join(words)}
        if card.type == "character":
            values.update(power=str(card.power), graze=str(card.graze))
        rows.append(CardRow(name=card.key, text=card.text, values=values, invented=card.invented))
    return with_gloss(Catalogue(columns=columns, rows=tuple(rows)), __package__)
