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
    assert p.holder == 2 and p.passes == 0
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
    assert len(p.state.stack) == 1 and p.state.priority.holder == 1
    envs = p.passes()
    resolved = of(envs, ev.Resolved)[0]
    assert resolved.clause == "M-2.2" and resolved.cause == envs[1].seq
    assert of(envs, ev.PieceDestroyed)[0].event.card == target
    assert p.state.stack == () and p.state.phase == "main1" and p.state.priority.holder == 1
    envs = p.passes()
    began = of(envs, ev.PhaseBegan)[0]
    assert began.clause == "M-2.2" and began.event.phase == "action"


def test_M_2_2_a_spell_whose_target_is_gone_fizzles():
    p = Pos().phase("main1").mana(1, 2).mana(2, 1)
    target = p.piece(2, "斥候", "c4")
    mage = p.piece(2, "火の術士", "d4")
    spell = p.hand(1, "火球")
    p.do(1, c.Cast(card=spell, target="c4"))
    p.do(1, c.Pass())
    p.do(2, c.Activate(card=mage, target="c4"))     # the defender's own mage finishes its piece
    p.do(2, c.Pass())
    envs = p.do(1, c.Pass())                     # the skill resolves first (last in, first out)
    assert of(envs, ev.Resolved)[0].event.card == mage and not of(envs, ev.Resolved)[0].event.fizzled
    p.do(1, c.Pass())
    envs = p.do(2, c.Pass())
    assert of(envs, ev.Resolved)[0].event.fizzled
    assert p.state.piece(target) is None


def test_a_pass_that_leaves_fewer_than_two_passes_continues():
    """decide and flow.pass_priority skip prio.verdict after a pass that leaves fewer than two
    passes in succession: that is its "continue" (the other master decides), stack or not."""
    from kifu.domain.core import priority as prio

    for holder in (1, 2):
        for passes in range(4):
            p = prio.Priority(holder=holder, passes=passes)
            for empty in (True, False):
                assert (prio.verdict(p, empty) == "continue") == (passes < 2)
