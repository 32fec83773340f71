"""W-1.1: losing by life 0 or by deck-out at one's start phase; both at once is a draw."""
from __future__ import annotations

import pytest
from scenario import Phase, Position, attack, c, defend, draft_on, kinds, of, one

from kifu.domain.core.errors import MatchOver
from kifu.domain.worlfard import checks
from kifu.domain.worlfard import events as ev


def _direct_attack(life: int, attacker: str = "紅蓮の剣士"):
    """Seat 1 attacks seat 2's empty spot 3 with ``attacker``; seat 2 has no ready heart."""
    p = Position()
    p.unit(1, 3, attacker)
    p.hearts(2, broken=(0, 1, 2)).life(2, life).at(Phase.BATTLE, seat=1)
    m = p.build()
    attack(m, 3, 3)
    return m, defend(m, c.NoDefense())


def test_W_1_1_life_zero_loses():
    m, envs = _direct_attack(life=3)          # 紅蓮の剣士 STR 3
    assert kinds(envs)[-4:] == [("PlayerAttacked", "W-12.6"), ("LifeLost", "W-12.6"),
                                ("PlayerLost", "W-1.1"), ("MatchEnded", "W-1.1")]
    lost = one(envs, ev.LifeLost)
    assert (lost.event.amount, lost.event.life) == (3, 0)
    assert one(envs, ev.PlayerLost).event == ev.PlayerLost(seat=2, reason="life 0")
    assert one(envs, ev.PlayerLost).cause == lost.seq
    assert one(envs, ev.MatchEnded).event.winner == 1
    assert m.outcome is not None and m.outcome.winner == 1 and m.outcome.clause == "W-1.1"
    assert m.state.phase == Phase.OVER and m.state.combat is None
    assert m.deciding is None and m.legal(1) == [] and m.legal(2) == []


def test_W_1_1_life_below_zero_loses():
    m, envs = _direct_attack(life=1)
    assert one(envs, ev.LifeLost).event.life == -2
    assert one(envs, ev.PlayerLost).event.reason == "life -2"
    assert m.outcome.winner == 1


def test_W_1_1_life_above_zero_plays_on():
    m, envs = _direct_attack(life=4)
    assert one(envs, ev.LifeLost).event.life == 1
    assert m.outcome is None
    assert kinds(envs)[-1] == ("CombatEnded", "W-12.8")


def test_W_1_1_no_decision_after_the_match_is_over():
    m, _ = _direct_attack(life=3)
    seq = m.seq
    for seat in (1, 2):
        with pytest.raises(MatchOver):
            m.submit(seat, c.Proceed(to="end"))
    assert m.seq == seq


def test_W_1_1_deck_out_at_start_phase_loses():
    p = Position()
    p.empty_deck(2).at(Phase.MAIN1, seat=1)
    m = p.build()
    envs = m.submit(1, c.Proceed(to="end"))
    began = one(envs, ev.TurnBegan)
    assert began.event == ev.TurnBegan(turn=4, seat=2)
    assert kinds(envs)[-3:] == [("DeckOut", "W-5.1"), ("PlayerLost", "W-1.1"), ("MatchEnded", "W-1.1")]
    out = one(envs, ev.DeckOut)
    assert out.cause == began.seq
    assert one(envs, ev.PlayerLost).event == ev.PlayerLost(seat=2, reason="deck out")
    assert one(envs, ev.PlayerLost).cause == out.seq
    assert of(envs, ev.CardDrawn) == []
    assert ev.PhaseBegan(phase=Phase.MAIN1) not in [e.event for e in envs]
    assert m.outcome.winner == 1 and m.outcome.termination == "deck out"


def test_W_1_1_empty_deck_loses_only_at_own_start_phase():
    """Seat 1 has no deck but it is seat 2's start phase next: nobody loses yet."""
    p = Position()
    p.empty_deck(1).at(Phase.MAIN1, seat=1)
    m = p.build()
    envs = m.submit(1, c.Proceed(to="end"))
    assert m.outcome is None
    assert one(envs, ev.CardDrawn).event.seat == 2
    assert m.state.phase == Phase.MAIN1 and m.state.turn_seat == 2


def test_W_1_1_both_lose_at_once_is_a_draw():
    """No card yet lowers both lives at once, so the state-based check is run directly."""
    p = Position()
    p.life(1, 0).life(2, -1)
    m = p.build()
    draft = draft_on(m)
    assert checks.check_losses(draft, m.seq) is True
    assert kinds(draft.envelopes) == [("PlayerLost", "W-1.1"), ("PlayerLost", "W-1.1"), ("MatchEnded", "W-1.1")]
    assert [e.event.seat for e in draft.envelopes[:2]] == [1, 2]
    assert draft.envelopes[-1].event == ev.MatchEnded(termination="both players lost at once", winner=None)
    assert draft.state.outcome.winner is None
    assert draft.state.outcome.describe().startswith("draw")
