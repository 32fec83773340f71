"""W-8 units: summoning, moving, destruction into soul, vanishing into the graveyard; W-15 broken."""
from __future__ import annotations

from scenario import Phase, Position, Status, attack, c, defend, draft_on, illegal, kinds, of, one

from kifu.domain.worlfard import checks
from kifu.domain.worlfard import events as ev


def test_W_8_1_summon_to_an_empty_own_spot_enters_asleep():
    p = Position().at(Phase.MAIN1)
    p.pile(1, 1, 2)
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    envs = m.submit(1, c.Summon(card=swordsman, line=3, towers=(1,)))
    declared = envs[0]
    assert (declared.kind, declared.clause, declared.event) == (
        "decision", "W-8.1", ev.SummonDeclared(seat=1, card=swordsman, line=3, towers=(1,)))
    summoned = one(envs, ev.UnitSummoned)
    assert summoned.event == ev.UnitSummoned(seat=1, card=swordsman, line=3, asleep=True)
    assert summoned.cause == declared.seq
    unit = m.state.side(1).stage[2]
    assert (unit.card, unit.damage, unit.broken, unit.status) == (swordsman, 0, False, Status.SLEEP)
    assert swordsman not in m.state.side(1).hand


def test_W_8_1_summon_only_in_a_main_phase():
    p = Position().at(Phase.BATTLE)
    p.pile(1, 1, 2)
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    illegal(p.build(), 1, c.Summon(card=swordsman, line=3, towers=(1,)), "W-8.1")


def test_W_8_1_summoned_card_comes_from_own_hand():
    p = Position().at(Phase.MAIN1)
    p.pile(1, 1, 2)
    deck_card = p.state.side(1).deck[0]
    m = p.build()
    illegal(m, 1, c.Summon(card=deck_card, line=3, towers=(1,)), "W-8.1")
    illegal(m, 1, c.Summon(card=m.state.side(2).hand[0], line=3, towers=(1,)), "W-8.1")


def test_W_8_2_move_to_an_adjacent_empty_spot_breaks_the_unit():
    p = Position().at(Phase.MAIN1)
    warrior = p.unit(1, 2, "大地の戦士")
    m = p.build()
    assert {cmd for cmd in m.legal(1) if isinstance(cmd, c.Move)} == {c.Move(line=2, to=1), c.Move(line=2, to=3)}
    envs = m.submit(1, c.Move(line=2, to=1))
    assert kinds(envs) == [("UnitMoved", "W-8.2"), ("UnitBroken", "W-8.2")]
    assert envs[0].kind == "decision" and envs[1].cause == envs[0].seq
    assert envs[1].event == ev.UnitBroken(seat=1, line=1)
    stage = m.state.side(1).stage
    assert stage[1] is None and stage[0].card == warrior and stage[0].broken


def test_W_8_2_move_only_to_an_adjacent_spot():
    p = Position().at(Phase.MAIN1)
    p.unit(1, 2, "大地の戦士")
    m = p.build()
    illegal(m, 1, c.Move(line=2, to=4), "W-8.2")
    illegal(m, 1, c.Move(line=2, to=2), "W-8.2")


def test_W_8_2_move_only_to_an_empty_spot():
    p = Position().at(Phase.MAIN1)
    p.unit(1, 2, "大地の戦士")
    p.unit(1, 3, "火蜥蜴サラマン")
    m = p.build()
    illegal(m, 1, c.Move(line=2, to=3), "W-8.2")


def test_W_8_2_a_broken_unit_cannot_move():
    p = Position().at(Phase.MAIN1)
    p.unit(1, 2, "大地の戦士", broken=True)
    m = p.build()
    assert not any(isinstance(cmd, c.Move) for cmd in m.legal(1))
    illegal(m, 1, c.Move(line=2, to=1), "W-8.2")


def test_W_8_2_move_only_in_a_main_phase_and_only_an_own_unit():
    p = Position().at(Phase.BATTLE)
    p.unit(1, 2, "大地の戦士")
    p.unit(2, 4, "大地の戦士")
    m = p.build()
    illegal(m, 1, c.Move(line=2, to=1), "W-8.2")
    m2 = Position(m).at(Phase.MAIN1).build()
    illegal(m2, 1, c.Move(line=4, to=5), "W-8.2")


def test_W_8_3_destroyed_unit_goes_to_its_owners_soul():
    p = Position()
    p.unit(1, 3, "焔の巨兵")                    # STR 6
    victim = p.unit(2, 3, "潮騒の槍兵")          # VIT 3
    p.at(Phase.BATTLE, seat=1)
    m = p.build()
    attack(m, 3, 3)
    envs = defend(m, c.NoDefense())
    destroyed = one(envs, ev.UnitDestroyed)
    assert (destroyed.clause, destroyed.event) == ("W-8.3",
                                                   ev.UnitDestroyed(seat=2, line=3, card=victim, damage=6, VIT=3))
    assert destroyed.cause == of(envs, ev.CombatDamage)[0].seq
    assert m.state.side(2).stage[2] is None
    assert m.state.side(2).soul == (victim,) and victim not in m.state.side(1).soul


def test_W_8_3_damage_equal_to_VIT_destroys_and_below_does_not():
    p = Position()
    p.unit(1, 3, "紅蓮の剣士")                  # STR 3, VIT 2
    p.unit(2, 3, "大地の戦士")                  # STR 3, VIT 3: exactly its VIT
    p.at(Phase.BATTLE, seat=1)
    m = p.build()
    attack(m, 3, 3)
    envs = defend(m, c.NoDefense())
    assert sorted(e.event.seat for e in of(envs, ev.UnitDestroyed)) == [1, 2]
    q = Position()
    q.unit(1, 3, "紅蓮の剣士")
    survivor = q.unit(2, 3, "岩窟のゴーレム")    # VIT 5, DEF 1: takes 2
    q.at(Phase.BATTLE, seat=1)
    m = q.build()
    attack(m, 3, 3)
    envs = defend(m, c.NoDefense())
    assert [e.event.seat for e in of(envs, ev.UnitDestroyed)] == [1]   # only the attacker (VIT 2, took 2)
    assert m.state.side(2).stage[2].card == survivor and m.state.side(2).stage[2].damage == 2


def test_W_8_4_unit_whose_VIT_is_0_vanishes_to_the_graveyard(monkeypatch):
    """No card lowers VIT yet: the check is run with the unit's VIT reported as 0 (W-Q5)."""
    p = Position()
    doomed = p.unit(2, 2, "潮騒の槍兵", damage=5)
    m = p.build()
    real = checks.unit_stat

    def stat(state, seat, line, name):
        value = real(state, seat, line, name)
        return 0 if name == "VIT" and state.side(seat).stage[line - 1].card == doomed else value

    monkeypatch.setattr(checks, "unit_stat", stat)
    draft = draft_on(m)
    checks.settle(draft, m.seq)
    assert kinds(draft.envelopes) == [("UnitVanished", "W-8.4")]
    assert draft.envelopes[0].event == ev.UnitVanished(seat=2, line=2, card=doomed)
    side = draft.state.side(2)
    assert side.stage[1] is None and side.grave[-1] == doomed and doomed not in side.soul


def test_W_15_broken_unit_takes_no_action_that_breaks_it():
    p = Position().at(Phase.BATTLE)
    p.unit(1, 2, "大地の戦士", broken=True)
    m = p.build()
    assert c.Attack(line=2) not in m.legal(1)
    illegal(m, 1, c.Attack(line=2), "W-12.1")
