"""A-6 unit actions, A-7 the target of a normal attack (the seed's whole table), A-8 damage and death."""
from __future__ import annotations

import pytest
from alteil_scenario import Position, c, ev, illegal, kinds, of, one

from kifu.domain.alteil.legal import attack_targets


def test_A_6_1_move_to_an_empty_working_own_square() -> None:
    p = Position()
    u = p.unit(1, "火炎の戦士", 1)
    p.unit(1, "水の衛兵", 2)
    m = p.acting(u).match()
    illegal(m, 1, c.Move(card=u, square=2), "A-6.1")
    envs = m.submit(1, c.Move(card=u, square=5))
    assert one(envs, ev.UnitMoved) == ev.UnitMoved(seat=1, card=u, square=5)
    assert m.state.side(1).unit(u).square == 5 and m.state.side(1).unit(u).acted


def test_A_6_2_wait_does_nothing_but_act() -> None:
    p = Position()
    u = p.unit(1, "火炎の戦士", 1)
    m = p.acting(u).match()
    before = m.state.side(1)
    envs = m.submit(1, c.Wait(card=u))
    assert envs[0].event == ev.UnitWaited(seat=1, card=u)
    after = m.state.side(1)
    assert after.unit(u).acted and after.hand == before.hand and after.soul == before.soul


def test_A_6_3_action_skill_pays_its_soul_cost() -> None:
    p = Position()
    mage = p.unit(1, "爆炎の術士", 4)           # ACTION pay 2: 3 damage to an enemy unit
    foe = p.unit(2, "水の衛兵", 1)
    p.soul(1, 1)
    m = p.acting(mage).match()
    assert not [x for x in m.legal(1) if isinstance(x, c.UseSkill)]
    illegal(m, 1, c.UseSkill(card=mage, target=foe), "A-6.3")
    p.soul(1, 1)
    m = p.acting(mage).match()
    envs = m.submit(1, c.UseSkill(card=mage, target=foe))
    assert kinds(envs)[:3] == ["SkillUsed", "SoulPaid", "DamageDealt"]
    assert one(envs, ev.DamageDealt).amount == 3 and not m.state.side(1).soul


def test_A_6_4_normal_attack_needs_opposing_units_and_a_clear_front_row() -> None:
    p = Position()
    back = p.unit(1, "火炎の戦士", 4)
    p.unit(1, "水の衛兵", 1)
    foe = p.unit(2, "水の衛兵", 1)
    m = p.acting(back).match()
    illegal(m, 1, c.Attack(card=back, target=foe), "A-6.4")
    q = Position()
    lone = q.unit(1, "火炎の戦士", 1)
    m = q.acting(lone).match()
    illegal(m, 1, c.Attack(card=lone, target=2001), "A-6.4")


def test_A_6_5_battlefield_attack_hands_the_card_over_and_fires_soul() -> None:
    p = Position(squares=False)
    p.squares(1, "聖なる祈り", "火球", "闇の囁き", "水鏡の破砕", "恵みの雨", "加速の呪文")
    squares = p.squares(2, "深淵の魚人", "水の衛兵", "水の衛兵", "恵みの雨", "恵みの雨", "潮読みの賢者")
    attacker = p.unit(1, "火炎の戦士", 1)
    other = p.unit(1, "闇の斥候", 2)
    m = p.acting(attacker).match()
    envs = m.submit(1, c.AttackBattlefield(card=attacker, square=1))
    assert one(envs, ev.BattlefieldDestroyed) == ev.BattlefieldDestroyed(seat=2, square=1, card=squares[0])
    assert squares[0] in m.state.side(2).hand and m.state.side(2).destroyed[0]
    assert one(envs, ev.SkillFired) == ev.SkillFired(seat=2, card=squares[0], icon="SOUL")
    # 深淵の魚人's SOUL: 2 damage to each of the attacker's units (闇の斥候 HP 2 dies)
    assert {d.card for d in of(envs, ev.DamageDealt)} == {attacker, other}
    assert other in m.state.side(1).cemetery
    assert m.state.side(2).life == 5


def test_A_6_5_no_battlefield_attack_while_the_opponent_has_units() -> None:
    p = Position()
    u = p.unit(1, "火炎の戦士", 1)
    p.unit(2, "水の衛兵", 6)
    m = p.acting(u).match()
    illegal(m, 1, c.AttackBattlefield(card=u, square=1), "A-6.5")


def test_A_7_1_long_range_attacks_any_unit() -> None:
    p = Position()
    archer = p.unit(1, "炎の弓兵", 4)               # back row, own front row occupied
    p.unit(1, "水の衛兵", 1)
    front, back = p.unit(2, "水の衛兵", 2), p.unit(2, "骸骨兵", 5)
    m = p.acting(archer).match()
    assert set(attack_targets(m.state, 1, m.state.side(1).unit(archer))) == {front, back}
    envs = m.submit(1, c.Attack(card=archer, target=back))
    assert one(envs, ev.DamageDealt).card == back


# The seed's table, row by row: (attacker square, own other front unit?, enemy front?, enemy back?) -> targets
TABLE = [
    ("front", False, True, True, "front only"),
    ("front", False, True, False, "any"),
    ("front", False, False, True, "any"),
    ("back", True, True, True, "none"),
    ("back", False, True, True, "front only"),
    ("back", False, True, False, "any"),
    ("back", False, False, True, "any"),
]


@pytest.mark.parametrize("row,ally_front,foe_front,foe_back,expected", TABLE)
def test_A_7_2_the_front_line_table(row: str, ally_front: bool, foe_front: bool, foe_back: bool,
                                    expected: str) -> None:
    p = Position()
    attacker = p.unit(1, "火炎の戦士", 1 if row == "front" else 4)
    if ally_front:
        p.unit(1, "水の衛兵", 2)
    fronts = [p.unit(2, "水の衛兵", 2)] if foe_front else []
    backs = [p.unit(2, "骸骨兵", 5)] if foe_back else []
    m = p.acting(attacker).match()
    targets = set(attack_targets(m.state, 1, m.state.side(1).unit(attacker)))
    want = {"front only": set(fronts), "any": set(fronts + backs), "none": set()}[expected]
    assert targets == want
    if expected == "front only":
        illegal(m, 1, c.Attack(card=attacker, target=backs[0]), "A-7.2")


def test_A_8_1_damage_is_at_minus_df_never_below_zero_and_accumulates() -> None:
    p = Position()
    u = p.unit(1, "光の見習い騎士", 1)             # AT 2
    tough = p.unit(2, "溶岩の巨人", 1, damage=1)     # DF 3, HP 7
    m = p.acting(u).match()
    envs = m.submit(1, c.Attack(card=u, target=tough))
    assert one(envs, ev.DamageDealt) == ev.DamageDealt(seat=2, card=tough, amount=0, total=1)
    q = Position()
    w = q.unit(1, "火炎の戦士", 1)                  # AT 3
    guard = q.unit(2, "水の衛兵", 1, damage=2)       # DF 1, HP 4
    m = q.acting(w).match()
    envs = m.submit(1, c.Attack(card=w, target=guard))
    assert one(envs, ev.DamageDealt) == ev.DamageDealt(seat=2, card=guard, amount=2, total=4)
    assert guard in m.state.side(2).cemetery


def test_A_8_2_death_to_the_cemetery_refunds_printed_lv() -> None:
    p = Position()
    u = p.unit(1, "火炎の戦士", 1)
    archer = p.unit(2, "炎の弓兵", 1)              # LV 2, HP 3
    m = p.acting(u).match()
    top2 = m.state.side(2).deck[:2]
    envs = m.submit(1, c.Attack(card=u, target=archer))
    assert kinds(envs)[:4] == ["Attacked", "DamageDealt", "UnitDied", "SoulGained"]
    assert one(envs, ev.SoulGained) == ev.SoulGained(seat=2, cards=top2, wanted=2)
    assert m.state.side(2).cemetery == (archer,) and m.state.side(2).soul == top2
