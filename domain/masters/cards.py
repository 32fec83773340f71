"""The card set as data (data/cards.toml): printed text in the seed's notation plus a structured
skill in a small vocabulary that one interpreter (effects.py) runs.

Vocabulary. A piece has ``cost`` (mana, M-Q6), ``atk``, ``hp``, ``mov`` (M-Q2) and keywords:
``quick`` (may move the turn it is summoned, M-4.2), ``ambush`` (【伏兵】, M-Q7), ``armor:N``
(damage it takes is reduced by N, M-8.2), ``fury:N`` (damage it deals when attacking is
increased by N, M-8.2), ``charge`` (when attacking, +1 damage per square between its original
square and the square it attacks from, M-8.3). A skill has ``when`` (``cast`` for a spell,
``activated`` for 【起動】, ``destroyed`` for 【破壊時】), a cost (``mana``, ``tap``), a ``target``
(``none``, ``self``, ``own_piece``, ``enemy_piece``, ``any_piece``) and ``ops``: ``damage``,
``heal``, ``atk`` (until end of turn), ``shield`` (damage taken reduced, until end of turn),
``draw``, ``master_damage`` (the enemy master's life), ``avoid`` (the combat its piece defends
in is avoided, M-8.1) and ``doom`` (the special victory, M-1.2).
"""
from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Literal

import msgspec

if TYPE_CHECKING:   # imported when the catalogue is asked for
    from kifu.domain.core.catalogue import Catalogue

Target = Literal["none", "self", "own_piece", "enemy_piece", "any_piece"]
OpName = Literal["damage", "heal", "atk", "shield", "draw", "master_damage", "avoid", "doom"]


class Op(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    op: OpName
    value: int = 0


class Skill(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    when: Literal["cast", "activated", "destroyed"]
    mana: int = 0
    tap: bool = False
    target: Target = "none"
    ops: tuple[Op, ...] = ()


class CardDef(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    number: str
    name: str
    kind: Literal["piece", "spell"]
    cost: int
    atk: int = 0
    hp: int = 0
    mov: int = 0
    keywords: tuple[str, ...] = ()
    skill: Skill | None = None
    text: str = ""
    invented: tuple[str, ...] = ()

    def keyword(self, word: str) -> int | None:
        """The value of ``word`` (``armor:1`` -> 1; a bare keyword -> 0); None when absent."""
        for k in self.keywords:
            head, _, value = k.partition(":")
            if head == word:
                return int(value) if value else 0
        return None

    def stats(self) -> str:
        return f"ATK{self.atk} HP{self.hp} MOV{self.mov}" if self.kind == "piece" else "spell"


class _CardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    card: tuple[CardDef, ...]


UNKNOWN = CardDef(number="?", name="?", kind="spell", cost=99)


def _source() -> str:
    return resources.files("kifu.domain.masters.data").joinpath("cards.toml").read_text("utf-8")


@cache
def catalog() -> dict[str, CardDef]:
    data = msgspec.convert(tomllib.loads(_source()), _CardFile)
    return {card.name: card for card in data.card}


def card(name: str) -> CardDef:
    return catalog().get(name, UNKNOWN)


@cache
def card_set_digest() -> str:
    return hashlib.blake2b(_source().encode(), digest_size=8).hexdigest()


def catalogue() -> Catalogue:
    from kifu.domain.core.catalogue import CardRow, Catalogue, Column
    from kifu.domain.core.gloss import with_gloss

    columns = (Column(key="number", title="no."), Column(key="name", title="name", kind="name"),
               Column(key="kind", title="kind"), Column(key="cost", title="cost"), Column(key="atk", title="ATK"),
               Column(key="hp", title="HP"), Column(key="mov", title="MOV"),
               Column(key="text", title="text", kind="text"))
    rows = []
    for d in sorted(catalog().values(), key=lambda d: d.number):
        values = {"number": d.number, "kind": d.kind, "cost": str(d.cost)}
        if d.kind == "piece":
            values.update(atk=str(d.atk), hp=str(d.hp), mov=str(d.mov))
        rows.append(CardRow(name=d.name, text=d.text, values=values, invented=d.invented))
    return with_gloss(Catalogue(columns=columns, rows=tuple(rows)), __package__)
