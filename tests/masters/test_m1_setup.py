"""M-1: setup, decks, mulligans and the end of the match."""
from __future__ import annotations

from collections import Counter

import pytest

from kifu.domain.core.errors import InvalidDeck
from kifu.domain.masters import events as ev
from kifu.domain.masters.board import master_start
from kifu.domain.masters.decks import DeckList, parse_deck, preset, preset_names, validate

from .scenario import EVERY_CARD, Pos, c, illegal, kinds, of, started


def test_M_1_1_a_deck_has_exactly_40_cards_and_the_check_names_the_clause():
    with pytest.raises(InvalidDeck) as exc:
        validate(DeckList(name="short", cards=EVERY_CARD.cards[:39]))
    assert exc.value.clause == "M-1.1" and "40" in exc.value.reason
    assert all(len(preset(n).cards) == 40 for n in preset_names())


def test_M_1_1_deck_file_errors_name_the_rule_and_the_line():
    text = 'name = "x"\n\n[cards]\n"槍兵" = 4\n'
    with pytest.raises(InvalidDeck) as exc:
        parse_deck(text, "x.toml")
    assert exc.value.clause == "M-1.1" and "line 4" in str(exc.value)
    with pytest.raises(InvalidDeck) as exc:
        parse_deck('name = "x"\n[cards]\n"no such card" = 1\n', "y.toml")
    assert "line 3" in str(exc.value) and "unknown card" in str(exc.value)


def test_M_1_2_masters_start_at_10_life_and_life_0_loses():
    p = Pos().phase("main1")
    assert p.state.side(1).life == p.state.side(2).life == 10
    p.side(2, life=2).mana(1, 3)
    spell = p.hand(1, "雷撃")
    p.do(1, c.Cast(card=spell))
    envs = p.passes()
    assert kinds(envs)[-3:] == ["MasterDamaged", "PlayerLost", "MatchEnded"]
    assert of(envs, ev.PlayerLost)[0].clause == "M-1.2"
    assert p.state.outcome.winner == 1 and p.state.outcome.clause == "M-1.2"


def test_M_1_2_drawing_from_an_empty_deck_loses():
    p = Pos()
    p.side(1, deck=())
    envs = p.do(1, c.Draw())
    lost = of(envs, ev.PlayerLost)[0]
    assert lost.clause == "M-1.2" and lost.event.seat == 1 and "empty deck" in lost.event.reason
    assert p.state.outcome.winner == 2


def test_M_1_3_the_first_player_is_a_recorded_coin():
    firsts = {started(seed=s).state.first for s in range(8)}
    assert firsts == {1, 2}
    m = started(seed=3)
    coin = of(m.envelopes, ev.CoinTossed)[0]
    assert coin.clause == "M-1.3" and coin.kind == "setup" and coin.event.first == m.state.first


def test_M_1_4_masters_start_at_the_centre_of_their_own_territory():
    m = started(seed=1)
    placed = of(m.envelopes, ev.MasterPlaced)
    assert [(e.event.seat, e.event.square, e.clause) for e in placed] == [(1, "c1", "M-1.4"), (2, "c6", "M-1.4")]
    assert m.state.side(1).master == master_start(1) == 13


def test_M_1_5_each_deck_is_shuffled_by_the_opponent():
    m = started(seed=1)
    shuffles = of(m.envelopes, ev.DeckShuffled)
    assert [(e.event.seat, e.event.by) for e in shuffles] == [(1, 2), (2, 1)]
    assert all(e.clause == "M-1.5" for e in shuffles)
    assert sorted(shuffles[0].event.order) == list(range(100, 140))


def test_M_1_6_the_first_player_draws_5_and_the_second_6():
    m = started(first=1)
    assert len(m.state.side(1).hand) == 5 and len(m.state.side(2).hand) == 6
    m2 = started(first=2)
    assert len(m2.state.side(2).hand) == 5 and len(m2.state.side(1).hand) == 6


def test_M_1_7_mulligans_redraw_and_put_as_many_cards_on_the_bottom():
    m = started(first=1)
    for _ in range(2):
        envs = m.submit(1, c.Mulligan())
        assert kinds(envs) == ["MulliganTaken", "HandReturned", "DeckShuffled", "CardsDrawn"]
        assert len(m.state.side(1).hand) == 5
    m.submit(1, c.Keep())
    assert m.awaiting == {1} and m.state.side(1).bottom_due == 2
    hand = m.state.side(1).hand
    m.submit(1, c.Bottom(card=hand[0]))
    m.submit(1, c.Bottom(card=hand[1]))
    assert m.state.side(1).deck[-2:] == hand[:2] and len(m.state.side(1).hand) == 3
    assert m.awaiting == {2}
    envs = m.submit(2, c.Keep())
    assert kinds(envs)[1:] == ["TurnBegan", "Untapped"] and m.state.phase == "standby"
    assert Counter(m.state.side(1).deck + m.state.side(1).hand) == Counter(range(100, 140))


def test_M_1_7_the_second_player_waits_for_the_first_players_mulligans():
    m = started(first=1)
    p = Pos.__new__(Pos)
    p.match, p.state, p.events = m, m.state, []
    illegal(p, 1, c.Bottom(card=m.state.side(1).hand[0]), "M-1.7")
    from kifu.domain.core.errors import NotYourDecision
    with pytest.raises(NotYourDecision):
        m.submit(2, c.Keep())
