"""W-11 hearts beyond damage reduction: the heart cast (W-11.4) paying one soul of the cast card's
element on top of the cost, the next heart turning face-up, no tower setup from the hearts;
<ハート> skills (W-11.5, 守護の心臓); life above 12 (W-4.5).

Seat 1's hearts, top first, are set per test. Souls: 火蜥蜴サラマン (fire), 水妖ウンディーネ (water).
"""
from __future__ import annotations

from skill_scenarios import Phase, Pos, attack, c, ev, folds, illegal, kinds, of, one, passes

FIRE_HEARTS = ("強襲の狼", "火球", "守護の心臓")


def _hearts(broken: tuple[int, ...] = ()) -> tuple:
    """Seat 1's hearts 強襲の狼 (fire unit, face-up), 火球 (fire MS), 守護の心臓; a fire and a water soul;
    a tower of HT 2 on line 4."""
    p = Pos(p1=["火蜥蜴サラマン", "水妖ウンディーネ"], hearts1=FIRE_HEARTS)
    wolf, fireball, guardian = p.hearts(1, *FIRE_HEARTS, broken=broken)
    fire, water = p.soul(1, "火蜥蜴サラマン", "水妖ウンディーネ")
    p.pile(1, 4, 2)
    return p, wolf, fireball, guardian, fire, water


# -- W-11.4 heart cast -------------------------------------------------------------------------------
def test_W_11_4_a_heart_cast_pays_one_soul_of_the_cards_element_on_top_of_the_cost():
    p, wolf, fireball, guardian, fire, water = _hearts()
    m = p.build()
    assert c.Summon(card=wolf, line=1, towers=(4,), heart=True, heart_soul=fire) in m.legal(1)
    assert not any(isinstance(x, c.Summon) and x.heart and x.heart_soul == water for x in m.legal(1))
    envs = m.submit(1, c.Summon(card=wolf, line=1, towers=(4,), heart=True, heart_soul=fire))
    assert kinds(envs) == [("SummonDeclared", "W-8.1"), ("CostPaid", "W-6.2"), ("HeartCast", "W-11.4"),
                           ("UnitSummoned", "W-8.1"), ("HeartRevealed", "W-11.4")]
    assert one(envs, ev.HeartCast).event == ev.HeartCast(seat=1, card=wolf, soul=fire)
    assert one(envs, ev.UnitSummoned).event.src == "heart"
    side = m.state.side(1)
    assert fire in side.grave and fire not in side.soul and water in side.soul
    assert side.stage[0].card == wolf
    assert [h.card for h in side.hearts] == [fireball, guardian]
    assert side.hearts[0].face_up and not side.hearts[1].face_up     # the next heart turns face-up
    folds(m)


def test_W_11_4_a_spell_heart_is_cast_the_same_way():
    p, wolf, fireball, guardian, fire, water = _hearts()
    p.hearts(1, "火球", "強襲の狼", "守護の心臓")
    target = p.unit(2, 3, "大地の戦士")
    m = p.build()
    envs = m.submit(1, c.Cast(card=fireball, line=1, towers=(4,), heart=True, heart_soul=fire, targets=(target,)))
    assert kinds(envs) == [("SpellCast", "W-10.1"), ("CostPaid", "W-6.2"), ("HeartCast", "W-11.4"),
                           ("SpellPlaced", "W-10.1"), ("HeartRevealed", "W-11.4"), ("SpellResolved", "W-10.1"),
                           ("UnitDamaged", "W-12.6"), ("UnitDestroyed", "W-8.3"), ("CardMoved", "W-10.3")]
    assert one(envs, ev.HeartRevealed).event.card == wolf
    assert fireball in m.state.side(1).grave and m.state.side(1).hearts[0].card == wolf
    folds(m)


def test_W_11_4_the_extra_soul_must_share_an_element_and_be_paid_apart():
    p, wolf, fireball, guardian, fire, water = _hearts()
    m = p.build()
    illegal(m, 1, c.Summon(card=wolf, line=1, towers=(4,), heart=True), "W-11.4")
    illegal(m, 1, c.Summon(card=wolf, line=1, towers=(4,), heart=True, heart_soul=water), "W-11.4")
    illegal(m, 1, c.Summon(card=wolf, line=1, souls=(fire, water), heart=True, heart_soul=fire), "W-11.4")


def test_W_11_4_only_the_face_up_top_heart_is_cast():
    p, wolf, fireball, guardian, fire, water = _hearts()
    m = p.build()
    illegal(m, 1, c.Cast(card=fireball, line=1, towers=(4,), heart=True, heart_soul=fire), "W-11.4")
    illegal(m, 1, c.Summon(card=guardian, line=1, towers=(4,), heart=True, heart_soul=fire), "W-11.4")


def test_W_11_4_a_heart_is_cast_only_as_a_heart_cast():
    p, wolf, fireball, guardian, fire, water = _hearts()
    m = p.build()
    illegal(m, 1, c.Summon(card=wolf, line=1, towers=(4,)), "W-8.1")     # it is not in the hand


def test_W_11_4_a_heart_cannot_be_set_up_as_a_tower():
    p, wolf, fireball, guardian, fire, water = _hearts()
    m = p.build()
    assert not any(isinstance(x, c.SetTower) and x.card == wolf for x in m.legal(1))
    illegal(m, 1, c.SetTower(card=wolf, line=2), "W-11.4")


def test_W_Q6_a_broken_top_heart_can_be_cast():
    p, wolf, fireball, guardian, fire, water = _hearts(broken=(0,))
    m = p.build()
    m.submit(1, c.Summon(card=wolf, line=1, towers=(4,), heart=True, heart_soul=fire))
    assert m.state.side(1).stage[0].card == wolf


def test_W_11_2_after_a_heart_cast_fewer_hearts_absorb_damage():
    p, wolf, fireball, guardian, fire, water = _hearts()
    p.unit(2, 3, "大地の戦士")                                         # STR 3
    m = p.build()
    m.submit(1, c.Summon(card=wolf, line=1, towers=(4,), heart=True, heart_soul=fire))
    m.submit(1, c.Proceed(to="end"))
    m.submit(2, c.Proceed(to="battle"))
    envs = attack(m, 3, 3) + passes(m) + m.submit(1, c.NoDefense()) + passes(m)
    assert one(envs, ev.HeartsBroken).event.indexes == (1, 0)
    assert one(envs, ev.LifeLost).event == ev.LifeLost(seat=1, amount=1, life=11)


# -- W-11.5 <ハート> skills ---------------------------------------------------------------------------
def _guardian_heart(position: int) -> Pos:
    order = ["強襲の狼", "火球"]
    order.insert(position, "守護の心臓")
    p = Pos(p1=["大地の戦士"], hearts1=FIRE_HEARTS).at(Phase.MAIN1, 2)
    p.hearts(1, *order)
    return p


def test_W_11_5_a_face_up_heart_skill_works_at_its_owners_start_phase():
    m = _guardian_heart(0).build()
    envs = m.submit(2, c.Proceed(to="end"))
    triggered = one(envs, ev.SkillTriggered)
    assert triggered.clause == "W-11.5" and triggered.event.when == "start_phase"
    gained = one(envs, ev.LifeGained)
    assert gained.clause == "W-4.5" and gained.event == ev.LifeGained(seat=1, amount=1, life=13)
    assert m.state.side(1).life == 13                                  # above 12 (W-4.5)
    assert envs.index(gained) < envs.index([e for e in envs if isinstance(e.event, ev.PhaseBegan)][-1])
    m.submit(1, c.Proceed(to="end"))                                   # not at seat 2's start phase
    assert m.state.side(1).life == 13
    envs = m.submit(2, c.Proceed(to="end"))
    assert m.state.side(1).life == 14
    folds(m)


def test_W_11_5_a_face_down_heart_skill_does_not_work():
    m = _guardian_heart(1).build()
    envs = m.submit(2, c.Proceed(to="end"))
    assert not of(envs, ev.SkillTriggered) and m.state.side(1).life == 12


def test_W_11_5_a_heart_skill_does_not_work_from_the_stage():
    p = Pos(p1=["守護の心臓"]).at(Phase.MAIN1, 2)
    p.unit(1, 1, "守護の心臓")
    m = p.build()
    m.submit(2, c.Proceed(to="end"))
    assert m.state.side(1).life == 12


# -- W-4.5 life above 12 ------------------------------------------------------------------------------
def test_W_4_5_life_can_rise_above_12():
    p = Pos(p1=["癒しの雨"])
    rain, = p.hand(1, "癒しの雨")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=rain, line=1, towers=(4,)))
    assert one(envs, ev.LifeGained).event == ev.LifeGained(seat=1, amount=3, life=15)
    assert m.state.side(1).life == 15
