"""M-C1 .. M-C10: the sample set exercises every mechanic the digest lists."""
from __future__ import annotations

from kifu.domain.masters import events as ev
from kifu.domain.masters.cards import catalog

from .scenario import Pos, c, illegal, kinds, of


def test_M_C1_mov_0_1_and_2_plus_path_attack_blocker_and_counter():
    movs = {d.mov for d in catalog().values() if d.kind == "piece"}
    assert {0, 1, 2, 3} <= movs
    p = Pos().phase("action")
    wall = p.piece(1, "石壁の番人", "a2")
    scout = p.piece(1, "斥候", "c2")
    p.piece(2, "槍兵", "c3")                                   # a blocker right in front
    illegal(p, 1, c.Move(piece=wall, path=("a3",)), "M-5.2")
    illegal(p, 1, c.Move(piece=scout, path=("c3", "c4")), "M-Q2")
    p.do(1, c.Move(piece=scout, path=("c3",)))
    dmg = of(p.passes(), ev.CombatDamage)[0]
    assert dmg.event.countered                                 # MOV 1 counters; MOV 0 never (M-8.5 tests)


def test_M_C2_increase_and_reduction_and_mutual_destruction():
    p = Pos().phase("action")
    berserker = p.piece(1, "狂戦士", "c3")                     # ATK 3 + fury 2
    heavy = p.piece(2, "重装兵", "c4")                         # HP 4, armor 1, ATK 2
    p.do(1, c.Move(piece=berserker, path=("c4",)))
    envs = p.passes()
    dmg = of(envs, ev.CombatDamage)[0].event
    assert dmg.dealt == 4 and dmg.taken == 2                   # 3 + 2 - 1 = 4 ≥ HP 4; 2 ≥ HP 2
    assert {e.event.card for e in of(envs, ev.PieceDestroyed)} == {berserker, heavy}


def test_M_C3_a_quick_piece_moves_the_turn_it_is_summoned():
    p = Pos().phase("main1").mana(1, 2)
    wolf = p.hand(1, "疾風の狼")
    p.do(1, c.Summon(card=wolf, square="c2"))
    p.passes()                                                 # into the action phase
    envs = p.do(1, c.Move(piece=wolf, path=("c3", "c4")))
    assert envs[0].clause == "M-5.2"


def test_M_C4_a_stack_of_three_resolves_last_in_first_out():
    p = Pos().phase("action").mana(1, 3).mana(2, 1)
    target = p.piece(2, "剣士", "c4")                          # HP 3
    shield = p.piece(2, "盾の術士", "e5")
    fire = p.piece(1, "火の術士", "a1")
    drum = p.piece(1, "戦鼓の奏者", "b1")
    p.do(1, c.Activate(card=fire, target="c4"))           # 1: 1 damage
    p.do(2, c.Activate(card=shield, target="c4"))         # 2: shield 2 in response (M-2.1: seat 2 holds priority)
    p.do(1, c.Activate(card=drum, target="a1"))           # 3: ATK +1 to the fire mage
    assert [i.card for i in p.state.stack] == [fire, shield, drum]
    order = []
    for _ in range(3):
        envs = p.passes()
        order += [e.event.card for e in of(envs, ev.Resolved)]
    assert order == [drum, shield, fire]
    assert p.state.piece(target).damage == 0                   # 1 - shield 2


def test_M_C5_combat_avoidance_only_by_the_attacked_piece_in_its_combat():
    p = Pos().phase("action", holder=2).mana(2, 1)
    ninja = p.piece(2, "霧隠れの忍", "c4")
    illegal(p, 2, c.Activate(card=ninja), "M-8.1")


def test_M_C6_charge_reads_the_attackers_original_square():
    p = Pos().phase("action")
    rider = p.piece(1, "騎兵", "a2")                           # ATK 2, charge
    wall = p.piece(2, "石壁の番人", "b4")
    p.do(1, c.Move(piece=rider, path=("a3", "a4", "b4")))
    dmg = of(p.passes(), ev.CombatDamage)[0]
    assert dmg.event.dealt == 4                                # 2 + |a2 -> a4| = 2 + 2
    assert p.state.piece(wall) is None


def test_M_C7_the_ambush_piece_is_in_the_set():
    assert catalog()["伏兵の弓手"].keyword("ambush") is not None


def test_M_C8_mana_from_draw_or_charge_and_face_up_charges_in_standby_and_end():
    p = Pos()
    a = p.hand(1, "槍兵")
    p.do(1, c.Charge())
    p.do(1, c.ChargePiece(card=a))
    assert [m.face_up for m in p.state.side(1).mana] == [False, True]
    q = Pos().phase("end")
    b = q.hand(1, "剣士")
    assert q.do(1, c.ChargePiece(card=b))[0].clause == "M-7.1"


def test_M_C9_direct_master_damage_and_the_special_victory():
    p = Pos().phase("main1").mana(1, 3)
    p.side(1, doom=2)
    end = p.hand(1, "終焉の刻")
    p.do(1, c.Cast(card=end))
    envs = p.passes()
    assert kinds(envs)[-3:] == ["DoomAdded", "PlayerLost", "MatchEnded"]
    assert of(envs, ev.DoomAdded)[0].clause == "M-C9"
    assert p.state.outcome.winner == 1 and "special victory" in p.state.outcome.termination
    q = Pos().phase("action")
    ghost = q.piece(2, "怨霊", "c4")
    a = q.piece(1, "剣士", "c3")
    q.do(1, c.Move(piece=a, path=("c4",)))
    envs = q.passes()
    hit = of(envs, ev.MasterDamaged)[0]
    assert hit.clause == "M-C10" and hit.event.seat == 1 and q.state.side(1).life == 9
    assert q.state.piece(ghost) is None


def test_M_C10_a_hand_limit_discard_does_not_fire_when_destroyed():
    p = Pos().phase("end")
    martyr = p.hand(1, "殉教者")
    while len(p.state.side(1).hand) < 9:
        p.hand(1, p.state.name(p.state.side(1).deck[0]))
    p.passes()
    envs = p.do(1, c.Discard(card=martyr))
    assert not of(envs, ev.CardsDrawn) or of(envs, ev.CardsDrawn)[0].clause != "M-C10"
    assert not of(envs, ev.PieceDestroyed)
    assert martyr in p.state.side(1).grave
    q = Pos().phase("main1").mana(1, 2)
    m2 = q.piece(2, "殉教者", "c4")
    q.do(1, c.Cast(card=q.hand(1, "火球"), target="c4"))
    envs = q.passes()
    drawn = of(envs, ev.CardsDrawn)
    assert drawn and drawn[0].clause == "M-C10" and drawn[0].event.seat == 2 and q.state.piece(m2) is None
