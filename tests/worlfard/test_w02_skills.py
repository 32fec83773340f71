"""W-2 skills: granting without duplicates and distinct parameters stacking (W-2.7), `*` and `X`
(W-2.6), optional できる and mandatory triggers (W-2.5, W-Q18), activated skills with
{コスト:ブレイク} and {コスト:〔n〕}, keywords 神速 and 防衛 and their negation (W-Q4, W-14.6).

Seat 1 acts (turn 3). 風纏いの剣士 on top of a tower of HT 2 or more keeps giving its keeper
『強襲:1』. Units: 強襲の狼 STR2 『強襲:1』; 猛襲の獅子 STR3 『強襲:2』; 紅蓮の剣士 STR3; 大地の戦士 STR3
VIT3 AGI1; 反撃の盾兵 STR2 VIT3 (no combat damage from a unit with 『強襲*』).
"""
from __future__ import annotations

from skill_scenarios import Phase, Pos, Status, attack, c, ev, folds, illegal, kinds, of, one, passes, stats

from kifu.domain.worlfard.skills import assault_bonus, keyword_matches


def _keeper_on_gale(name: str, *extra: str) -> tuple[Pos, int]:
    """``name`` keeps line 2, whose tower is a filler card under 風纏いの剣士 (HT 2)."""
    p = Pos(p1=[name, "風纏いの剣士", *extra]).at(Phase.BATTLE, 1)
    p.pile(1, 2, 1)
    p.tower(1, 2, "風纏いの剣士")
    return p, p.unit(1, 2, name)


def _attack_the_player(m) -> list:
    envs = attack(m, 2, 2)
    envs += passes(m)
    envs += m.submit(2, c.NoDefense())
    return envs + passes(m)


# -- W-2.7 granting skills -------------------------------------------------------------------
def test_W_2_7_a_granted_assault_1_and_a_printed_assault_2_stack_to_STR_plus_3():
    p, lion = _keeper_on_gale("猛襲の獅子")
    m = p.build()
    assert stats(m, 1, 2).keywords == frozenset({"強襲:1", "強襲:2"})
    envs = _attack_the_player(m)
    bonus = of(envs, ev.EffectAdded)[0]
    assert bonus.clause == "W-2.7" and bonus.cause == envs[0].seq
    assert (bonus.event.effect.target, bonus.event.effect.value, bonus.event.effect.until) == (lion, 3, "combat")
    assert one(envs, ev.PlayerAttacked).event.STR == 6
    assert stats(m, 1, 2).STR == 3            # the bonus ended with the combat
    folds(m)


def test_W_2_7_a_granted_assault_1_does_not_stack_with_a_printed_assault_1():
    p, wolf = _keeper_on_gale("強襲の狼")
    m = p.build()
    assert stats(m, 1, 2).keywords == frozenset({"強襲:1"})
    envs = _attack_the_player(m)
    assert of(envs, ev.EffectAdded)[0].event.effect.value == 1
    assert one(envs, ev.PlayerAttacked).event.STR == 3


def test_W_2_7_a_unit_without_assault_gets_the_granted_one():
    p, swordsman = _keeper_on_gale("紅蓮の剣士")
    m = p.build()
    envs = _attack_the_player(m)
    assert one(envs, ev.PlayerAttacked).event.STR == 4


def test_W_2_7_assault_bonus_sums_distinct_parameters():
    assert assault_bonus(frozenset({"強襲:1", "強襲:2"})) == 3
    assert assault_bonus(frozenset({"強襲:1"})) == 1
    assert assault_bonus(frozenset({"防衛"})) == 0


# -- W-2.6 `*` and X ---------------------------------------------------------------------------
def test_W_2_6_star_matches_every_parameter():
    assert keyword_matches("強襲:1", "強襲*") and keyword_matches("強襲:2", "強襲*")
    assert not keyword_matches("防衛", "強襲*")
    assert keyword_matches("強襲:1", "強襲:1") and not keyword_matches("強襲:2", "強襲:1")


def _shield(attacker: str, gale: bool = False) -> tuple:
    p = Pos(p1=[attacker, "風纏いの剣士"], p2=["反撃の盾兵"]).at(Phase.BATTLE, 1)
    if gale:
        p.pile(1, 2, 1)
        p.tower(1, 2, "風纏いの剣士")
    a = p.unit(1, 2, attacker)
    s = p.unit(2, 2, "反撃の盾兵")
    m = p.build()
    attack(m, 2, 2)
    passes(m)
    envs = m.submit(2, c.NoDefense()) + passes(m)
    return m, a, s, envs


def test_W_2_6_no_combat_damage_from_a_unit_with_any_assault():
    for attacker in ("強襲の狼", "猛襲の獅子"):
        m, a, s, envs = _shield(attacker)
        prevented = one(envs, ev.DamagePrevented)
        assert prevented.clause == "W-1.2" and prevented.event.card == s
        assert one(envs, ev.CombatDamage).event.card == a
        assert m.state.side(2).stage[1].damage == 0


def test_W_2_6_a_granted_assault_matches_the_star_too():
    m, a, s, envs = _shield("紅蓮の剣士", gale=True)
    assert one(envs, ev.DamagePrevented).event.card == s


def test_W_2_6_without_assault_the_shield_takes_damage():
    m, a, s, envs = _shield("紅蓮の剣士")
    assert not of(envs, ev.DamagePrevented)
    assert s in {e.event.card for e in of(envs, ev.UnitDestroyed)}


def test_W_2_6_X_is_the_number_of_souls_when_the_skill_resolves():
    p = Pos(p1=["怨念の集合体"], p2=["岩窟のゴーレム"])
    golem = p.unit(2, 3, "岩窟のゴーレム")
    grudge, = p.hand(1, "怨念の集合体")
    p.souls(1, 3)
    p.pile(1, 4, 4)
    m = p.build()
    m.submit(1, c.Summon(card=grudge, line=1, towers=(4,)))
    envs = m.submit(1, c.Choose(targets=(golem,)))
    hit = one(envs, ev.UnitDamaged)
    assert (hit.event.base, hit.event.DEF, hit.event.amount) == (3, 1, 2)


# -- W-2.5 normal skills: できる is optional, the rest is not ------------------------------------
def _summoner() -> tuple:
    p = Pos(p1=["召喚術師", "強襲の狼"])
    summoner, wolf = p.hand(1, "召喚術師", "強襲の狼")
    p.pile(1, 4, 4)
    m = p.build()
    envs = m.submit(1, c.Summon(card=summoner, line=1, towers=(4,)))
    return m, wolf, envs


def test_W_2_5_a_may_skill_waits_for_its_controller_who_may_decline():
    m, wolf, envs = _summoner()
    awaited = one(envs, ev.ChoiceAwaited)
    assert awaited.clause == "W-2.4" and awaited.event.choice.optional
    assert m.deciding == 1 and c.Decline() in m.legal(1)
    envs = m.submit(1, c.Decline())
    assert kinds(envs) == [("SkillDeclined", "W-2.5")] and envs[0].kind == "decision"
    assert m.state.choice is None and wolf in m.state.side(1).hand
    folds(m)


def test_W_2_5_a_may_skill_can_be_used():
    m, wolf, _ = _summoner()
    envs = m.submit(1, c.Choose(targets=(wolf * 10 + 2,)))
    assert envs[0].kind == "decision" and one(envs, ev.UnitSummonedFree).event.card == wolf


def test_W_2_5_a_skill_without_may_cannot_be_declined():
    p = Pos(p1=["風唄いミーミル"])
    mimir, = p.hand(1, "風唄いミーミル")
    p.pile(1, 4, 3)
    m = p.build()
    m.submit(1, c.Summon(card=mimir, line=1, towers=(4,)))
    assert not m.state.choice.optional and c.Decline() not in m.legal(1)
    illegal(m, 1, c.Decline(), "W-2.5")
    illegal(m, 1, c.Proceed(to="battle"), "W-2.4")   # the choice comes first


def test_W_Q18_a_mandatory_trigger_with_no_correct_target_does_nothing():
    p = Pos(p1=["眠りの精"])
    fairy, = p.hand(1, "眠りの精")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Summon(card=fairy, line=1, towers=(4,)))
    fizzled = one(envs, ev.SkillFizzled)
    assert fizzled.clause == "W-Q18" and fizzled.event.reason == "no correct target"
    assert m.state.choice is None and m.state.queue == ()


# -- W-2.5 activated skills ----------------------------------------------------------------------
def test_W_2_5_activated_with_break_cost_breaks_its_source():
    p = Pos(p1=["呪術師"], p2=["大地の戦士"])
    witch = p.unit(1, 1, "呪術師")
    warrior = p.unit(2, 3, "大地の戦士")
    m = p.build()
    envs = m.submit(1, c.Activate(card=witch, skill=0, targets=(warrior,)))
    assert kinds(envs) == [("SkillActivated", "W-2.5"), ("UnitBroken", "W-2.4"), ("StatusGiven", "W-9"),
                           ("SkillResolved", "W-2.5")]
    assert envs[0].kind == "decision" and all(e.cause == envs[0].seq for e in envs[1:])
    assert m.state.side(1).stage[0].broken and m.state.side(2).stage[2].status == Status.CURSE
    illegal(m, 1, c.Activate(card=witch, skill=0, targets=(warrior,)), "W-2.5")   # broken now
    folds(m)


def test_W_2_5_activated_skills_need_an_awake_unit_in_ones_own_main_phase():
    p = Pos(p1=["呪術師", "大地の戦士"])
    witch = p.unit(1, 1, "呪術師", status=Status.SLEEP)
    warrior = p.unit(1, 3, "大地の戦士")
    illegal(p.build(), 1, c.Activate(card=witch, skill=0, targets=(warrior,)), "W-9.1")
    p2 = Pos(p1=["呪術師", "大地の戦士"]).at(Phase.BATTLE, 1)
    witch = p2.unit(1, 1, "呪術師")
    warrior = p2.unit(1, 3, "大地の戦士")
    illegal(p2.build(), 1, c.Activate(card=witch, skill=0, targets=(warrior,)), "W-2.5")


def test_W_2_5_activated_needs_a_target_that_can_be_chosen():
    p = Pos(p1=["呪術師"])
    witch = p.unit(1, 1, "呪術師")
    m = p.build()
    illegal(m, 1, c.Activate(card=witch, skill=0, targets=(2999,)), "W-10.4")
    illegal(m, 1, c.Activate(card=witch, skill=0), "W-10.4")


def test_W_2_5_activated_with_extra_cost_pays_it_and_does_not_break():
    p = Pos(p1=["魔導砲台"], p2=["岩窟のゴーレム"])
    cannon = p.unit(1, 1, "魔導砲台")
    golem = p.unit(2, 3, "岩窟のゴーレム")
    p.pile(1, 4, 2)
    p.souls(1, 2)
    m = p.build()
    assert c.Activate(card=cannon, skill=0, towers=(4,), targets=(golem,)) in m.legal(1)
    envs = m.submit(1, c.Activate(card=cannon, skill=0, towers=(4,), targets=(golem,)))
    paid = one(envs, ev.CostPaid)
    assert paid.clause == "W-6.2" and (paid.event.cost, paid.event.towers) == (2, (4,))
    assert one(envs, ev.UnitDamaged).event.amount == 1      # 2 damage less DEF 1
    assert not m.state.side(1).stage[0].broken            # no {コスト:ブレイク}
    souls = m.state.side(1).soul
    envs = m.submit(1, c.Activate(card=cannon, skill=0, souls=souls, targets=(golem,)))
    assert one(envs, ev.CostPaid).event.souls == souls
    assert m.state.side(2).stage[2].damage == 2
    folds(m)


def test_W_2_5_extra_cost_must_be_paid_exactly():
    p = Pos(p1=["魔導砲台"], p2=["岩窟のゴーレム"])
    cannon = p.unit(1, 1, "魔導砲台")
    golem = p.unit(2, 3, "岩窟のゴーレム")
    p.pile(1, 4, 2)
    souls = p.souls(1, 2)
    m = p.build()
    illegal(m, 1, c.Activate(card=cannon, skill=0, souls=souls[:1], targets=(golem,)), "W-6.1")
    illegal(m, 1, c.Activate(card=cannon, skill=0, towers=(4,), souls=souls[:1], targets=(golem,)), "W-6.4")


def test_W_2_5_a_broken_card_cannot_activate_even_a_skill_without_break_cost():
    p = Pos(p1=["魔導砲台"], p2=["岩窟のゴーレム"])
    cannon = p.unit(1, 1, "魔導砲台", broken=True)
    golem = p.unit(2, 3, "岩窟のゴーレム")
    p.pile(1, 4, 2)
    m = p.build()
    assert not any(isinstance(x, c.Activate) for x in m.legal(1))
    illegal(m, 1, c.Activate(card=cannon, skill=0, towers=(4,), targets=(golem,)), "W-2.5")


def test_W_2_5_a_long_spell_activates_with_break_cost_and_recovers_at_its_start_phase():
    p = Pos(p1=["魔力の泉"])
    spring = p.table(1, 2, "魔力の泉")
    m = p.build()
    top = m.state.side(1).deck[0]
    envs = m.submit(1, c.Activate(card=spring, skill=0))
    assert kinds(envs) == [("SkillActivated", "W-2.5"), ("SpellBroken", "W-2.4"), ("CardDrawn", "W-Q12"),
                           ("SkillResolved", "W-2.5")]
    assert top in m.state.side(1).hand and m.state.side(1).table[1].broken
    illegal(m, 1, c.Activate(card=spring, skill=0), "W-2.5")
    m.submit(1, c.Proceed(to="end"))
    assert m.state.side(1).table[1].broken          # not seat 2's start phase
    envs = m.submit(2, c.Proceed(to="end"))
    assert one(envs, ev.Recovered).event.tables == (2,) and not m.state.side(1).table[1].broken
    folds(m)


# -- W-Q4 keywords and W-14.6 negation ----------------------------------------------------------
def test_W_Q4_haste_summons_awake():
    p = Pos(p1=["神速の隼"])
    falcon, = p.hand(1, "神速の隼")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Summon(card=falcon, line=1, towers=(4,)))
    summoned = one(envs, ev.UnitSummoned)
    assert summoned.clause == "W-Q4" and not summoned.event.asleep
    m.submit(1, c.Proceed(to="battle"))
    assert c.Attack(line=1) in m.legal(1)


def test_W_14_6_negated_haste_summons_asleep():
    p = Pos(p1=["神速の隼"], p2=["神速封じの結界"])
    p.table(2, 3, "神速封じの結界")
    falcon, = p.hand(1, "神速の隼")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Summon(card=falcon, line=1, towers=(4,)))
    summoned = one(envs, ev.UnitSummoned)
    assert summoned.clause == "W-8.1" and summoned.event.asleep
    assert "神速" not in stats(m, 1, 1).keywords


def test_W_14_6_negated_defense_no_longer_blocks_at_AGI_0():
    p = Pos(p1=["封じの巫女", "大地の戦士"], p2=["城壁の番兵"])
    p.unit(1, 1, "大地の戦士")
    sentry = p.unit(2, 4, "城壁の番兵")
    maiden, = p.hand(1, "封じの巫女")
    p.pile(1, 5, 2)
    m = p.build()
    m.submit(1, c.Summon(card=maiden, line=2, towers=(5,)))
    envs = m.submit(1, c.Choose(targets=(sentry,)))
    negated = one(envs, ev.EffectAdded)
    assert negated.clause == "W-14.6" and negated.event.effect.skill == "防衛"
    assert not stats(m, 2, 4).has("防衛")
    m.submit(1, c.Proceed(to="battle"))
    attack(m, 1, 1)
    passes(m)
    assert c.Block(line=4) not in m.legal(2)
    illegal(m, 2, c.Block(line=4), "W-12.4")
