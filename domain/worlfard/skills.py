"""The skill vocabulary: what a card's text means, as data the engine interprets (W-2, W-2.4, W-2.5).

A card's ``text`` keeps the seed's notation ([STR+2], 【ユニット1体】, {コスト:〔2〕}, <タワー:HT=3~>,
『強襲:1』); its ``skill`` entries say the same thing in this small vocabulary: a mark (・ ! ○),
where the skill works, when it fires, its conditions, costs, targets and effects. No card has a
Python class of its own.
"""
from __future__ import annotations

from typing import Literal

import msgspec

from kifu.domain.core.clauses import implements

from .vocabulary import StatusName

Mark = Literal["・", "!", "○"]              # normal, activated, spell skill (W-2.5)
Zone = Literal["stage", "tower", "heart", "table"]
Trigger = Literal[
    "summon",            # 召喚時
    "attack",            # 攻撃時 (after the attack declaration, W-12.1)
    "defend",            # 防御時 (after the defense declaration, W-12.4)
    "after_combat",      # 戦闘後 (end processing, W-12.8)
    "after_combat_survived",  # 戦闘終了後: only if this unit survived (W-12.8)
    "start_phase",       # 自分のスタートフェイズ時
    "destroyed",         # 破壊された時
]
TargetKind = Literal["unit", "tower", "player", "soul", "grave", "hand_unit", "hand_spell", "soul_unit", "spot"]
Side = Literal["any", "own", "enemy"]
Stat = Literal["STR", "VIT", "AGI", "DEF", "HT"]
Duration = Literal["stage", "turn", "combat", "next_turn"]
Who = Literal[
    "target", "self", "keeper", "front_unit", "front_tower", "controller", "opponent",
    "combat_opponent", "own_units", "enemy_units",
]
OpKind = Literal[
    "add",          # [STAT±n] を与える/受ける (W-14.3 second layer)
    "set",          # [基礎STAT=n] になる / にし続ける (W-14.3 first layer)
    "grant",        # 『skill』を与える (W-2.7: no duplicates)
    "negate",       # 『skill』を無効にする (W-14.6); skill "*" negates all
    "damage",       # n damage (reduced by DEF, or by hearts for a player)
    "wave",         # n wave damage: ignores DEF and hearts (W-14.5)
    "destroy",      # 破壊する (W-8.3)
    "status",       # [CON=…]を与える (W-9)
    "cure",         # 状態変化を取り除く
    "draw",         # カードをn枚引く (W-Q12: an empty deck draws nothing)
    "mill",         # デッキの上からn枚を墓地に送る
    "life",         # ライフをn回復する (may exceed 12, W-4.5)
    "seal",         # 封印する
    "to_hand",      # 手札に戻す (owner's hand, W-3.5)
    "summon_free",  # 即時召喚 (W-8.5): no cost, no sleep
    "cast_free",    # 即時詠唱 (W-10.5): no cost but extra costs
    "regenerate",   # 再生: remove all damage, then break (W-8.5)
    "move",         # 隣接する空いているスポットに移動させる
    "control",      # コントロールを得る (W-3.5)
    "win",          # special victory (W-1.1)
    "no_combat_damage",  # 戦闘によるダメージを受けない (a prohibition, W-1.2)
]


class Target(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """【…】: what must be chosen; if nothing can be, the skill cannot be used (W-10.4)."""

    kind: TargetKind = "unit"
    side: Side = "any"
    count: int = 1
    family: str | None = None       # [F=…]を持つ (W-14.4)
    element: str | None = None
    max_lv: int | None = None
    other: bool = False             # not the source itself


class Condition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """<…> and {…}: when the skill is enabled or usable."""

    ht_min: int | None = None       # <タワー:HT=a~b>, read on the modified HT (W-Q13)
    ht_max: int | None = None
    keeper: bool = False            # a keeper stands on the tower's line
    element_lines: str | None = None    # this line and both neighbouring lines have that element
    souls_at_least: int | None = None   # the controller has at least n souls
    opponent_has: str | None = None     # the combat opponent has this skill ("強襲*" matches any 強襲)


class Op(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    op: OpKind
    who: Who = "target"
    stat: Stat | None = None
    value: int = 0
    x: Literal["souls", "hand", "family_units"] | None = None   # the value X (W-2.6)
    skill: str | None = None
    status: StatusName | None = None   # the status a "status" op gives
    duration: Duration = "stage"
    family: str | None = None       # own_units/enemy_units filter
    max_lv: int | None = None
    by: Literal["spell", "skill"] | None = None   # no_destroy_by: "スペルによって破壊されない"


class Skill(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    mark: Mark = "・"
    zone: Zone = "stage"
    when: Trigger | None = None     # None: static (keeps giving) for ・, or on use for ! and ○
    keyword: str | None = None      # a keyword skill the card has: 強襲:1, 防衛, 神速, スペル破壊無効
    condition: Condition | None = None
    cost: int = 0                   # {コスト:〔n〕}: an extra cost
    cost_break: bool = False        # {コスト:ブレイク}
    target: Target | None = None
    optional: bool = False          # できる
    ops: tuple[Op, ...] = ()

    @property
    def static(self) -> bool:
        return self.mark == "・" and self.when is None and bool(self.ops)


@implements("W-2.6")
def keyword_matches(have: str, pattern: str) -> bool:
    """W-2.6: ``強襲*`` matches 強襲:1, 強襲:2, …; otherwise skills match exactly."""
    if pattern.endswith("*"):
        return have.startswith(pattern[:-1])
    return have == pattern


@implements("W-2.7", "W-Q4")
def assault_bonus(keywords: frozenset[str] | set[str] | tuple[str, ...]) -> int:
    """W-Q4 強襲:N: +N STR when attacking; distinct parameters all apply (W-2.7: 1 + 2 = 3)."""
    total = 0
    for k in keywords:
        if k.startswith("強襲:"):
            try:
                total += int(k.split(":", 1)[1])
            except ValueError:
                continue
    return total
