"""W-6 cost: LV as cost, whole towers and souls as sources, keepers, and no redundant source."""
from __future__ import annotations

from itertools import combinations

from scenario import Phase, Position, Status, c, illegal, kinds, one

from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.payment import check_payment, is_redundant_free, payments


def _main(*piles: tuple[int, int], broken: tuple[int, ...] = ()) -> Position:
    """Seat 1's main phase with towers of the given (line, HT)."""
    p = Position()
    p.at(Phase.MAIN1, seat=1)
    for line, height in piles:
        p.pile(1, line, height, broken=line in broken)
    return p


def test_W_6_1_cost_short_of_LV_is_refused():
    p = _main((1, 4))
    (giant,) = p.hand(1, "焔の巨兵")        # LV 5
    m = p.build()
    illegal(m, 1, c.Summon(card=giant, line=3, towers=(1,)), "W-6.1")
    illegal(m, 1, c.Summon(card=giant, line=3), "W-6.1")


def test_W_6_1_cost_has_no_colour():
    p = Position().at(Phase.MAIN1)
    p.tower(1, 2, "疾風の鷹", "曙光の妖精")     # wind under light
    (swordsman,) = p.hand(1, "紅蓮の剣士")       # fire, LV 2
    m = p.build()
    envs = m.submit(1, c.Summon(card=swordsman, line=2, towers=(2,)))
    assert one(envs, ev.UnitSummoned).event.card == swordsman


def test_W_6_2_tower_generates_its_HT_and_breaks():
    p = _main((2, 2))
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    envs = m.submit(1, c.Summon(card=swordsman, line=4, towers=(2,)))
    assert kinds(envs) == [("SummonDeclared", "W-8.1"), ("CostPaid", "W-6.2"), ("UnitSummoned", "W-8.1")]
    paid = one(envs, ev.CostPaid)
    assert paid.event == ev.CostPaid(seat=1, cost=2, generated=2, towers=(2,), heights=(2,))
    assert paid.cause == envs[0].seq
    tower = m.state.side(1).towers[1]
    assert tower.broken and tower.height == 2


def test_W_6_2_souls_generate_one_each_and_go_to_the_graveyard():
    p = Position().at(Phase.MAIN1)
    souls = p.soul(1, "火蜥蜴サラマン", "疾風の鷹")
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    envs = m.submit(1, c.Summon(card=swordsman, line=1, souls=souls))
    assert one(envs, ev.CostPaid).event == ev.CostPaid(seat=1, cost=2, generated=2, souls=souls)
    side = m.state.side(1)
    assert side.soul == () and side.grave[-2:] == souls


def test_W_6_2_towers_and_souls_combine():
    p = _main((1, 4))
    (soul,) = p.soul(1, "火蜥蜴サラマン")
    (giant,) = p.hand(1, "焔の巨兵")
    m = p.build()
    envs = m.submit(1, c.Summon(card=giant, line=5, towers=(1,), souls=(soul,)))
    paid = one(envs, ev.CostPaid).event
    assert (paid.cost, paid.generated, paid.towers, paid.heights, paid.souls) == (5, 5, (1,), (4,), (soul,))


def test_W_6_2_only_own_souls_and_real_towers_pay():
    p = _main((1, 1))
    (swordsman, other) = p.hand(1, "紅蓮の剣士", "火蜥蜴サラマン")
    (theirs,) = p.soul(2, "水妖ウンディーネ")
    m = p.build()
    illegal(m, 1, c.Summon(card=swordsman, line=3, towers=(1,), souls=(other,)), "W-6.2")   # a hand card
    illegal(m, 1, c.Summon(card=swordsman, line=3, towers=(1,), souls=(theirs,)), "W-6.2")  # the opponent's soul
    illegal(m, 1, c.Summon(card=swordsman, line=3, towers=(1, 2)), "W-6.2")                # spot 2 has no tower


def test_W_6_3_whole_tower_breaks_and_the_excess_is_lost():
    p = _main((3, 3))
    (salamander,) = p.hand(1, "火蜥蜴サラマン")    # LV 1
    m = p.build()
    envs = m.submit(1, c.Summon(card=salamander, line=1, towers=(3,)))
    assert one(envs, ev.CostPaid).event.generated == 3
    assert m.state.side(1).towers[2].broken and m.state.side(1).towers[2].height == 3


def test_W_6_3_keeper_breaks_with_its_tower():
    p = _main((2, 2))
    p.unit(1, 2, "大地の戦士")
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    envs = m.submit(1, c.Summon(card=swordsman, line=4, towers=(2,)))
    assert kinds(envs) == [("SummonDeclared", "W-8.1"), ("CostPaid", "W-6.2"), ("KeeperBroken", "W-6.3"),
                           ("UnitSummoned", "W-8.1")]
    keeper = one(envs, ev.KeeperBroken)
    assert keeper.event == ev.KeeperBroken(seat=1, line=2) and keeper.cause == one(envs, ev.CostPaid).seq
    assert m.state.side(1).stage[1].broken


def test_W_6_3_broken_keeper_blocks_its_tower():
    p = _main((2, 2))
    p.unit(1, 2, "大地の戦士", broken=True)
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    illegal(m, 1, c.Summon(card=swordsman, line=4, towers=(2,)), "W-6.3")
    assert not any(isinstance(cmd, c.Summon) for cmd in m.legal(1))


def test_W_6_3_asleep_keeper_is_ready_so_its_tower_pays():
    """Sleep forbids the unit's own actions (W-9.1); it does not make the keeper broken."""
    p = _main((2, 2))
    p.unit(1, 2, "大地の戦士", status=Status.SLEEP)
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    envs = m.submit(1, c.Summon(card=swordsman, line=4, towers=(2,)))
    assert one(envs, ev.KeeperBroken).event.line == 2
    keeper = m.state.side(1).stage[1]
    assert keeper.broken and keeper.status == Status.SLEEP


def test_W_6_3_broken_tower_cannot_pay_again():
    p = _main((2, 2), broken=(2,))
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    illegal(m, 1, c.Summon(card=swordsman, line=4, towers=(2,)), "W-6.3")


def test_W_6_3_a_source_is_used_once_per_payment():
    p = _main((1, 1))
    (soul,) = p.soul(1, "火蜥蜴サラマン")
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    illegal(m, 1, c.Summon(card=swordsman, line=4, towers=(1, 1)), "W-6.3")
    illegal(m, 1, c.Summon(card=swordsman, line=4, souls=(soul, soul)), "W-6.2")


def test_W_6_4_HT4_HT2_accepted_for_LV5():
    """Seed example: 1 point over, but without HT2 the cost is not met, so HT2 is not redundant."""
    p = _main((1, 4), (2, 2))
    (giant,) = p.hand(1, "焔の巨兵")
    m = p.build()
    envs = m.submit(1, c.Summon(card=giant, line=3, towers=(1, 2)))
    paid = one(envs, ev.CostPaid).event
    assert (paid.cost, paid.generated, paid.heights) == (5, 6, (4, 2))
    assert m.state.side(1).stage[2].card == giant


def test_W_6_4_redundant_tower_rejected_HT3_HT2_HT1():
    """Seed example: the cost is met without HT1, so choosing HT1 is redundant."""
    p = _main((1, 3), (2, 2), (3, 1))
    (giant,) = p.hand(1, "焔の巨兵")
    m = p.build()
    illegal(m, 1, c.Summon(card=giant, line=4, towers=(1, 2, 3)), "W-6.4")
    assert c.Summon(card=giant, line=4, towers=(1, 2, 3)) not in m.legal(1)
    assert c.Summon(card=giant, line=4, towers=(1, 2)) in m.legal(1)


def test_W_6_4_redundant_soul_rejected():
    p = _main((1, 2))
    souls = p.soul(1, "火蜥蜴サラマン", "疾風の鷹", "曙光の妖精")
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    illegal(m, 1, c.Summon(card=swordsman, line=4, towers=(1,), souls=souls[:1]), "W-6.4")
    illegal(m, 1, c.Summon(card=swordsman, line=4, souls=souls), "W-6.4")
    m.submit(1, c.Summon(card=swordsman, line=4, souls=souls[:2]))


def test_W_6_4_legal_payments_are_exactly_the_non_redundant_sets():
    p = _main((1, 1), (2, 2), (3, 3), (4, 4))
    p.pile(1, 5, 2, broken=True)
    p.soul(1, "火蜥蜴サラマン", "疾風の鷹")
    state = p.state
    souls = state.side(1).soul
    for cost in range(1, 8):
        listed = {(tuple(sorted(t)), tuple(sorted(s))) for t, s in payments(state, 1, cost)}
        brute = set()
        for nt in range(5):
            for towers in combinations((1, 2, 3, 4), nt):
                for ns in range(3):
                    for chosen in combinations(souls, ns):
                        values = list(towers) + [1] * ns       # tower on line n has HT n here
                        if is_redundant_free(values, cost):
                            brute.add((towers, tuple(sorted(chosen))))
        assert listed == brute, cost
        for towers, chosen in listed:
            assert check_payment(state, 1, cost, towers, chosen) >= cost
