"""W-9 statuses other than sleep: poison (W-9.2), paralysis (W-9.3, W-Q10), curse (W-9.4), rage
(W-9.5, W-Q9), and one status at a time, the newest replacing the old.

Units: 大地の戦士 STR3 VIT3 AGI1; 潮騒の槍兵 STR2 VIT3 AGI1; 雷獣 STR2 VIT3 AGI2 (after combat: the
opposing combat unit gets [CON=麻痺]); 狂戦士 STR4 VIT2 AGI1 (on summon: itself [CON=激昂]).
"""
from __future__ import annotations

from skill_scenarios import Phase, Pos, Status, attack, c, ev, folds, illegal, kinds, of, one, passes, stats


def _to_seat_1s_start(m) -> list:
    """From seat 2's main phase: end its turn; seat 1's start phase runs."""
    return m.submit(2, c.Proceed(to="end"))


# -- W-9.2 poison ---------------------------------------------------------------------------------
def test_W_9_2_a_poisoned_unit_keeps_its_damage_at_its_start_phase():
    p = Pos(p1=["大地の戦士", "潮騒の槍兵"], p2=["毒霧"]).at(Phase.MAIN1, 2)
    warrior = p.unit(1, 1, "大地の戦士", damage=2)
    p.unit(1, 2, "潮騒の槍兵", damage=1)
    mist, = p.hand(2, "毒霧")
    p.souls(2, 2)
    m = p.build()
    envs = m.submit(2, c.Cast(card=mist, line=1, souls=m.state.side(2).soul, targets=(warrior,)))
    given = one(envs, ev.StatusGiven)
    assert given.clause == "W-9" and given.event == ev.StatusGiven(seat=1, line=1, status="毒")
    envs = _to_seat_1s_start(m)
    assert one(envs, ev.DamageRemoved).event.lines == (2,)
    assert m.state.side(1).stage[0].damage == 2 and m.state.side(1).stage[1].damage == 0
    assert m.state.side(1).stage[0].status == Status.POISON       # it lasts
    folds(m)


def test_W_9_2_poison_lasts_until_an_effect_removes_it():
    p = Pos(p1=["大地の戦士", "解呪の光"]).at(Phase.MAIN1, 2)
    warrior = p.unit(1, 1, "大地の戦士", damage=2, status=Status.POISON)
    light, = p.hand(1, "解呪の光")
    p.souls(1, 1)
    m = p.build()
    _to_seat_1s_start(m)
    m.submit(1, c.Proceed(to="end"))
    assert m.state.side(1).stage[0].status == Status.POISON
    m.submit(2, c.Proceed(to="end"))
    envs = m.submit(1, c.Cast(card=light, line=1, souls=m.state.side(1).soul, targets=(warrior,)))
    assert one(envs, ev.StatusRemoved).event == ev.StatusRemoved(seat=1, line=1, status="毒")
    m.submit(1, c.Proceed(to="end"))
    envs = m.submit(2, c.Proceed(to="end"))
    assert one(envs, ev.DamageRemoved).event.lines == (1,)


def test_W_9_2_poison_on_attack_by_a_serpent():
    p = Pos(p1=["毒牙の蛇"], p2=["大地の戦士"]).at(Phase.BATTLE, 1)
    p.unit(1, 2, "毒牙の蛇")
    warrior = p.unit(2, 4, "大地の戦士")
    m = p.build()
    envs = m.submit(1, c.Attack(line=2))
    assert m.state.choice is not None and m.state.choice.options == (warrior,)
    envs = m.submit(1, c.Choose(targets=(warrior,)))
    assert one(envs, ev.StatusGiven).event.status == "毒"
    assert m.state.combat.step == "target"


# -- W-9.3 paralysis ------------------------------------------------------------------------------
def test_W_9_3_paralysis_cancels_the_next_recovery_and_is_used_up():
    p = Pos(p1=["雷獣"], p2=["大地の戦士"]).at(Phase.BATTLE, 1)
    p.unit(1, 2, "雷獣")
    warrior = p.unit(2, 2, "大地の戦士")
    m = p.build()
    attack(m, 2, 2)
    passes(m)
    envs = m.submit(2, c.NoDefense()) + passes(m)
    given = one(envs, ev.StatusGiven)
    assert given.event == ev.StatusGiven(seat=2, line=2, status="麻痺")
    assert m.state.side(2).stage[1].broken                     # it defended, so it broke
    envs = m.submit(1, c.Proceed(to="end"))                    # seat 2's start phase
    cancelled = one(envs, ev.RecoveryCancelled)
    assert cancelled.clause == "W-9.3" and cancelled.event == ev.RecoveryCancelled(seat=2, line=2)
    assert all(2 not in e.event.units for e in of(envs, ev.Recovered))
    unit = m.state.side(2).stage[1]
    assert unit.card == warrior and unit.broken and unit.status is None
    m.submit(2, c.Proceed(to="end"))
    envs = m.submit(1, c.Proceed(to="end"))                    # the next start phase recovers it
    assert 2 in one(envs, ev.Recovered).event.units and not m.state.side(2).stage[1].broken
    folds(m)


def test_W_Q10_paralysis_on_a_ready_unit_waits_for_a_recovery_that_would_do_something():
    p = Pos(p1=["大地の戦士"]).at(Phase.MAIN1, 2)
    p.unit(1, 1, "大地の戦士", status=Status.PARALYSIS)
    m = p.build()
    envs = _to_seat_1s_start(m)
    assert not of(envs, ev.RecoveryCancelled)
    assert m.state.side(1).stage[0].status == Status.PARALYSIS


def test_W_9_3_paralysis_does_not_stop_attacking_or_moving():
    p = Pos(p1=["大地の戦士"]).at(Phase.MAIN1, 1)
    p.unit(1, 1, "大地の戦士", status=Status.PARALYSIS)
    m = p.build()
    assert c.Move(line=1, to=2) in m.legal(1)
    m.submit(1, c.Proceed(to="battle"))
    assert c.Attack(line=1) in m.legal(1)


# -- W-9.4 curse ----------------------------------------------------------------------------------
def test_W_9_4_a_cursed_unit_has_no_keyword_and_no_granted_skill():
    p = Pos(p1=["強襲の狼", "風纏いの剣士"]).at(Phase.BATTLE, 1)
    p.pile(1, 2, 1)
    p.tower(1, 2, "風纏いの剣士")
    p.unit(1, 2, "強襲の狼", status=Status.CURSE)
    m = p.build()
    assert stats(m, 1, 2).keywords == frozenset() and "*" in stats(m, 1, 2).negated
    envs = attack(m, 2, 2)
    assert not of(envs, ev.EffectAdded)                          # no 強襲 bonus
    passes(m)
    envs = m.submit(2, c.NoDefense()) + passes(m)
    assert one(envs, ev.PlayerAttacked).event.STR == 2


def test_W_9_4_a_cursed_unit_has_no_triggered_skill():
    p = Pos(p1=["突撃兵"]).at(Phase.BATTLE, 1)
    p.unit(1, 2, "突撃兵", status=Status.CURSE)
    m = p.build()
    envs = m.submit(1, c.Attack(line=2))
    assert kinds(envs) == [("AttackDeclared", "W-12.1")]


def test_W_9_4_a_cursed_unit_gives_no_lasting_effect():
    p = Pos(p1=["群れの長", "強襲の狼"])
    p.unit(1, 1, "群れの長", status=Status.CURSE)
    p.unit(1, 2, "強襲の狼")
    assert stats(p.build(), 1, 2).STR == 2


def test_W_9_4_a_cursed_unit_cannot_activate():
    p = Pos(p1=["呪術師", "大地の戦士"])
    witch = p.unit(1, 1, "呪術師", status=Status.CURSE)
    warrior = p.unit(1, 3, "大地の戦士")
    m = p.build()
    illegal(m, 1, c.Activate(card=witch, skill=0, targets=(warrior,)), "W-9.4")


def test_W_9_4_a_cursed_unit_loses_its_prohibition_and_is_destroyed_by_a_spell():
    p = Pos(p1=["呪術師", "破滅の呪文"], p2=["不壊の守護者"])
    witch = p.unit(1, 1, "呪術師")
    guardian = p.unit(2, 3, "不壊の守護者")
    doom, = p.hand(1, "破滅の呪文")
    p.pile(1, 4, 4)
    m = p.build()
    m.submit(1, c.Activate(card=witch, skill=0, targets=(guardian,)))
    envs = m.submit(1, c.Cast(card=doom, line=1, towers=(4,), targets=(guardian,)))
    assert not of(envs, ev.DestroyPrevented) and one(envs, ev.UnitDestroyed).event.card == guardian
    folds(m)


def test_W_9_4_curse_lasts_past_the_end_of_the_turn():
    p = Pos(p1=["大地の戦士"])
    p.unit(1, 1, "大地の戦士", status=Status.CURSE)
    m = p.build()
    m.submit(1, c.Proceed(to="end"))
    m.submit(2, c.Proceed(to="end"))
    assert m.state.side(1).stage[0].status == Status.CURSE


# -- W-9.5 rage -----------------------------------------------------------------------------------
def _berserker() -> tuple:
    p = Pos(p1=["狂戦士"])
    berserker, = p.hand(1, "狂戦士")
    p.pile(1, 4, 3)
    m = p.build()
    envs = m.submit(1, c.Summon(card=berserker, line=2, towers=(4,)))
    return m, berserker, envs


def test_W_9_rage_replaces_the_sleep_of_summoning():
    m, berserker, envs = _berserker()
    given = one(envs, ev.StatusGiven)
    assert given.event == ev.StatusGiven(seat=1, line=2, status="激昂", replaced="睡眠")
    assert m.state.side(1).stage[1].status == Status.RAGE
    folds(m)


def test_W_9_5_a_raging_unit_must_attack_if_it_can():
    m, berserker, _ = _berserker()
    assert c.Proceed(to="end") not in m.legal(1)
    illegal(m, 1, c.Proceed(to="end"), "W-9.5")
    m.submit(1, c.Proceed(to="battle"))
    assert m.legal(1) == [c.Attack(line=2)]
    illegal(m, 1, c.Proceed(to="main2"), "W-9.5")
    attack(m, 2, 2)
    passes(m)
    envs = m.submit(2, c.NoDefense()) + passes(m)
    removed = one(envs, ev.StatusRemoved)
    assert removed.clause == "W-9.5" and removed.event.status == "激昂"
    assert envs.index(removed) > envs.index(one(envs, ev.CombatEnded))
    assert m.state.side(1).stage[1].status is None
    m.submit(1, c.Proceed(to="main2"))
    folds(m)


def test_W_9_5_a_raging_unit_cannot_move_or_activate():
    p = Pos(p1=["狂戦士", "呪術師"])
    p.unit(1, 2, "狂戦士", status=Status.RAGE)
    witch = p.unit(1, 4, "呪術師", status=Status.RAGE)
    m = p.build()
    illegal(m, 1, c.Move(line=2, to=1), "W-9.5")
    illegal(m, 1, c.Activate(card=witch, skill=0, targets=(witch,)), "W-9.5")
    assert not any(isinstance(x, (c.Move, c.Activate)) for x in m.legal(1))


def test_W_9_5_a_raging_unit_cannot_evade_and_loses_rage_after_defending():
    p = Pos(p1=["潮騒の槍兵"], p2=["雷獣"]).at(Phase.BATTLE, 1)
    p.unit(1, 2, "潮騒の槍兵")
    p.unit(2, 2, "雷獣", status=Status.RAGE)                   # AGI 2 >= attacker's 1
    m = p.build()
    attack(m, 2, 2)
    passes(m)
    assert c.Evade() not in m.legal(2)
    illegal(m, 2, c.Evade(), "W-9.5")
    envs = m.submit(2, c.NoDefense()) + passes(m)
    assert one(envs, ev.StatusRemoved).event == ev.StatusRemoved(seat=2, line=2, status="激昂")


def test_W_Q9_rage_persists_on_a_unit_that_cannot_attack():
    p = Pos(p1=["狂戦士"])
    p.unit(1, 2, "狂戦士", status=Status.RAGE, broken=True)
    m = p.build()
    m.submit(1, c.Proceed(to="end"))
    assert m.state.side(1).stage[1].status == Status.RAGE


def test_W_Q9_rage_does_not_force_the_first_players_first_turn():
    p = Pos(p1=["狂戦士"]).at(Phase.MAIN1, 1, turn=1)
    p.unit(1, 2, "狂戦士", status=Status.RAGE)
    m = p.build()
    m.submit(1, c.Proceed(to="end"))
    assert m.state.turn == 2


# -- W-9 one status at a time ----------------------------------------------------------------------
def test_W_9_a_new_status_replaces_the_old_one():
    p = Pos(p1=["眠りの歌"], p2=["大地の戦士"])
    warrior = p.unit(2, 3, "大地の戦士", damage=1, status=Status.POISON)
    song, = p.hand(1, "眠りの歌")
    p.souls(1, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=song, line=1, souls=m.state.side(1).soul, targets=(warrior,)))
    assert one(envs, ev.StatusGiven).event == ev.StatusGiven(seat=2, line=3, status="睡眠", replaced="毒")
    envs = m.submit(1, c.Proceed(to="end"))          # sleep ends; the poison is gone with it
    assert one(envs, ev.SleepRemoved).event.lines == (3,)
    assert 3 in one(envs, ev.DamageRemoved).event.lines
    assert m.state.side(2).stage[2].status is None
