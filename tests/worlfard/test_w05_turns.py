"""W-5 turn structure: start phase, main phases, battle, end phase, and who may act."""
from __future__ import annotations

import pytest
from scenario import Phase, Position, c, draft_on, illegal, kinds, of, one, started

from kifu.domain.core.errors import NotYourDecision
from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.turns import begin_turn


def test_W_5_1_start_phase_recovers_removes_damage_recovers_one_heart_then_draws():
    p = Position()
    p.pile(2, 2, 2, broken=True)
    p.unit(2, 3, "潮騒の槍兵", damage=2, broken=True)
    p.unit(2, 4, "大地の戦士")                      # ready and unhurt: nothing to do for it
    p.hearts(2, broken=(1, 2))
    p.pile(1, 1, 1, broken=True)                    # the other player's tower stays broken
    p.unit(1, 1, "紅蓮の剣士", damage=1, broken=True)
    p.at(Phase.MAIN2, seat=1)
    m = p.build()
    top = m.state.side(2).deck[0]
    envs = m.submit(1, c.Proceed(to="end"))
    assert kinds(envs) == [
        ("PhaseLeft", "W-5.2"), ("PhaseBegan", "W-5.5"), ("TurnBegan", "W-5"),
        ("Recovered", "W-5.1"), ("DamageRemoved", "W-5.1"), ("HeartRecovered", "W-11.3"),
        ("CardDrawn", "W-5.1"), ("PhaseBegan", "W-5.1")]
    began = one(envs, ev.TurnBegan)
    assert began.event == ev.TurnBegan(turn=4, seat=2)
    assert all(e.cause == began.seq for e in envs[3:-1])
    assert envs[0].seq <= envs[-1].cause < envs[-1].seq
    assert one(envs, ev.Recovered).event == ev.Recovered(seat=2, towers=(2,), units=(3,))
    assert one(envs, ev.DamageRemoved).event == ev.DamageRemoved(seat=2, lines=(3,))
    assert one(envs, ev.CardDrawn).event == ev.CardDrawn(seat=2, card=top)
    assert envs[-1].event == ev.PhaseBegan(phase=Phase.MAIN1)
    s2, s1 = m.state.side(2), m.state.side(1)
    assert not s2.towers[1].broken and s2.stage[2].damage == 0 and not s2.stage[2].broken
    assert [h.broken for h in s2.hearts] == [False, False, True]
    assert s2.hand[-1] == top
    assert s1.towers[0].broken and s1.stage[0].broken and s1.stage[0].damage == 1
    assert m.deciding == 2 and m.state.tower_set is False


def test_W_5_1_first_player_skips_draw_and_heart_recovery():
    m = started()
    began = one(m.envelopes, ev.TurnBegan)
    tail = m.envelopes[began.seq - 1:]
    assert kinds(tail) == [("TurnBegan", "W-5"), ("FirstTurnSkips", "W-5.1"), ("PhaseBegan", "W-5.1")]
    assert len(m.state.side(1).hand) == 6
    # the heart recovery is skipped as well (no card breaks a heart before turn 1, so it is set up here)
    p = Position(m)
    p.hearts(1, broken=(0,))
    draft = draft_on(p.build())
    begin_turn(draft, 1, 1, m.seq)
    assert of(draft.envelopes, ev.HeartRecovered) == [] and of(draft.envelopes, ev.CardDrawn) == []
    assert draft.state.side(1).hearts[0].broken
    # the second player's first turn is a normal start phase: it draws
    envs = m.submit(1, c.Proceed(to="end"))
    assert one(envs, ev.CardDrawn).event.seat == 2 and of(envs, ev.FirstTurnSkips) == []
    assert len(m.state.side(2).hand) == 7


def test_W_5_2_first_player_cannot_battle_on_first_turn():
    m = started()
    assert c.Proceed(to="battle") not in m.legal(1)
    assert c.Proceed(to="end") in m.legal(1)
    illegal(m, 1, c.Proceed(to="battle"), "W-5.2")


def test_W_5_2_second_player_may_battle_on_their_first_turn():
    m = started()
    m.submit(1, c.Proceed(to="end"))
    assert m.state.turn == 2 and c.Proceed(to="battle") in m.legal(2)
    envs = m.submit(2, c.Proceed(to="battle"))
    assert kinds(envs) == [("PhaseLeft", "W-5.2"), ("PhaseBegan", "W-5.3")]
    assert m.state.phase == Phase.BATTLE


def test_W_5_2_first_main_goes_to_battle_or_end_only():
    m = Position().at(Phase.MAIN1).build()
    assert [cmd for cmd in m.legal(1) if isinstance(cmd, c.Proceed)] == [c.Proceed(to="battle"), c.Proceed(to="end")]
    illegal(m, 1, c.Proceed(to="main2"), "W-5.2")


def test_W_5_3_battle_goes_to_second_main_or_end():
    m = Position().at(Phase.BATTLE).build()
    assert [cmd for cmd in m.legal(1) if isinstance(cmd, c.Proceed)] == [c.Proceed(to="main2"), c.Proceed(to="end")]
    illegal(m, 1, c.Proceed(to="battle"), "W-5.3")
    envs = m.submit(1, c.Proceed(to="main2"))
    assert kinds(envs) == [("PhaseLeft", "W-5.3"), ("PhaseBegan", "W-5.4")]
    assert m.state.phase == Phase.MAIN2


def test_W_5_4_second_main_goes_only_to_end():
    m = Position().at(Phase.MAIN2).build()
    assert [cmd for cmd in m.legal(1) if isinstance(cmd, c.Proceed)] == [c.Proceed(to="end")]
    illegal(m, 1, c.Proceed(to="battle"), "W-5.2")
    illegal(m, 1, c.Proceed(to="main2"), "W-5.2")


def test_W_5_5_end_phase_passes_the_turn_automatically():
    m = Position().at(Phase.BATTLE, seat=1, turn=5).build()
    envs = m.submit(1, c.Proceed(to="end"))
    end = envs[1]
    assert (end.clause, end.event, end.cause) == ("W-5.5", ev.PhaseBegan(phase=Phase.END), envs[0].seq)
    assert one(envs, ev.TurnBegan).event == ev.TurnBegan(turn=6, seat=2)
    assert one(envs, ev.TurnBegan).cause == end.seq
    assert (m.state.turn, m.state.turn_seat, m.state.phase, m.deciding) == (6, 2, Phase.MAIN1, 2)


def test_W_5_6_the_non_turn_player_cannot_act():
    m = started()
    card = m.state.side(2).hand[0]
    for command in (c.SetTower(card=card, line=1), c.Proceed(to="end")):
        seq, state = m.seq, m.state
        with pytest.raises(NotYourDecision) as caught:
            m.submit(2, command)
        assert caught.value.clause == "W-5.6"
        assert (m.seq, m.state) == (seq, state)
    assert m.legal(2) == []
