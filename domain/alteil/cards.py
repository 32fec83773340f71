"""The sample card set as data (data/cards.toml): A-2 cards — A-2.3 units, A-2.4 named units,
A-2.5 grimoires, each of one of the four gods of A-2.2.

What the set exercises (digest 4(d)): A-C1 four gods, LV 1-4, AGI 5 / ties / 0 / -1; A-C2 three
named units; A-C3 two ロングレンジ units; A-C4 START (unit and grimoire), NEXT, ACTION with a soul
cost, SOUL; A-C5 grimoires with LV requirements and "pay 2 soul" / "discard 1" costs; A-C6 an
influence discard and a soul reduction. The rules themselves exercise A-C7 (move, wait, a
battlefield attack firing SOUL), A-C8 (death, refund, 7 deaths), A-C9 (end-phase discards, the
limit) and A-C10 (deck cycling through payments, deck-out).

Cards carry their printed text in the seed's notation and one structured skill that
``skills.py`` runs; the catalogue flattens them for ``kifu cards``.
"""
from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from importlib import resources

import msgspec

from kifu.domain.core.catalogue import CardRow, Catalogue, Column
from kifu.domain.core.clauses import implements
from kifu.domain.core.gloss import with_gloss


class Skill(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    icon: str = ""          # START | NEXT | ACTION | SOUL | "" (A-2.3, A-Q2)
    cost: int = 0           # soul power paid to use it (ACTION skills, A-10.2)
    effect: str
    amount: int = 0
    stat: str = ""
    target: str = "none"


@implements("A-2.3")
class CardData(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    number: int
    name: str
    kind: str               # "unit" | "grimoire"
    god: str
    lv: int
    df: int = 0
    at: int = 0
    hp: int = 0
    agi: int = 0
    longrange: bool = False  # ロングレンジ
    start: bool = False      # a START grimoire
    cost_soul: int = 0       # grimoire costs, as its text states
    cost_discard: int = 0
    text: str = ""
    skill: Skill | None = None
    invented: tuple[str, ...] = ()

    @property
    def unit(self) -> bool:
        return self.kind == "unit"

    @property
    @implements("A-2.4")
    def named(self) -> bool:
        """A-2.4: a named unit has its name in 『』."""
        return self.name.startswith("『")


class _CardFile(msgspec.Struct, frozen=True):
    card: tuple[CardData, ...]


def _raw() -> bytes:
    return resources.files("kifu.domain.alteil.data").joinpath("cards.toml").read_bytes()


@cache
@implements("A-C1", "A-C2", "A-C3", "A-C4", "A-C5", "A-C6")
def catalog() -> dict[str, CardData]:
    cards = msgspec.convert(tomllib.loads(_raw().decode("utf-8")), _CardFile).card
    return {c.name: c for c in cards}


@cache
def by_number() -> dict[int, CardData]:
    return {c.number: c for c in catalog().values()}


def card_set_digest() -> str:
    return hashlib.blake2b(_raw(), digest_size=8).hexdigest()


COLUMNS = (Column(key="no", title="No"), Column(key="name", title="name", kind="name"),
           Column(key="kind", title="kind"), Column(key="god", title="god"), Column(key="LV", title="LV"),
           Column(key="DF", title="DF"), Column(key="AT", title="AT"), Column(key="HP", title="HP"),
           Column(key="AGI", title="AGI"), Column(key="cost", title="cost"),
           Column(key="text", title="text", kind="text"))


@cache
def catalogue() -> Catalogue:
    rows = []
    for c in sorted(catalog().values(), key=lambda c: c.number):
        values = {"no": str(c.number), "kind": "named" if c.named else c.kind, "god": c.god, "LV": str(c.lv)}
        if c.unit:
            values.update(DF=str(c.df), AT=str(c.at), HP=str(c.hp), AGI=str(c.agi))
            if c.skill is not None and c.skill.cost:
                values["cost"] = f"{c.skill.cost} soul"
        else:
            values["cost"] = " + ".join(x for x in (f"{c.cost_soul} soul" if c.cost_soul else "",
                                                    f"discard {c.cost_discard}" if c.cost_discard else "") if x) or "0"
        rows.append(CardRow(name=c.name, text=c.text, values=values, invented=c.invented))
    return with_gloss(Catalogue(columns=COLUMNS, rows=tuple(rows)), __package__)
