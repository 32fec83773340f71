"""R-8 battle: who attacks, guards, the spell step, effect steps, power against graze, the leader."""
from __future__ import annotations

from kifu.domain.reigeki.legal import legal

from .scenario import Pos, attack, c, e, illegal, kinds, of, one


def test_R_8_1_back_row_attacks_only_with_highrange() -> None:
    p = Pos(phase="attack")
    p.stage(1, 4, "チルノ")
    p.stage(1, 6, "リグル・ナイトバグ")
    m = p.match()
    illegal(m, 1, c.Attack(attacker=4, target=2), "R-8.1")
    out = attack(m, 6, 2)
    assert one(out, e.AttackDeclared).event.attacker_place == 6


def test_R_8_1_any_target_character_or_leader() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")
    p.stage(2, 6, "大妖精")
    m = p.match()
    assert {x.target for x in legal(m.state, 1) if isinstance(x, c.Attack)} == {2, 6}


def test_R_8_2_attack_bursts_a_reloaded_character() -> None:
    p = Pos(phase="attack")
    card = p.stage(1, 1, "チルノ")
    p.hand(2, "毛玉")
    m = p.match()
    out = m.submit(1, c.Attack(attacker=1, target=2))
    assert one(out, e.AttackDeclared).event.attacker == card and m.state.side(1).stage[0].burst
    assert m.state.phase == "guard" and m.awaiting == frozenset((2,))


def test_R_8_3_each_guard_lowers_power_by_two() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "魂魄妖夢")                 # power 5
    g1, g2 = p.hand(2, "毛玉"), p.hand(2, "チルノ")
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    out = m.submit(2, c.Guard(card=g1))
    assert one(out, e.Guarded).event.power == 3 and g1 in m.state.side(2).discard
    out = m.submit(2, c.Guard(card=g2))
    out = list(out) + list(m.submit(2, c.Proceed())) if m.state.phase == "guard" else out
    res = one(out, e.BattleResolved).event
    assert (res.power, res.success, res.leader) == (1, False, True) and not m.state.side(2).damage


def test_R_8_3_guardx_character_bursts_for_x_guards() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "八雲紫")                   # power 5, +2 when attacking
    sakuya = p.stage(2, 4, "十六夜咲夜")        # ガード2, back row
    p.hand(2, "毛玉")
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    out = m.submit(2, c.GuardWith(place=4))
    assert one(out, e.Burst).event.card == sakuya and one(out, e.Guarded).event.guards == 2
    assert m.state.side(2).stage[3].burst
    illegal(m, 2, c.GuardWith(place=4), "R-Q14")
    out = m.submit(2, c.Proceed())
    res = one(out, e.BattleResolved).event
    assert res.power == 3 and not res.success                     # 5 + 2 − 4 = 3, not above 3


def test_R_8_4_spell_step_guard_spell() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "魂魄妖夢")
    spell = p.reiryoku(2, "霊符「夢想封印」")
    p.hand(2, "毛玉")
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    m.submit(2, c.Proceed())
    assert m.state.phase == "spell" and c.Cast(card=spell) in legal(m.state, 2)
    out = m.submit(2, c.Cast(card=spell))
    g = one(out, e.Guarded)
    assert (g.event.source, g.event.guards, g.clause) == ("spell", 1, "R-8.4")
    res = one(out, e.BattleResolved).event
    assert res.power == 3 and not res.success


def test_R_8_5_effect_step_1_attack_and_attacked_triggers() -> None:
    p = Pos(phase="attack")
    rumia = p.stage(1, 1, "ルーミア")          # power 3, +1 when attacking
    meiling = p.stage(2, 1, "紅美鈴")          # graze 4, +2 when attacked
    m = p.match()
    out = attack(m, 1, 1)
    mods = [(env.event.card, env.event.power, env.event.graze, env.clause) for env in of(out, e.Modified)]
    assert mods == [(rumia, 1, 0, "R-8.5"), (meiling, 0, 2, "R-8.5")]
    res = one(out, e.BattleResolved).event
    assert (res.power, res.graze, res.success) == (4, 6, False)


def test_R_8_6_power_at_least_graze_discards_the_defender() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")                   # power 4
    target = p.stage(2, 3, "小悪魔")            # graze 3
    m = p.match()
    out = attack(m, 1, 3)
    res = one(out, e.BattleResolved)
    assert (res.event.power, res.event.graze, res.event.success, res.clause) == (4, 3, True, "R-8.6")
    assert target in m.state.side(2).discard and m.state.side(2).stage[2] is None


def test_R_8_6_power_below_graze_fails() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "毛玉")                     # power 2
    p.stage(2, 3, "小悪魔")                    # graze 3
    m = p.match()
    out = attack(m, 1, 3)
    assert not one(out, e.BattleResolved).event.success and m.state.side(2).stage[2] is not None


def test_R_8_6_leader_hit_sends_the_top_card_to_damage() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")
    top = p.top(2, "毛玉")
    m = p.match()
    out = attack(m, 1, 2)
    assert one(out, e.DamageTaken).event.card == top and one(out, e.DamageTaken).clause == "R-8.6"


def test_R_8_7_effect_step_2_win_and_lose_triggers() -> None:
    p = Pos(phase="attack")
    p.stage(1, 4, "小悪魔")                    # ハイレンジ, draws 1 on a win
    chen = p.stage(2, 1, "橙")                 # graze 2, charges 1 on a loss
    m = p.match()
    out = attack(m, 4, 1)
    assert kinds(out).index("CharacterLeft") < kinds(out).index("Drew") < kinds(out).index("Charged")
    assert one(out, e.Drew).clause == "R-8.7" and one(out, e.Charged).event.seat == 2
    assert chen in m.state.side(2).discard


def test_R_8_8_end_step_returns_to_the_attack_step() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")
    p.stage(1, 3, "妖精メイド")
    m = p.match()
    out = attack(m, 1, 2)
    assert one(out, e.BattleEnded).event.result == "leader hit"
    assert m.state.phase == "attack" and m.state.battle is None and m.awaiting == frozenset((1,))
    attack(m, 3, 2)
    assert m.state.phase == "attack"
