"""W-7 tower skills: the top card only (W-7.2), HT conditions exact / ranged / open-ended (W-2.4,
W-2.5), the keeper only; 地盤沈下 (XS-10, W-F5): [HT-3] until the end of the next turn and its
<タワー:HT=2~> skill lowering the tower in front; HT floored at 0 (W-Q13); the element effect on a
spell's cost by the table spot's line (W-6.5).

Tower cards used: 風纏いの剣士 <タワー:HT=2~> keeper gets 『強襲:1』; 巨岩の砦 <タワー:HT=3> keeper
[DEF+1]; 聖なる灯台 <タワー:HT=2~4> keeper [VIT+2]; 炎の見張り台 <タワー:HT=~2> keeper [STR+1].
Keepers never share their tower's element here, so W-7.3 does not add to what is measured.
"""
from __future__ import annotations

import pytest
from skill_scenarios import Phase, Pos, c, ev, folds, ht, illegal, of, one, stats

from kifu.domain.worlfard.payment import payments

KEEPER = "潮騒の槍兵"    # water STR2 VIT3 AGI1 DEF0


def _tower(top: str, height: int, keeper: str | None = KEEPER) -> Pos:
    """Seat 1's line 2: filler cards under ``top`` (HT ``height``), ``keeper`` on its stage spot."""
    p = Pos(p1=[top, KEEPER, "紅蓮の剣士"])
    p.pile(1, 2, height - 1)
    p.tower(1, 2, top)
    if keeper:
        p.unit(1, 2, keeper)
    return p


# -- W-7.2 top card only --------------------------------------------------------------------------
def test_W_7_2_a_tower_skill_works_only_from_the_top_card():
    p = _tower("風纏いの剣士", 2)
    m = p.build()
    assert stats(m, 1, 2).has("強襲:1")
    p = Pos(p1=["風纏いの剣士", KEEPER])
    p.pile(1, 2, 1)
    p.tower(1, 2, "風纏いの剣士")
    p.pile(1, 2, 1)                       # a filler card on top: HT 3, but 風纏い is underneath
    p.unit(1, 2, KEEPER)
    m = p.build()
    assert ht(m, 1, 2) == 3 and not stats(m, 1, 2).has("強襲:1")


def test_W_7_2_a_tower_skill_starts_when_its_card_is_set_on_top():
    p = Pos(p1=["風纏いの剣士", KEEPER])
    p.pile(1, 2, 1)
    p.unit(1, 2, KEEPER)
    gale, = p.hand(1, "風纏いの剣士")
    m = p.build()
    assert not stats(m, 1, 2).has("強襲:1")
    m.submit(1, c.SetTower(card=gale, line=2))
    assert stats(m, 1, 2).has("強襲:1")


# -- HT conditions -------------------------------------------------------------------------------
@pytest.mark.parametrize("height,DEF", [(2, 0), (3, 1), (4, 0)])
def test_W_2_4_an_exact_HT_condition(height: int, DEF: int):
    assert stats(_tower("巨岩の砦", height).build(), 1, 2).DEF == DEF


@pytest.mark.parametrize("height,VIT", [(1, 3), (2, 5), (3, 5), (4, 5), (5, 3)])
def test_W_2_4_a_ranged_HT_condition(height: int, VIT: int):
    assert stats(_tower("聖なる灯台", height).build(), 1, 2).VIT == VIT


@pytest.mark.parametrize("height,STR", [(1, 3), (2, 3), (3, 2)])
def test_W_2_4_an_HT_condition_open_below(height: int, STR: int):
    assert stats(_tower("炎の見張り台", height).build(), 1, 2).STR == STR


@pytest.mark.parametrize("height,granted", [(1, False), (2, True), (5, True)])
def test_W_2_4_an_HT_condition_open_above(height: int, granted: bool):
    assert stats(_tower("風纏いの剣士", height).build(), 1, 2).has("強襲:1") is granted


# -- the keeper only ------------------------------------------------------------------------------
def test_W_2_5_a_tower_skill_affects_only_its_own_lines_keeper():
    p = _tower("聖なる灯台", 3)
    p.unit(1, 3, "紅蓮の剣士")            # own unit on the next line
    m = p.build()
    assert stats(m, 1, 2).VIT == 5
    assert stats(m, 1, 3).VIT == 2


def test_W_3_4_a_tower_does_not_keep_the_unit_in_front():
    p = Pos(p1=["聖なる灯台"], p2=[KEEPER])
    p.pile(1, 2, 2)
    p.tower(1, 2, "聖なる灯台")
    p.unit(2, 2, KEEPER)                  # the opponent's unit in the same column
    assert stats(p.build(), 2, 2).VIT == 3


def test_W_2_5_a_keeper_that_moves_away_loses_the_tower_skill():
    p = _tower("聖なる灯台", 3)
    m = p.build()
    m.submit(1, c.Move(line=2, to=3))
    assert stats(m, 1, 3).VIT == 3


# -- 地盤沈下: the spell skill ----------------------------------------------------------------------
def _subsidence(target_height: int, top: str | None = None) -> tuple:
    """Seat 1 holds 地盤沈下; seat 2's line 3 tower has ``target_height`` cards (``top`` on top)."""
    p = Pos(p1=["地盤沈下"], p2=[KEEPER, "風纏いの剣士", "水妖ウンディーネ"])
    spell, = p.hand(1, "地盤沈下")
    p.souls(1, 1)
    if top:
        p.pile(2, 3, target_height - 1)
        p.tower(2, 3, top)
    else:
        p.pile(2, 3, target_height)
    return p, spell


def test_W_7_5_subsidence_gives_HT_minus_3_until_the_end_of_the_next_turn():
    p, spell = _subsidence(4)
    m = p.build()
    envs = m.submit(1, c.Cast(card=spell, line=1, souls=m.state.side(1).soul, targets=(23,)))
    added = one(envs, ev.EffectAdded)
    assert added.clause == "W-7.5" and added.event.effect.target == 23
    assert (added.event.effect.stat, added.event.effect.value, added.event.effect.until) == ("HT", -3, "turn:4")
    assert ht(m, 2, 3) == 1 and m.state.side(2).towers[2].height == 4
    m.submit(1, c.Proceed(to="end"))
    assert m.state.turn == 4 and ht(m, 2, 3) == 1         # still on in the next turn
    envs = m.submit(2, c.Proceed(to="end"))
    ended = one(envs, ev.EffectsEnded)
    assert ended.clause == "W-5.5" and ended.event.ids == (added.event.effect.id,)
    assert ht(m, 2, 3) == 4
    folds(m)


def test_W_7_5_a_lowered_tower_pays_its_modified_HT():
    p, spell = _subsidence(4)
    card, = p.hand(2, "水妖ウンディーネ")
    m = p.build()
    m.submit(1, c.Cast(card=spell, line=1, souls=m.state.side(1).soul, targets=(23,)))
    m.submit(1, c.Proceed(to="end"))
    envs = m.submit(2, c.Summon(card=card, line=1, towers=(3,)))       # LV1 paid by HT 4 - 3
    assert one(envs, ev.CostPaid).event.heights == (1,)


def test_W_Q13_HT_is_floored_at_0_and_a_height_0_tower_pays_nothing():
    p, spell = _subsidence(2)
    p.pile(2, 5, 2)
    card, = p.hand(2, "水妖ウンディーネ")
    m = p.build()
    m.submit(1, c.Cast(card=spell, line=1, souls=m.state.side(1).soul, targets=(23,)))
    assert ht(m, 2, 3) == 0
    m.submit(1, c.Proceed(to="end"))
    assert all(3 not in towers for towers, _ in payments(m.state, 2, 1))
    illegal(m, 2, c.Summon(card=card, line=1, towers=(3,)), "W-6.1")
    illegal(m, 2, c.Summon(card=card, line=1, towers=(3, 5)), "W-6.4")   # HT 0 is redundant


def test_W_Q13_tower_skill_conditions_read_the_modified_HT():
    p, spell = _subsidence(3, top="風纏いの剣士")
    p.unit(2, 3, KEEPER)
    m = p.build()
    assert stats(m, 2, 3).has("強襲:1")
    m.submit(1, c.Cast(card=spell, line=1, souls=m.state.side(1).soul, targets=(23,)))
    assert ht(m, 2, 3) == 0 and not stats(m, 2, 3).has("強襲:1")


# -- 地盤沈下: the tower skill ---------------------------------------------------------------------
def _quake(keeper: bool = True, earth_right: bool = True, height: int = 2, front: int = 3) -> Pos:
    """Seat 1's line 2 tower: filler under 地盤沈下; lines 1 and 3 earth towers (大地の戦士 on top)."""
    p = Pos(p1=["地盤沈下", "ドラムトーテム", "大地の戦士", "大地の戦士"], p2=["巨岩の砦", KEEPER])
    p.pile(1, 2, height - 1)
    p.tower(1, 2, "地盤沈下")
    p.tower(1, 1, "大地の戦士")
    if earth_right:
        p.tower(1, 3, "大地の戦士")
    if keeper:
        p.unit(1, 2, "ドラムトーテム")
    p.pile(2, 2, front)
    return p


def test_W_7_5_subsidence_on_a_tower_lowers_the_tower_in_front():
    m = _quake().build()
    assert ht(m, 2, 2) == 2 and m.state.side(2).towers[1].height == 3
    assert ht(m, 2, 1) == 0 and ht(m, 2, 3) == 0 and ht(m, 1, 2) == 2


@pytest.mark.parametrize("why", ["no keeper", "no earth on a neighbouring line", "HT below 2"])
def test_W_7_5_subsidence_on_a_tower_needs_its_conditions(why: str):
    p = _quake(keeper=why != "no keeper", earth_right=why != "no earth on a neighbouring line",
               height=1 if why == "HT below 2" else 2)
    assert ht(p.build(), 2, 2) == 3


def test_W_7_5_the_lowering_by_subsidence_stops_when_the_keeper_leaves():
    p = _quake().at(Phase.MAIN1, 1)
    m = p.build()
    assert ht(m, 2, 2) == 2
    m.submit(1, c.Move(line=2, to=3))
    assert ht(m, 2, 2) == 3


def test_W_7_5_a_tower_lowered_by_subsidence_pays_one_less():
    p = _quake().at(Phase.MAIN1, 2)
    card, = p.hand(2, KEEPER)
    m = p.build()
    envs = m.submit(2, c.Summon(card=card, line=1, towers=(2,)))       # LV2: HT 3 - 1
    assert one(envs, ev.CostPaid).event.heights == (2,)


def test_W_Q13_a_tower_skill_condition_reads_HT_lowered_by_a_tower_in_front():
    """巨岩の砦 <タワー:HT=3> on a 3-card tower lowered to HT 2 by the 地盤沈下 in front: no [DEF+1]."""
    p = _quake(front=2)
    p.tower(2, 2, "巨岩の砦")
    p.unit(2, 2, KEEPER)
    m = p.build()
    assert m.state.side(2).towers[1].height == 3 and ht(m, 2, 2) == 2
    assert stats(m, 2, 2).DEF == 0


# -- W-6.5 the element effect on a spell's cost -----------------------------------------------------
def _fireball(tower_cards: tuple[str, ...]) -> tuple[Pos, int, int]:
    p = Pos(p1=["火球", "火蜥蜴サラマン", "水妖ウンディーネ", "双属の精霊"], p2=[KEEPER])
    target = p.unit(2, 3, KEEPER)
    fireball, = p.hand(1, "火球")
    if tower_cards:
        p.tower(1, 2, *tower_cards)
    p.souls(1, 2)
    return p, fireball, target


def test_W_6_5_a_spell_costs_1_less_on_the_line_of_a_tower_of_its_element():
    p, fireball, target = _fireball(("火蜥蜴サラマン",))
    m = p.build()
    soul = m.state.side(1).soul[:1]
    assert c.Cast(card=fireball, line=2, souls=soul, targets=(target,)) in m.legal(1)
    illegal(m, 1, c.Cast(card=fireball, line=1, souls=soul, targets=(target,)), "W-6.1")   # other line: 2
    envs = m.submit(1, c.Cast(card=fireball, line=2, souls=soul, targets=(target,)))
    assert envs[0].event.cost == 1 and one(envs, ev.CostPaid).event.cost == 1
    folds(m)


def test_W_6_5_only_the_top_card_gives_the_tower_its_element():
    p, fireball, target = _fireball(("火蜥蜴サラマン", "水妖ウンディーネ"))
    m = p.build()
    illegal(m, 1, c.Cast(card=fireball, line=2, souls=m.state.side(1).soul[:1], targets=(target,)), "W-6.1")
    envs = m.submit(1, c.Cast(card=fireball, line=2, souls=m.state.side(1).soul, targets=(target,)))
    assert envs[0].event.cost == 2


def test_W_6_5_a_tower_with_several_elements_has_each_of_them():
    p, fireball, target = _fireball(("双属の精霊",))
    m = p.build()
    envs = m.submit(1, c.Cast(card=fireball, line=2, souls=m.state.side(1).soul[:1], targets=(target,)))
    assert envs[0].event.cost == 1


def test_W_6_5_the_discount_is_not_taken_off_an_extra_cost():
    p = Pos(p1=["代償の炎", "火蜥蜴サラマン"], p2=[KEEPER])
    target = p.unit(2, 3, KEEPER)
    flame, = p.hand(1, "代償の炎")
    p.tower(1, 2, "火蜥蜴サラマン")
    p.souls(1, 2)
    m = p.build()
    paid_by_souls = {len(x.souls) for x in m.legal(1) if isinstance(x, c.Cast) and x.line == 2 and not x.towers}
    assert paid_by_souls == {1}
    envs = m.submit(1, c.Cast(card=flame, line=2, souls=m.state.side(1).soul[:1], targets=(target,)))
    assert envs[0].event.cost == 1          # LV 1 - 1, plus {コスト:〔1〕}
    assert of(envs, ev.UnitDamaged)
