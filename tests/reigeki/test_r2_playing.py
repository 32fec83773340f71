"""R-3 card types (leader, character, spell, 霊撃) and R-7 playing cards, with the seed's worked examples."""
from __future__ import annotations

from kifu.domain.reigeki.legal import legal

from .scenario import Pos, attack, c, e, illegal, of, one

LV1 = ("符の壱「投擲」",)


def _spells(p: Pos, seat: int, *keys: str) -> list[int]:
    return [p.reiryoku(seat, k) for k in keys]


# -- R-3 -----------------------------------------------------------------------------------------
def test_R_3_1_leader_never_attacks_and_takes_no_card_effects() -> None:
    p = Pos(phase="attack")
    m = p.match()
    illegal(m, 1, c.Attack(attacker=2, target=2), "R-3.1")
    p = Pos()
    spell = p.reiryoku(1, "幻符「殺人ドール」")
    pay = p.reiryoku(1, "符の壱「投擲」")
    m = p.match()
    illegal(m, 1, c.Cast(card=spell, pay=(pay,), target_seat=2, target=2), "R-3.1")


def test_R_3_2_attacking_bursts_and_start_reloads() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")
    m = p.match()
    attack(m, 1, 2)
    assert m.state.side(1).stage[0].burst
    illegal(m, 1, c.Attack(attacker=1, target=2), "R-8.2")


def test_R_3_2_characters_have_no_play_limit() -> None:
    p = Pos()
    cards = [p.hand(1, k) for k in ("チルノ", "妖精メイド", "大妖精")]
    m = p.match()
    for card, place in zip(cards, (1, 3, 5), strict=True):
        m.submit(1, c.Play(card=card, place=place))
    assert sum(1 for u in m.state.side(1).stage if u is not None) == 4


def test_R_3_3_one_spell_per_turn() -> None:
    p = Pos()
    a, b = _spells(p, 1, "符の壱「投擲」", "霊符「夢想封印」")
    m = p.match()
    m.submit(1, c.Cast(card=a))
    illegal(m, 1, c.Cast(card=b), "R-3.3")
    assert not any(isinstance(x, c.Cast) for x in legal(m.state, 1))


def test_R_3_4_reigeki_in_reiryoku_pays_one_and_goes_to_the_ex_discard() -> None:
    p = Pos()
    spell = p.reiryoku(1, "幻符「殺人ドール」")
    reigeki = p.reiryoku(1, "霊撃")
    target = p.stage(2, 1, "チルノ")
    m = p.match()
    out = m.submit(1, c.Cast(card=spell, pay=(reigeki,), target_seat=2, target=1))
    assert one(out, e.CharacterLeft).event.card == target
    assert set(m.state.side(1).exdiscard) == {spell, reigeki} and not m.state.side(1).reiryoku


# -- R-7 -----------------------------------------------------------------------------------------
def test_R_7_1_level_needs_that_many_adjacent_own_cards() -> None:
    p = Pos()
    lv1 = p.hand(1, "チルノ")
    lv2 = p.hand(1, "紅美鈴")
    lv3 = p.hand(1, "八雲紫")
    m = p.match()
    # the leader on 2 only: areas 1, 3 and 5 see one card, areas 4 and 6 none
    illegal(m, 1, c.Play(card=lv1, place=4), "R-7.1")
    illegal(m, 1, c.Play(card=lv2, place=1), "R-7.1")
    illegal(m, 1, c.Play(card=lv3, place=5), "R-7.1")
    illegal(m, 1, c.Play(card=lv1, place=2), "R-7.1")          # not an empty area
    assert {x.place for x in legal(m.state, 1) if isinstance(x, c.Play)} == {1, 3, 5}
    m.submit(1, c.Play(card=lv1, place=1))
    assert m.state.side(1).stage[0].card == lv1


def test_R_7_1_lv2_and_lv3_by_count() -> None:
    p = Pos()
    p.stage(1, 1, "チルノ")
    p.stage(1, 3, "妖精メイド")
    lv1 = p.hand(1, "大妖精")
    lv1b = p.hand(1, "ルーミア")
    lv2 = p.hand(1, "紅美鈴")
    lv3 = p.hand(1, "八雲紫")
    m = p.match()
    illegal(m, 1, c.Play(card=lv2, place=5), "R-7.1")           # 5 sees the leader only
    m.submit(1, c.Play(card=lv1, place=4))                       # 5 now sees 2 and 4
    illegal(m, 1, c.Play(card=lv3, place=5), "R-7.1")
    m.submit(1, c.Play(card=lv1b, place=6))                      # 5 now sees 2, 4 and 6
    m.submit(1, c.Play(card=lv3, place=5))
    assert m.state.side(1).stage[4].card == lv3


def test_R_7_2_lvex_on_a_same_named_lv3_not_played_this_turn() -> None:
    p = Pos()
    old = p.stage(1, 5, "霧雨魔理沙", entered=2)
    ex = p.hand(1, "霧雨魔理沙・Ex")
    sakuya_ex = p.hand(1, "十六夜咲夜・Ex")
    p.stage(1, 1, "チルノ")
    p.stage(1, 3, "妖精メイド")
    m = p.match()
    illegal(m, 1, c.Play(card=ex, place=4), "R-7.2")            # never into an empty area
    illegal(m, 1, c.Play(card=sakuya_ex, place=5), "R-7.2")     # another name
    out = m.submit(1, c.Play(card=ex, place=5))
    assert one(out, e.Played).event.on == old and one(out, e.Played).clause == "R-7.2"
    unit = m.state.side(1).stage[4]
    assert unit.card == ex and unit.under == old


def test_R_7_2_lvex_refused_on_a_lv3_played_this_turn() -> None:
    p = Pos()
    p.stage(1, 1, "チルノ")
    p.stage(1, 3, "妖精メイド")
    lv3 = p.hand(1, "霧雨魔理沙")
    ex = p.hand(1, "霧雨魔理沙・Ex")
    p.stage(1, 4, "大妖精")
    p.stage(1, 6, "ルーミア")
    m = p.match()
    m.submit(1, c.Play(card=lv3, place=5))
    illegal(m, 1, c.Play(card=ex, place=5), "R-7.2")


def test_R_7_2_lvex_leaving_leaves_the_lv3() -> None:
    p = Pos(active=2)
    ex = p.stage(1, 5, "霧雨魔理沙・Ex", under="霧雨魔理沙")
    lv3 = p.state.side(1).stage[4].under
    spell = p.reiryoku(2, "恋符「マスタースパーク」")
    pay = [p.reiryoku(2, k) for k in ("霊符「夢想封印」", "結界「光と闇の網目」")]
    m = p.match()
    out = m.submit(2, c.Cast(card=spell, pay=tuple(pay), target_seat=1, target=5))
    assert one(out, e.CharacterLeft).event.stays == lv3
    assert m.state.side(1).stage[4].card == lv3 and ex in m.state.side(1).discard


def test_R_7_3_example_1_lv3_is_the_spell_and_two_others() -> None:
    p = Pos()
    spell = p.reiryoku(1, "紅魔「スカーレットデビル」")
    others = _spells(p, 1, "符の壱「投擲」", "霊符「夢想封印」", "結界「光と闇の網目」")
    p.stage(1, 1, "チルノ")
    m = p.match()
    illegal(m, 1, c.Cast(card=spell, pay=tuple(others[:1]), target_seat=1, target=1), "R-7.3")
    illegal(m, 1, c.Cast(card=spell, pay=tuple(others), target_seat=1, target=1), "R-7.3")
    out = m.submit(1, c.Cast(card=spell, pay=tuple(others[:2]), target_seat=1, target=1))
    assert one(out, e.SpellCast).event.level == 3
    assert set(m.state.side(1).exdiscard) == {spell, *others[:2]} and m.state.side(1).reiryoku == (others[2],)


def test_R_7_3_example_2_lv1_is_the_spell_only() -> None:
    p = Pos()
    spell = p.reiryoku(1, "符の壱「投擲」")
    other = p.reiryoku(1, "霊符「夢想封印」")
    m = p.match()
    illegal(m, 1, c.Cast(card=spell, pay=(other,)), "R-7.3")
    out = m.submit(1, c.Cast(card=spell))
    assert one(out, e.SpellCast).event.level == 1 and m.state.side(1).exdiscard == (spell,)
    assert m.state.side(1).reiryoku == (other,) and len(m.state.side(1).hand) == 1


def test_R_7_3_example_3_lv5_is_the_spell_three_others_and_a_flip() -> None:
    p = Pos()
    spell = p.reiryoku(1, "「永夜返し」")
    others = _spells(p, 1, "符の壱「投擲」", "霊符「夢想封印」", "結界「光と闇の網目」", "幻符「殺人ドール」")
    dmg = p.damage(1)
    p.stage(2, 1, "チルノ")
    p.stage(2, 3, "八雲紫")
    m = p.match()
    illegal(m, 1, c.Cast(card=spell, pay=tuple(others[:3])), "R-7.3")           # 4 paid for a Lv5 without a flip
    out = m.submit(1, c.Cast(card=spell, pay=tuple(others[:3]), flip=dmg))
    assert one(out, e.SpellCast).event.level == 4 and one(out, e.DamageFlipped).event.card == dmg
    assert m.state.side(1).flipped == (dmg,) and len(m.state.side(1).damage) == 1
    left = [env.event.card for env in of(out, e.CharacterLeft)]
    assert len(left) == 1 and m.state.side(2).stage[2] is not None     # graze 6 survives, graze 1 does not
