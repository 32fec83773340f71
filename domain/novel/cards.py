"""The card set as data (``data/cards.toml``) and the small vocabulary its skills are written in.

N-1 the card kinds; N-8 elements. What the sample set exercises (tests/novel/test_coverage.py):
N-C1 a character of every element (無 旅の剣士, 火 火の衛兵, 水 水の槍兵, 雷 雷の射手, 土 土の巨人,
風 風の斥候, 氷 氷の術士/氷の女王フユ: 氷 → 火 wraps the cycle); N-C2 odd ATK for ×0.5 truncation
(雷の射手 25, 風の斥候 21, 氷の女王フユ 41), range 1/2/3 back-row characters; N-C3 配置転換 and
row collapse; N-C4 不死鳥の羽 (kept in the graveyard); N-C5 閃光/再誕の祈り (1), 鼓舞/配置転換 (2),
倍化/脆弱化/堅守 (3), 火球/癒しの光 (4), 両断/活性 (5); N-C6 any magic set face down; N-C7 AGI 5 on
水の槍兵, 焔の姫ホムラ, 氷の術士, 氷の女王フユ; N-C8 end-phase skills of 焔の姫ホムラ and
潮の賢者シズク, 再誕の祈り reading kept stats; N-C9 the four presets (3 named, 6 normal, cost 200);
N-C10 the turn rules (decide.py).

N-1.1 (three card kinds) and N-1.2 (=ネームド= or normal; rarity has no rules effect) are the
shape of ``CardDef``; ``ELEMENTS`` and ``BEATS`` are N-8.1/N-8.2.
"""
from __future__ import annotations

import hashlib
import tomllib
from functools import cache
from importlib import resources
from typing import Literal

import msgspec

from kifu.domain.core.catalogue import CardRow, Catalogue, Column
from kifu.domain.core.clauses import declare, implements
from kifu.domain.core.gloss import with_gloss

Kind = Literal["character", "equipment", "magic"]
Element = Literal["無", "火", "水", "雷", "土", "風", "氷"]

# N-8.1 the seven elements; N-8.2 火<水<雷<土<風<氷<火 ("the right side beats the left"):
ELEMENTS: tuple[str, ...] = ("無", "火", "水", "雷", "土", "風", "氷")
CYCLE: tuple[str, ...] = ("火", "水", "雷", "土", "風", "氷")
BEATS: dict[str, str] = {CYCLE[(i + 1) % len(CYCLE)]: CYCLE[i] for i in range(len(CYCLE))}
"""attacker element -> the element it is strong against (水 -> 火, …, 火 -> 氷: the wrap-around)."""
declare("N-8.1", data=ELEMENTS)
declare("N-8.2", data=BEATS)

STATS: tuple[str, ...] = ("max_hp", "atk", "def", "agi", "rng")


class Bonus(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    max_hp: int = 0
    atk: int = 0
    # ``def`` is a Python keyword: the TOML key is "def"
    def_: int = msgspec.field(default=0, name="def")
    agi: int = 0
    rng: int = 0

    def get(self, stat: str) -> int:
        return int(getattr(self, "def_" if stat == "def" else stat))


@implements("N-1.1", "N-1.2")
class CardDef(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    name: str
    kind: Kind
    cost: int
    text: str
    rarity: int = 1
    named: bool = False
    invented: tuple[str, ...] = ()
    # characters
    element: str = "無"
    pos: str = "前衛"
    hp: int = 0
    atk: int = 0
    def_: int = msgspec.field(default=0, name="def")
    agi: int = 0
    rng: int = 0
    action: Literal["attack", "attack_row", "heal", ""] = ""
    amount: int = 0
    end: Literal["end_damage_front", "end_heal_all", ""] = ""
    end_amount: int = 0
    # equipment
    bonus: Bonus = Bonus()
    # magic
    effect: Literal["revive", "stun", "add", "move", "mul", "damage", "heal", "hp_mul", ""] = ""
    category: int = 0
    target: Literal["enemy", "ally", "ally_dead", "allies", "none", ""] = ""
    stat: str = ""
    num: int = 1
    den: int = 1

    @property
    def row(self) -> str:
        """The printed 配置 as a row name: 前衛 -> "front", 後衛 -> "back"."""
        return "front" if self.pos == "前衛" else "back"


class _CardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    card: tuple[CardDef, ...]


def _raw() -> bytes:
    return resources.files("kifu.domain.novel.data").joinpath("cards.toml").read_bytes()


@cache
@implements("N-C1", "N-C2", "N-C3", "N-C4", "N-C5", "N-C6", "N-C7", "N-C8")
def catalog() -> dict[str, CardDef]:
    data = tomllib.loads(_raw().decode("utf-8"))
    cards = msgspec.convert(data, _CardFile).card
    return {c.name: c for c in cards}


HIDDEN_CARD = CardDef(name="", kind="magic", cost=0, text="(hidden)", target="none")
"""What a masked state holds in place of a card its seat may not know (``view.mask``)."""


def card(name: str) -> CardDef:
    return HIDDEN_CARD if not name else catalog()[name]


@cache
def card_set_digest() -> str:
    return hashlib.blake2b(_raw(), digest_size=16).hexdigest()


KIND_JA = {"character": "キャラクター", "equipment": "装備", "magic": "魔法"}


def catalogue() -> Catalogue:
    columns = (Column(key="name", title="name", kind="name"), Column(key="kind", title="kind"),
               Column(key="cost", title="cost"), Column(key="stats", title="stats"),
               Column(key="text", title="text", kind="text"))
    rows = []
    for c in catalog().values():
        kind = ("=ネームド= " if c.named else "") + KIND_JA[c.kind]
        values = {"kind": kind, "cost": str(c.cost), "rarity": "★" * c.rarity, "named": "yes" if c.named else "",
                  "element": c.element if c.kind == "character" else "", "category": str(c.category or "")}
        if c.kind == "character":
            values["stats"] = f"{c.element} {c.pos} HP{c.hp} ATK{c.atk} DEF{c.def_} AGI{c.agi} 射程{c.rng}"
        elif c.kind == "magic":
            values["stats"] = f"category {c.category}"
        rows.append(CardRow(name=c.name, text=c.text, values=values, invented=c.invented))
    return with_gloss(Catalogue(columns=columns, rows=tuple(rows)), __package__)
