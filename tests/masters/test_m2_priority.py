"""M-2: priority and the stack, and the priority helper itself."""
from __future__ import annotations

from kifu.domain.core import priority as prio
from kifu.domain.masters import events as ev

from .scenario import Pos, c, illegal, kinds, of


def test_M_2_1_the_helper_alternates_priority_and_a_declaration_restarts_the_passes():
    p = prio.opened(1)
    assert p.holder == 1 and prio.verdict(p, True) == "continue"
    p = prio.passed(p)
    assert p.holder == 2 and p.passes == 1 and prio.verdict(p, True) == "continue"
    p = prio.acted(p, 2)
    assert p.holder == 1 and p.passes == 0          # a declaration passes priority too
    p = prio.passed(prio.passed(p))
    assert prio.verdict(p, False) == "resolve" and prio.verdict(p, True) == "advance"


def test_M_2_1_the_active_master_has_priority_first_and_every_pass_is_an_event():
    p = Pos().phase("main1")
    assert p.state.priority.holder == 1
    illegal(p, 2, c.Pass(), "M-2.1")
    envs = p.do(1, c.Pass())
    assert kinds(envs) == ["PriorityPassed"] and envs[0].clause == "M-2.1" and envs[0].kind == "decision"
    assert p.state.priority.holder == 2


def test_M_2_2_both_passing_resolves_the_top_then_both_passing_on_empty_advances():
    p = Pos().phase("main1").mana(1, 2)
    target = p.piece(2, "槍兵", "c4")
    spell = p.hand(1, "火球")
    p.do(1, c.Cast(card=spell, target="c4"))
    assert len(p.state.stack) == 1 and p.state.priority.holder == 2
    envs = p.passes()
    resolved = of(envs, ev.Resolved)[0]
    assert resolved.clause == "M-2.2" and resolved.cause == envs[1].seq
    assert of(envs, ev.PieceDestroyed)[0].event.card == target
    assert p.state.stack == () and p.state.phase == "main1" and p.state.priority.holder == 1
    envs = p.passes()
    began = of(envs, ev.PhaseBegan)[0]
    assert began.clause == "M-2.2" and began.event.phase == "action"


def test_M_2_2_a_skill_whose_target_is_gone_fizzles():
    p = Pos().phase("action").mana(1, 1).mana(2, 1)
    target = p.piece(2, "斥候", "c4")
    mage = p.piece(2, "火の術士", "d4")
    fire = p.piece(1, "火の術士", "a1")
    p.do(1, c.Activate(card=fire, target="c4"))
    p.do(2, c.Activate(card=mage, target="c4"))     # the defender's own mage finishes its piece
    envs = p.passes()                            # the skill resolves first (last in, first out)
    assert of(envs, ev.Resolved)[0].event.card == mage and not of(envs, ev.Resolved)[0].event.fizzled
    envs = p.passes()
    assert of(envs, ev.Resolved)[0].event.card == fire and of(envs, ev.Resolved)[0].event.fizzled
    assert p.state.piece(target) is None


def test_M_2_1_after_a_declaration_priority_passes_to_the_other_master():
    """宣言は優先権を持つマスターから行われ、次に相手マスターへと交互に優先権が移動します: the
    opponent may respond between two declarations of the other master, with no pass between."""
    p = Pos().phase("action").mana(1, 2).mana(2, 1)
    p.piece(2, "剣士", "c4")
    shield = p.piece(2, "盾の術士", "e5")
    fire = p.piece(1, "火の術士", "a1")
    drum = p.piece(1, "戦鼓の奏者", "b1")
    envs = p.do(1, c.Activate(card=fire, target="c4"))
    assert kinds(envs) == ["SkillActivated"] and p.state.priority.holder == 2 and p.state.priority.passes == 0
    illegal(p, 1, c.Activate(card=drum, target="a1"), "M-2.1")   # seat 1 declared: priority is seat 2's
    assert c.Activate(card=shield, target="c4") in p.legal(2)
    p.do(2, c.Activate(card=shield, target="c4"))
    assert p.state.priority.holder == 1
    p.do(1, c.Activate(card=drum, target="a1"))
    assert [i.seat for i in p.state.stack] == [1, 2, 1]
    p.do(2, c.Pass())
    assert p.state.stack and p.state.priority.holder == 1      # one pass: nothing resolves yet


def test_M_2_1_a_summon_or_a_move_is_a_declaration_too():
    p = Pos().phase("main1").mana(1, 2)
    spear = p.hand(1, "槍兵")
    p.do(1, c.Summon(card=spear, square="a2"))
    assert p.state.priority.holder == 2
    q = Pos().phase("action")
    scout = q.piece(1, "斥候", "a2")
    q.do(1, c.Move(piece=scout, path=("a3",)))
    assert q.state.priority.holder == 2 and q.state.phase == "action"


def test_a_pass_that_leaves_fewer_than_two_passes_continues():
    """decide and flow.pass_priority skip prio.verdict after a pass that leaves fewer than two
    passes in succession: that is its "continue" (the other master decides), stack or not."""
    from kifu.domain.core import priority as prio

    for holder in (1, 2):
        for passes in range(4):
            p = prio.Priority(holder=holder, passes=passes)
            for empty in (True, False):
                assert (prio.verdict(p, empty) == "continue") == (passes < 2)
