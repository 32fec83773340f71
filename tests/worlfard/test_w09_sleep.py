"""W-9.1 sleep: given on summon, forbids moving, attacking, blocking and evading, removed at end phase.
W-9.2 poison is tested where the engine already reads it (the start-phase damage removal)."""
from __future__ import annotations

from scenario import Phase, Position, Status, attack, c, defend, illegal, kinds, one

from kifu.domain.worlfard import events as ev


def test_W_9_1_sleep_is_given_on_summon_and_removed_at_end_phase():
    p = Position().at(Phase.MAIN1)
    p.pile(1, 1, 2)
    (swordsman,) = p.hand(1, "紅蓮の剣士")
    m = p.build()
    m.submit(1, c.Summon(card=swordsman, line=3, towers=(1,)))
    assert m.state.side(1).stage[2].status == Status.SLEEP
    envs = m.submit(1, c.Proceed(to="end"))
    end = envs[1]
    assert end.event == ev.PhaseBegan(phase=Phase.END)
    removed = one(envs, ev.SleepRemoved)
    assert (removed.clause, removed.event, removed.cause) == ("W-9.1", ev.SleepRemoved(seat=1, lines=(3,)), end.seq)
    assert kinds(envs).index(("SleepRemoved", "W-9.1")) < kinds(envs).index(("TurnBegan", "W-5"))
    assert m.state.side(1).stage[2].status is None


def test_W_9_1_sleeping_unit_cannot_move():
    p = Position().at(Phase.MAIN1)
    p.unit(1, 3, "紅蓮の剣士", status=Status.SLEEP)
    m = p.build()
    assert not any(isinstance(cmd, c.Move) for cmd in m.legal(1))
    illegal(m, 1, c.Move(line=3, to=4), "W-9.1")


def test_W_9_1_sleeping_unit_cannot_attack():
    p = Position().at(Phase.BATTLE)
    p.unit(1, 3, "紅蓮の剣士", status=Status.SLEEP)
    m = p.build()
    assert c.Attack(line=3) not in m.legal(1)
    illegal(m, 1, c.Attack(line=3), "W-9.1")


def _defending(sleeper_line: int, sleeper: str = "潮騒の槍兵") -> Position:
    p = Position()
    p.unit(1, 3, "紅蓮の剣士")
    p.unit(2, sleeper_line, sleeper, status=Status.SLEEP)
    p.at(Phase.BATTLE, seat=1)
    return p


def test_W_9_1_sleeping_unit_cannot_block():
    m = _defending(2).build()
    attack(m, 3, 3)
    assert c.Block(line=2) not in m.legal(2)
    illegal(m, 2, c.Block(line=2), "W-9.1")


def test_W_9_1_sleeping_unit_cannot_evade():
    m = _defending(3).build()
    attack(m, 3, 3)
    assert c.Evade() not in m.legal(2)
    illegal(m, 2, c.Evade(), "W-9.1")


def test_W_9_1_sleeping_unit_on_the_target_spot_still_defends():
    p = _defending(3)
    m = p.build()
    sleeper = m.state.side(2).stage[2].card
    attack(m, 3, 3)
    envs = defend(m, c.NoDefense())
    assert one(envs, ev.DefenseFixed).event == ev.DefenseFixed(line=3, card=sleeper, decision=envs[0].seq)
    assert one(envs, ev.UnitBroken).event == ev.UnitBroken(seat=2, line=3)


def test_W_9_2_poisoned_unit_keeps_its_damage_at_start_phase():
    p = Position().at(Phase.MAIN1, seat=1)
    p.unit(2, 1, "大地の戦士", damage=1, status=Status.POISON)
    p.unit(2, 2, "潮騒の槍兵", damage=1)
    m = p.build()
    envs = m.submit(1, c.Proceed(to="end"))
    assert one(envs, ev.DamageRemoved).event == ev.DamageRemoved(seat=2, lines=(2,))
    assert m.state.side(2).stage[0].damage == 1 and m.state.side(2).stage[1].damage == 0
