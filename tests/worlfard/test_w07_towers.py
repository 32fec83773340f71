"""W-7 towers: setup once per turn, stacking with the tower's state, at most 5, top card, keepers."""
from __future__ import annotations

from scenario import Phase, Position, attack, c, defend, illegal, kinds, one, started

from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.stats import unit_stats
from kifu.domain.worlfard.view import view


def test_W_7_1_setup_puts_a_hand_card_ready_on_an_empty_spot():
    m = started()
    card = m.state.side(1).hand[2]
    envs = m.submit(1, c.SetTower(card=card, line=4))
    assert (envs[0].kind, envs[0].clause) == ("decision", "W-7.1")
    assert envs[0].event == ev.TowerSet(seat=1, card=card, line=4, height=1, broken=False)
    side = m.state.side(1)
    assert card not in side.hand and side.towers[3].cards == (card,) and not side.towers[3].broken
    assert m.state.tower_set


def test_W_7_1_tower_once_per_turn():
    m = started()
    first, second = m.state.side(1).hand[:2]
    m.submit(1, c.SetTower(card=first, line=1))
    assert not any(isinstance(cmd, c.SetTower) for cmd in m.legal(1))
    illegal(m, 1, c.SetTower(card=second, line=2), "W-7.1")
    illegal(m, 1, c.SetTower(card=second, line=1), "W-7.1")


def test_W_7_1_once_per_turn_counts_both_main_phases():
    m = Position().at(Phase.MAIN1).build()
    first, second = m.state.side(1).hand[:2]
    m.submit(1, c.SetTower(card=first, line=1))
    m.submit(1, c.Proceed(to="battle"))
    m.submit(1, c.Proceed(to="main2"))
    illegal(m, 1, c.SetTower(card=second, line=2), "W-7.1")


def test_W_7_1_setup_in_second_main_if_skipped_in_first():
    m = Position().at(Phase.MAIN1).build()
    m.submit(1, c.Proceed(to="battle"))
    m.submit(1, c.Proceed(to="main2"))
    card = m.state.side(1).hand[0]
    envs = m.submit(1, c.SetTower(card=card, line=5))
    assert one(envs, ev.TowerSet).event.height == 1


def test_W_7_1_setup_is_allowed_again_next_turn():
    m = started()
    m.submit(1, c.SetTower(card=m.state.side(1).hand[0], line=1))
    m.submit(1, c.Proceed(to="end"))
    assert not m.state.tower_set
    envs = m.submit(2, c.SetTower(card=m.state.side(2).hand[0], line=1))
    assert one(envs, ev.TowerSet).event.seat == 2


def test_W_7_1_stacked_card_inherits_broken_state():
    p = Position().at(Phase.MAIN1)
    p.pile(1, 2, 2, broken=True)
    (card,) = p.hand(1, "火蜥蜴サラマン")
    m = p.build()
    envs = m.submit(1, c.SetTower(card=card, line=2))
    assert envs[0].event == ev.TowerSet(seat=1, card=card, line=2, height=3, broken=True)
    tower = m.state.side(1).towers[1]
    assert tower.height == 3 and tower.broken and tower.top == card


def test_W_7_1_stacked_card_on_a_ready_tower_is_ready():
    p = Position().at(Phase.MAIN1)
    p.pile(1, 2, 2)
    (card,) = p.hand(1, "火蜥蜴サラマン")
    m = p.build()
    m.submit(1, c.SetTower(card=card, line=2))
    assert not m.state.side(1).towers[1].broken and m.state.side(1).towers[1].height == 3


def test_W_7_1_tower_holds_at_most_five_cards():
    p = Position().at(Phase.MAIN1)
    p.pile(1, 3, 5)
    (card,) = p.hand(1, "火蜥蜴サラマン")
    m = p.build()
    illegal(m, 1, c.SetTower(card=card, line=3), "W-3.3")
    assert c.SetTower(card=card, line=3) not in m.legal(1)
    assert c.SetTower(card=card, line=2) in m.legal(1)


def test_W_7_1_setup_only_in_a_main_phase():
    p = Position().at(Phase.BATTLE)
    (card,) = p.hand(1, "火蜥蜴サラマン")
    illegal(p.build(), 1, c.SetTower(card=card, line=1), "W-7.1")


def test_W_7_1_tower_card_comes_from_own_hand():
    p = Position().at(Phase.MAIN1)
    deck_card = p.state.side(1).deck[0]
    their_card = p.state.side(2).hand[0]
    m = p.build()
    illegal(m, 1, c.SetTower(card=deck_card, line=1), "W-7.1")
    illegal(m, 1, c.SetTower(card=their_card, line=1), "W-7.1")


def test_W_7_2_tower_element_comes_from_its_top_card_only():
    p = Position()
    p.tower(1, 1, "火蜥蜴サラマン", "疾風の鷹")      # fire under wind: a wind tower
    p.tower(1, 2, "疾風の鷹", "火蜥蜴サラマン")      # wind under fire: a fire tower
    p.unit(1, 1, "紅蓮の剣士")                       # fire, VIT 2
    p.unit(1, 2, "紅蓮の剣士")
    state = p.state
    assert unit_stats(state, 1, 1).VIT == 2
    assert unit_stats(state, 1, 2).VIT == 3


def test_W_7_3_keeper_with_its_towers_element_gets_VIT_plus_1():
    """紅蓮の剣士 (VIT 2) keeps a fire tower: it survives the 2 damage of 潮騒の槍兵 (STR 2)."""
    p = Position()
    p.tower(1, 3, "火蜥蜴サラマン")
    keeper = p.unit(1, 3, "紅蓮の剣士")
    p.unit(2, 3, "潮騒の槍兵")
    p.at(Phase.BATTLE, seat=2)
    m = p.build()
    assert unit_stats(m.state, 1, 3).VIT == 3
    assert view(m.state, 2).sides[0].stage[2].VIT == 3
    attack(m, 3, 3)
    envs = defend(m, c.NoDefense())
    hit = [e.event for e in envs if isinstance(e.event, ev.CombatDamage) and e.event.card == keeper][0]
    assert hit.amount == 2
    assert not any(isinstance(e.event, ev.UnitDestroyed) and e.event.card == keeper for e in envs)
    assert m.state.side(1).stage[2].card == keeper and m.state.side(1).stage[2].damage == 2


def test_W_7_3_a_keeper_with_one_of_its_elements_matching_gets_the_bonus():
    p = Position()
    p.tower(2, 4, "潮騒の槍兵")          # water
    p.unit(2, 4, "双属の精霊")            # fire and water, VIT 3
    p.unit(2, 5, "双属の精霊")            # no tower on line 5
    assert unit_stats(p.state, 2, 4).VIT == 4
    assert unit_stats(p.state, 2, 5).VIT == 3


def test_W_7_3_the_bonus_lasts_only_while_the_keeper_stays_on_the_line():
    p = Position().at(Phase.MAIN1)
    p.tower(1, 3, "火蜥蜴サラマン")
    p.unit(1, 3, "紅蓮の剣士")
    m = p.build()
    assert unit_stats(m.state, 1, 3).VIT == 3
    envs = m.submit(1, c.Move(line=3, to=4))
    assert kinds(envs) == [("UnitMoved", "W-8.2"), ("UnitBroken", "W-8.2")]
    assert unit_stats(m.state, 1, 4).VIT == 2


def test_W_7_4_broken_towers_recover_at_their_owners_start_phase():
    p = Position().at(Phase.MAIN1, seat=1)
    p.pile(1, 1, 2, broken=True)
    p.pile(2, 1, 2, broken=True)
    m = p.build()
    envs = m.submit(1, c.Proceed(to="end"))
    assert one(envs, ev.Recovered).event == ev.Recovered(seat=2, towers=(1,))
    assert m.state.side(1).towers[0].broken and not m.state.side(2).towers[0].broken
    envs = m.submit(2, c.Proceed(to="end"))
    assert one(envs, ev.Recovered).event == ev.Recovered(seat=1, towers=(1,))
