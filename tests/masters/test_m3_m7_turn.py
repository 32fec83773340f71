"""M-3 standby, M-6 main 2 and M-7 end: the turn's frame."""
from __future__ import annotations

from kifu.domain.masters import events as ev
from kifu.domain.masters.state import Mana

from .scenario import Pos, c, illegal, kinds, of


def test_M_3_standby_begins_the_turn_and_draw_or_charge_is_awaited():
    p = Pos()
    assert p.state.phase == "standby" and p.state.pending == "draw" and p.build().awaiting == {1}
    began = of(p.base.envelopes, ev.TurnBegan)[0]
    assert began.clause == "M-3" and began.event.turn == 1 and began.event.seat == 1
    illegal(p, 1, c.Pass(), "M-3.2")


def test_M_3_1_untap_everything_of_the_active_master():
    p = Pos().phase("end", active=2)
    a = p.piece(1, "槍兵", "a1", tapped=True, fresh=True)
    b = p.piece(2, "槍兵", "a6", tapped=True)
    p.side(1, mana=(Mana(card=p.state.side(1).deck[-1], tapped=True),), deck=p.state.side(1).deck[:-1])
    envs = p.passes()
    assert kinds(envs)[-3:] == ["TurnEnded", "TurnBegan", "Untapped"] and envs[-1].clause == "M-3.1"
    assert not p.state.piece(a).tapped and not p.state.piece(a).fresh and p.state.piece(b).tapped
    assert not p.state.side(1).mana[0].tapped


def test_M_3_2_draw_or_charge_face_down():
    p = Pos()
    top = p.state.side(1).deck[0]
    envs = p.do(1, c.Charge())
    assert kinds(envs) == ["ChargeChosen", "ManaCharged"] and envs[1].clause == "M-3.2"
    assert p.state.side(1).mana == (Mana(card=top),) and p.state.priority.holder == 1
    q = Pos()
    top = q.state.side(1).deck[0]
    envs = q.do(1, c.Draw())
    assert kinds(envs) == ["DrawChosen", "CardsDrawn"] and q.state.side(1).hand[-1] == top


def test_M_3_3_a_piece_from_hand_face_up_in_standby_once():
    p = Pos()
    piece = p.hand(1, "槍兵")
    spell = p.hand(1, "火球")
    other = p.hand(1, "剣士")
    p.do(1, c.Draw())
    illegal(p, 1, c.ChargePiece(card=spell), "M-3.3")
    envs = p.do(1, c.ChargePiece(card=piece))
    assert envs[0].clause == "M-3.3" and envs[0].event.face_up
    assert p.state.side(1).mana[-1] == Mana(card=piece, face_up=True)
    p.do(2, c.Pass())
    illegal(p, 1, c.ChargePiece(card=other), "M-Q13")


def test_M_6_1_main_2_allows_the_master_to_move_only_if_it_has_not_moved():
    p = Pos().phase("main2")
    envs = p.do(1, c.MoveMaster(to="b1"))
    assert envs[0].clause == "M-6.1"
    p2 = Pos().phase("main2")
    p2.side(1, master_moved=True)
    illegal(p2, 1, c.MoveMaster(to="b1"), "M-6.1")


def test_M_6_1_main_2_summons_and_casts_like_main_1():
    p = Pos().phase("main2").mana(1, 4)
    piece = p.hand(1, "槍兵")
    spell = p.hand(1, "雷撃")
    assert p.do(1, c.Summon(card=piece, square="a2"))[0].clause == "M-6.1"
    p.do(2, c.Pass())
    assert p.do(1, c.Cast(card=spell))[0].clause == "M-4.3"


def test_M_7_the_turn_ends_effects_until_end_of_turn_end_and_the_other_turn_begins():
    p = Pos().phase("end")
    a = p.piece(1, "槍兵", "a2", atk_bonus=2, shield=1, damage=1)
    envs = p.passes()
    ended = of(envs, ev.TurnEnded)[0]
    assert ended.clause == "M-7"
    piece = p.state.piece(a)
    assert piece.atk_bonus == 0 and piece.shield == 0 and piece.damage == 1
    assert p.state.active == 2 and p.state.turn == 2 and p.state.pending == "draw"


def test_M_7_1_a_piece_charge_in_the_end_phase():
    p = Pos().phase("end")
    piece = p.hand(1, "剣士")
    envs = p.do(1, c.ChargePiece(card=piece))
    assert envs[0].clause == "M-7.1" and p.state.side(1).charged


def test_M_7_2_discard_down_to_8_one_card_at_a_time():
    p = Pos().phase("end")
    while len(p.state.side(1).hand) < 10:
        p.hand(1, p.state.name(p.state.side(1).deck[0]))
    envs = p.passes()
    limit = of(envs, ev.HandLimitReached)[0]
    assert limit.clause == "M-7.2" and limit.event.excess == 2 and p.state.pending == "discard"
    illegal(p, 1, c.Pass(), "M-7.2")
    hand = p.state.side(1).hand
    envs = p.do(1, c.Discard(card=hand[0]))
    assert kinds(envs) == ["HandDiscarded"] and envs[0].clause == "M-7.2"
    envs = p.do(1, c.Discard(card=hand[1]))
    assert kinds(envs)[1:3] == ["TurnEnded", "TurnBegan"]
    assert len(p.state.side(1).hand) == 8 and p.state.side(1).grave == hand[:2]
