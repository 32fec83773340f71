"""M-Q1 .. M-Q13: the digest's proposals where the seed is silent, each behind one name."""
from __future__ import annotations

from kifu.domain.masters import board, vocabulary
from kifu.domain.masters import events as ev
from kifu.domain.masters.legal import legal

from .scenario import Pos, c, illegal, kinds, of, sq


def test_M_Q1_a_5_by_6_board_with_two_territory_rows_each():
    assert (vocabulary.BOARD_COLS, vocabulary.BOARD_ROWS, vocabulary.TERRITORY_ROWS) == (5, 6, 2)
    assert len(board.SQUARES) == 30
    assert board.territory(1) == frozenset(sq(f"{col}{row}") for col in "abcde" for row in (1, 2))
    assert board.territory(2) == frozenset(sq(f"{col}{row}") for col in "abcde" for row in (5, 6))
    assert board.master_start(1) == sq("c1") and board.master_start(2) == sq("c6")


def test_M_Q2_orthogonal_paths_never_pass_through_occupied_squares():
    occupied = {sq("b3"): 2, sq("a4"): 1}
    moves = board.paths(sq("a3"), 2, occupied, 1)
    reach = {path[-1] for path in moves}
    assert [path for path in moves if path[-1] == sq("b3")] == [(sq("b3"),)]   # an attack ends the path
    assert sq("c3") not in reach                                       # through the enemy: no
    assert sq("a4") not in reach and sq("a5") not in reach             # through a friend: no
    assert sq("b2") in reach and sq("b4") not in reach                 # diagonal costs 2 steps
    # with MOV 3, one attack per square it attacks from: straight from a3, or from b2
    three = board.paths(sq("a3"), 3, occupied, 1)
    befores = {path[-2] if len(path) > 1 else sq("a3") for path in three if path[-1] == sq("b3")}
    assert befores == {sq("a3"), sq("b2")}
    p = Pos().phase("action")
    scout = p.piece(1, "斥候", "a3")
    p.piece(2, "槍兵", "b3")
    illegal(p, 1, c.Move(piece=scout, path=("b3", "c3")), "M-Q2")
    illegal(p, 1, c.Move(piece=scout, path=("b4",)), "M-Q2")


def test_M_Q3_mov_1_counters_an_adjacent_attacker_even_tapped_and_mov_0_never():
    p = Pos().phase("action")
    a = p.piece(1, "剣士", "c3")
    p.piece(2, "槍兵", "c4", tapped=True)
    p.do(1, c.Move(piece=a, path=("c4",)))
    dmg = of(p.passes(), ev.CombatDamage)[0]
    assert dmg.event.countered and dmg.event.taken == 2


def test_M_Q4_the_master_steps_once_and_a_piece_entering_its_square_hits_its_life():
    p = Pos().phase("main1")
    illegal(p, 1, c.MoveMaster(to="c3"), "M-Q4")                   # two squares away
    p.do(1, c.MoveMaster(to="d2"))
    p.do(2, c.Pass())
    illegal(p, 1, c.MoveMaster(to="d3"), "M-6.1")                  # once per turn
    q = Pos().phase("action")
    a = q.piece(1, "狂戦士", "c5")                                      # ATK 3, fury 2
    q.do(1, c.Move(piece=a, path=("c6",)))
    assert q.state.combat.defender == 0
    envs = q.passes()
    assert kinds(envs)[2:] == ["CombatDamage", "MasterDamaged", "AttackStopped"]
    assert all(e.clause == "M-Q4" for e in envs[2:])
    assert q.state.side(2).life == 5 and q.state.piece(a).square == sq("c5")
    assert q.state.piece(a).damage == 0                                 # a master never counters


def test_M_Q5_around_the_master_is_the_8_squares():
    assert sorted(board.around(sq("c3"))) == sorted(sq(x) for x in ("b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"))
    assert len(board.around(sq("a1"))) == 3
    p = Pos().phase("main1").mana(1, 1)
    p.master(1, "c4")
    spear = p.hand(1, "槍兵")
    p.do(1, c.Summon(card=spear, square="d5"))
    assert p.state.piece(spear).square == sq("d5")


def test_M_Q6_each_mana_card_gives_one_generic_mana_and_untaps_in_standby():
    p = Pos().phase("main1").mana(1, 3)
    wolf = p.hand(1, "疾風の狼")
    heavy = p.hand(1, "重装兵")
    p.do(1, c.Summon(card=wolf, square="a2"))
    assert [m.tapped for m in p.state.side(1).mana] == [True, True, False]
    p.do(2, c.Pass())
    exc = illegal(p, 1, c.Summon(card=heavy, square="b2"), "M-4.2")
    assert "M-Q6" in exc.reason


def test_M_Q7_ambush_pieces_deploy_only_into_their_own_territory():
    p = Pos().phase("action").mana(1, 2)
    p.master(1, "c3")
    archer = p.hand(1, "伏兵の弓手")
    illegal(p, 1, c.Summon(card=archer, square="c4"), "M-Q7")      # around the master: not for ambush
    assert all(board.parse(cmd.square) in board.territory(1) for cmd in p.legal(1) if isinstance(cmd, c.Summon))


def test_M_Q8_spells_are_sorcery_speed_only():
    p = Pos().phase("main1", holder=2).mana(2, 3)
    bolt = p.hand(2, "雷撃")
    illegal(p, 2, c.Cast(card=bolt), "M-4.3")
    assert not [x for x in p.legal(2) if isinstance(x, c.Cast)]


def test_M_Q9_damage_stays_on_a_piece_across_turns():
    p = Pos().phase("end")
    a = p.piece(1, "剣士", "a2", damage=2)
    p.passes()
    assert p.state.turn == 2 and p.state.piece(a).damage == 2


def test_M_Q10_after_a_kill_the_attacker_stops_in_the_vacated_square():
    p = Pos().phase("action")
    a = p.piece(1, "騎兵", "c2")                 # MOV 3; it attacks after one step
    p.piece(2, "斥候", "c3")
    p.do(1, c.Move(piece=a, path=("c3",)))
    p.passes()
    assert p.state.piece(a).square == sq("c3") and p.state.piece(a).tapped
    illegal(p, 1, c.Move(piece=a, path=("c4",)), "M-5.2")


def test_M_Q11_with_an_empty_deck_only_draw_is_possible_and_it_loses():
    p = Pos()
    p.side(1, deck=())
    assert legal(p.state, 1) == [c.Draw()]
    illegal(p, 1, c.Charge(), "M-Q11")


def test_M_Q12_no_first_turn_restrictions():
    p = Pos()
    assert c.Charge() in p.legal(1) and c.Draw() in p.legal(1)
    p.do(1, c.Draw())
    p.passes()                                 # into main 1 of turn 1
    assert p.state.turn == 1 and p.state.phase == "main1"
    assert any(isinstance(x, c.MoveMaster) for x in p.legal(1))


def test_M_Q13_one_face_up_charge_per_turn_in_standby_or_end():
    p = Pos().phase("standby")
    a = p.hand(1, "槍兵")
    b = p.hand(1, "剣士")
    p.side(1, charged=False)
    p.do(1, c.ChargePiece(card=a))
    p.passes(2)                              # into main 1
    p.passes(2)
    p.passes(2)
    p.passes(2)                              # into end
    assert p.state.phase == "end"
    illegal(p, 1, c.ChargePiece(card=b), "M-Q13")
