"""M-5 action phase: ambush at its start, movement, attacks, activated skills, repetition."""
from __future__ import annotations

from kifu.domain.masters import events as ev

from .scenario import Pos, c, illegal, kinds, of, sq


def test_M_5_the_action_phase_follows_main_1_and_precedes_main_2():
    p = Pos().phase("main1")
    assert of(p.passes(), ev.PhaseBegan)[0].event.phase == "action"
    assert of(p.passes(), ev.PhaseBegan)[0].event.phase == "main2"


def test_M_5_1_ambush_at_the_start_of_the_action_phase_until_a_piece_moves():
    p = Pos().phase("action").mana(1, 4)
    runner = p.piece(1, "槍兵", "a2")
    archer = p.hand(1, "伏兵の弓手")
    second = p.hand(1, "伏兵の弓手")     # in hand from the start (not left to a draw of the match's stream)
    envs = p.do(1, c.Summon(card=archer, square="b2"))
    assert envs[0].event.ambush and envs[0].clause == "M-Q7"
    p.do(2, c.Pass())
    p.do(1, c.Move(piece=runner, path=("a3",)))
    p.do(2, c.Pass())
    illegal(p, 1, c.Summon(card=second, square="d2"), "M-5.1")


def test_M_5_2_a_piece_moves_along_a_path_and_is_tapped():
    p = Pos().phase("action")
    scout = p.piece(1, "斥候", "a2")
    envs = p.do(1, c.Move(piece=scout, path=("a3", "b3")))
    assert kinds(envs) == ["PieceMoved"] and envs[0].clause == "M-5.2"
    assert p.state.piece(scout).square == sq("b3") and p.state.piece(scout).tapped
    p.do(2, c.Pass())
    illegal(p, 1, c.Move(piece=scout, path=("b4",)), "M-5.2")


def test_M_5_2_pieces_move_only_in_the_action_phase_with_an_empty_stack():
    p = Pos().phase("main1")
    a = p.piece(1, "槍兵", "a2")
    illegal(p, 1, c.Move(piece=a, path=("a3",)), "M-5.2")


def test_M_5_3_moving_into_an_enemy_piece_begins_a_combat():
    p = Pos().phase("action")
    a = p.piece(1, "槍兵", "c3")
    d = p.piece(2, "槍兵", "c4")
    envs = p.do(1, c.Move(piece=a, path=("c4",)))
    assert kinds(envs) == ["AttackMoved", "CombatBegan"] and envs[0].clause == "M-5.3"
    assert envs[1].clause == "M-8.1" and envs[1].cause == envs[0].seq and envs[1].event.defender == d


def test_M_5_4_activated_skills_at_any_priority_with_costs():
    p = Pos().phase("action", holder=2).mana(2, 1)
    healer = p.piece(2, "癒し手", "c5")
    hurt = p.piece(2, "剣士", "d5", damage=2)
    envs = p.do(2, c.Activate(card=healer, target="d5"))
    assert envs[0].clause == "M-5.4" and envs[0].event.paid == 1 and envs[0].event.tapped
    assert p.state.piece(healer).tapped and p.state.untapped_mana(2) == 0
    p.do(1, c.Pass())
    illegal(p, 2, c.Activate(card=healer, target="d5"), "M-5.4")
    envs = p.do(2, c.Pass())
    assert of(envs, ev.PieceHealed)[0].event.amount == 2 and p.state.piece(hurt).damage == 0


def test_M_5_4_activated_skills_belong_to_the_action_phase_alone():
    """The seed lists 「スタックにかかわらず(アクティブ)スキルを起動できます」 under the action phase
    only (and skills in combat, which is inside it); main, standby and end list what else they allow."""
    for phase in ("standby", "main1", "main2", "end"):
        p = Pos().phase(phase, holder=2).mana(2, 1)
        healer = p.piece(2, "癒し手", "c5")
        p.piece(2, "剣士", "d5", damage=2)
        exc = illegal(p, 2, c.Activate(card=healer, target="d5"), "M-5.4")
        assert "action phase" in exc.reason
        assert not [x for x in p.legal(2) if isinstance(x, c.Activate)]
    q = Pos().phase("action", holder=2).mana(2, 1)
    healer = q.piece(2, "癒し手", "c5")
    q.piece(2, "剣士", "d5", damage=2)
    assert c.Activate(card=healer, target="d5") in q.legal(2)


def test_M_5_5_the_action_phase_repeats_until_both_do_nothing():
    p = Pos().phase("action")
    a = p.piece(1, "槍兵", "a2")
    b = p.piece(1, "槍兵", "e2")
    p.do(1, c.Move(piece=a, path=("a3",)))
    p.do(2, c.Pass())
    p.do(1, c.Move(piece=b, path=("e3",)))
    p.do(2, c.Pass())
    assert p.state.phase == "action" and p.state.priority.holder == 1
    p.do(1, c.Pass())                                   # seat 2 passed, then seat 1: both do nothing
    assert p.state.phase == "main2"
