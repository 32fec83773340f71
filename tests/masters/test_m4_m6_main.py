"""M-4 main phase 1: the master's move, summoning, spells, ambush deployment."""
from __future__ import annotations

from kifu.domain.masters import events as ev

from .scenario import Pos, c, illegal, of, sq


def test_M_4_main_1_follows_standby_after_two_passes():
    p = Pos()
    p.do(1, c.Draw())
    envs = p.passes()
    assert of(envs, ev.PhaseBegan)[0].event.phase == "main1" and p.state.phase == "main1"


def test_M_4_1_the_master_moves_with_an_empty_stack():
    p = Pos().phase("main1")
    envs = p.do(1, c.MoveMaster(to="b2"))
    assert envs[0].clause == "M-4.1" and p.state.side(1).master == sq("b2")
    p2 = Pos().phase("main1").mana(1, 2)
    p2.piece(2, "槍兵", "c4")
    p2.do(1, c.Cast(card=p2.hand(1, "火球"), target="c4"))
    p2.do(2, c.Pass())                                  # M-2.1: the cast gave seat 2 priority
    illegal(p2, 1, c.MoveMaster(to="b2"), "M-4.1")


def test_M_4_2_summon_into_territory_or_around_the_master_paying_mana():
    p = Pos().phase("main1").mana(1, 3)
    p.master(1, "c3")            # the master has walked forward: around it is outside the territory
    a = p.hand(1, "槍兵")
    b = p.hand(1, "斥候")
    d = p.hand(1, "石壁の番人")
    wall = p.hand(1, "重装兵")
    envs = p.do(1, c.Summon(card=a, square="c4"))
    assert envs[0].clause == "M-4.2" and envs[0].event.paid == 1
    assert p.state.piece(a).fresh and p.state.untapped_mana(1) == 2
    p.do(2, c.Pass())                                   # M-2.1: priority alternates after a declaration
    p.do(1, c.Summon(card=b, square="e1"))
    assert p.state.piece(b).square == sq("e1")
    p.do(2, c.Pass())
    illegal(p, 1, c.Summon(card=d, square="a5"), "M-Q5")
    illegal(p, 1, c.Summon(card=d, square="c4"), "M-Q5")       # occupied
    illegal(p, 1, c.Summon(card=wall, square="a1"), "M-4.2")   # costs 3, 1 mana left


def test_M_4_2_a_summoned_piece_cannot_move_that_turn():
    p = Pos().phase("action")
    a = p.piece(1, "槍兵", "c2", fresh=True)
    illegal(p, 1, c.Move(piece=a, path=("c3",)), "M-5.2")
    assert not [x for x in p.legal(1) if isinstance(x, c.Move)]


def test_M_4_3_spells_in_the_main_phase_as_mana_allows():
    p = Pos().phase("main1").mana(1, 3)
    spell = p.hand(1, "雷撃")
    envs = p.do(1, c.Cast(card=spell))
    assert envs[0].clause == "M-4.3" and envs[0].event.paid == 3 and p.state.stack[-1].card == spell
    second = p.hand(1, "闘志")
    p.do(2, c.Pass())
    illegal(p, 1, c.Cast(card=second), "M-4.3")      # the stack is not empty
    q = Pos().phase("action").mana(1, 3)
    illegal(q, 1, c.Cast(card=q.hand(1, "雷撃")), "M-4.3")


def test_M_4_4_ambush_deployment_in_main_1_even_with_a_non_empty_stack():
    p = Pos().phase("main1").mana(1, 6)
    bolt = p.hand(1, "雷撃")
    archer = p.hand(1, "伏兵の弓手")
    spear = p.hand(1, "槍兵")
    p.do(1, c.Cast(card=bolt))
    p.do(2, c.Pass())
    envs = p.do(1, c.Summon(card=archer, square="a2"))
    assert envs[0].clause == "M-Q7" and envs[0].event.ambush
    p.do(2, c.Pass())
    illegal(p, 1, c.Summon(card=spear, square="b2"), "M-4.2")
