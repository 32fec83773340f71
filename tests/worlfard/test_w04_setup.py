"""W-4 deck and setup: deck rules, shuffles and hearts, the order choice, hands and mulligans, life."""
from __future__ import annotations

from collections import Counter

import pytest
from msgspec.structs import replace
from scenario import DECKS, PLAIN_FLAME, PLAIN_TIDE, RULESET, Phase, c, illegal, kinds, of, one, started

from kifu.domain.core.errors import InvalidDeck, NotYourDecision
from kifu.domain.core.match import Match
from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.cards import catalog
from kifu.domain.worlfard.decks import DeckList, parse_deck, preset, preset_names, validate
from kifu.domain.worlfard.view import view


def _created(seed: int = 1) -> Match:
    return Match.create(RULESET, match_id=f"setup-{seed}", seed=seed, decks=list(DECKS),
                        players=("p1", "p2"))


def _deck_error(deck: DeckList) -> InvalidDeck:
    with pytest.raises(InvalidDeck) as caught:
        validate(deck)
    return caught.value


# -- W-4.1 deck construction ---------------------------------------------------------------------
def test_W_4_1_preset_decks_are_legal():
    for name in preset_names():
        deck = preset(name)
        assert 40 <= len(deck.cards) <= 60 and len(set(deck.hearts)) == 3
        assert max(Counter(deck.cards).values()) <= 3


def test_W_4_1_deck_of_40_to_60_cards():
    names = sorted(catalog())
    sixty = DeckList(name="sixty", hearts=tuple(names[:3]), cards=tuple(n for n in names[:20] for _ in range(3)))
    assert validate(sixty) is sixty
    too_many = replace(sixty, cards=sixty.cards + (names[20],))
    assert _deck_error(too_many).clause == "W-4.1"
    deck = PLAIN_FLAME
    too_few = replace(deck, cards=deck.cards[:-1])
    error = _deck_error(too_few)
    assert error.clause == "W-4.1" and "39 cards" in str(error)


def test_W_4_1_at_most_three_copies_of_a_name():
    deck = PLAIN_FLAME
    four = replace(deck, cards=deck.cards[:-1] + ("火蜥蜴サラマン",))
    assert Counter(four.cards)["火蜥蜴サラマン"] == 4
    error = _deck_error(four)
    assert error.clause == "W-4.1" and "火蜥蜴サラマン" in str(error)


def test_W_4_1_exactly_three_hearts_of_different_names():
    deck = PLAIN_FLAME
    assert _deck_error(replace(deck, hearts=deck.hearts[:2])).clause == "W-4.1"
    assert _deck_error(replace(deck, hearts=deck.hearts + ("焔の巨兵",))).clause == "W-4.1"
    assert _deck_error(replace(deck, hearts=(deck.hearts[0], deck.hearts[0], deck.hearts[1]))).clause == "W-4.1"


def test_W_4_1_hearts_must_be_cards_of_the_deck():
    deck = PLAIN_FLAME
    error = _deck_error(replace(deck, hearts=deck.hearts[:2] + ("深海の大亀",)))
    assert error.clause == "W-4.2" and "深海の大亀" in str(error)


def test_W_4_1_unknown_card_names_are_refused():
    deck = PLAIN_FLAME
    error = _deck_error(replace(deck, cards=deck.cards[:-1] + ("存在しないカード",)))
    assert error.clause == "W-4.1"


def test_W_4_1_match_with_an_illegal_deck_is_not_created():
    deck = PLAIN_FLAME
    with pytest.raises(InvalidDeck) as caught:
        Match.create(RULESET, match_id="bad", seed=1, decks=[replace(deck, cards=deck.cards[:30]), PLAIN_TIDE],
                     players=("p1", "p2"))
    assert caught.value.clause == "W-4.1" and "seat 1" in str(caught.value)


def test_W_4_1_deck_file_counts_are_parsed_and_checked():
    text = 'name = "short"\nhearts = ["火蜥蜴サラマン", "紅蓮の剣士", "ディプテラ"]\n[cards]\n' \
           '"火蜥蜴サラマン" = 3\n"紅蓮の剣士" = 3\n"ディプテラ" = 3\n'
    with pytest.raises(InvalidDeck) as caught:
        parse_deck(text, "short.toml")
    assert caught.value.clause == "W-4.1" and "9 cards" in str(caught.value)


# -- W-4.2 shuffle and hearts ----------------------------------------------------------------------
def test_W_4_2_each_deck_is_shuffled_at_game_start():
    m = _created()
    shuffles = of(m.envelopes, ev.DeckShuffled)
    assert [(e.kind, e.clause, e.event.seat) for e in shuffles] == [("setup", "W-4.2", 1), ("setup", "W-4.2", 2)]
    for e in shuffles:
        seat = e.event.seat
        assert sorted(e.event.order) == [seat * 1000 + i for i in range(40)]
        assert list(e.event.order) != sorted(e.event.order)
    assert of(_created(seed=2).envelopes, ev.DeckShuffled)[0].event.order != shuffles[0].event.order


def test_W_4_2_three_hearts_set_from_the_deck_only_top_face_up():
    m = _created()
    for seat in (1, 2):
        side = m.state.side(seat)
        hearts = side.hearts
        assert len(hearts) == 3
        assert [h.face_up for h in hearts] == [True, False, False]
        assert not any(h.broken for h in hearts)
        names = {m.state.name(h.card) for h in hearts}
        assert names == set(m.state.heart_names[seat - 1])
        assert not {h.card for h in hearts} & set(side.deck)
        assert len(side.deck) == 37
        e = [e for e in of(m.envelopes, ev.HeartsSet) if e.event.seat == seat][0]
        assert (e.kind, e.clause) == ("setup", "W-4.2")
        assert e.event.hearts == tuple(h.card for h in hearts)


def test_W_4_2_heart_order_is_random():
    orders = {tuple(m.state.name(h.card) for h in m.state.side(1).hearts)
              for m in (_created(seed) for seed in range(12))}
    assert len(orders) > 1


def test_W_4_2_face_down_hearts_are_hidden_even_from_their_owner():
    state = _created().state
    for seat in (1, 2):
        for s in (1, 2):
            hv = view(state, seat).sides[s - 1].hearts
            assert hv[0].card is not None and hv[0].card.id == state.side(s).hearts[0].card
            assert hv[1].card is None and hv[2].card is None
    assert all(h.card is not None for h in view(state, None).sides[0].hearts)


# -- W-4.3 order ---------------------------------------------------------------------------------------
def test_W_4_3_coin_winner_chooses_to_go_first_or_second():
    m = _created()
    coin = one(m.envelopes, ev.CoinTossed)
    assert (coin.kind, coin.clause) == ("setup", "W-4.3")
    winner = coin.event.winner
    assert m.state.phase == Phase.ORDER and m.deciding == winner
    assert m.legal(winner) == [c.ChooseOrder(go_first=True), c.ChooseOrder(go_first=False)]
    assert m.legal(3 - winner) == []
    with pytest.raises(NotYourDecision):
        m.submit(3 - winner, c.ChooseOrder(go_first=True))
    envs = m.submit(winner, c.ChooseOrder(go_first=False))
    assert (envs[0].kind, envs[0].clause, envs[0].event) == ("decision", "W-4.3",
                                                             ev.OrderChosen(seat=winner, go_first=False))
    assert m.state.first_seat == 3 - winner and m.state.phase == Phase.MULLIGAN


def test_W_4_3_order_is_chosen_once():
    m = _created()
    winner = m.deciding
    m.submit(winner, c.ChooseOrder(go_first=True))
    assert m.deciding == winner        # the first player now decides the mulligan
    illegal(m, winner, c.ChooseOrder(go_first=False), "W-4.3")


# -- W-4.4 hands and mulligans -------------------------------------------------------------------
def test_W_4_4_each_player_draws_six_first_player_first():
    m = _created()
    winner = m.deciding
    envs = m.submit(winner, c.ChooseOrder(go_first=False))
    first = 3 - winner
    draws = of(envs, ev.CardsDrawn)
    assert [(e.event.seat, len(e.event.cards), e.clause, e.cause) for e in draws] == \
        [(first, 6, "W-4.4", envs[0].seq), (winner, 6, "W-4.4", envs[0].seq)]
    for seat in (1, 2):
        side = m.state.side(seat)
        assert len(side.hand) == 6 and len(side.deck) == 31


def test_W_4_4_first_player_decides_the_mulligan_first():
    m = _created()
    winner = m.deciding
    m.submit(winner, c.ChooseOrder(go_first=True))
    seq, state = m.seq, m.state
    with pytest.raises(NotYourDecision):
        m.submit(3 - winner, c.Mulligan(redraw=False))
    assert (m.seq, m.state) == (seq, state)
    m.submit(winner, c.Mulligan(redraw=False))
    assert m.deciding == 3 - winner
    with pytest.raises(NotYourDecision):       # and once: the first player may not decide again
        m.submit(winner, c.Mulligan(redraw=True))


def test_W_4_4_mulligan_returns_the_hand_shuffles_and_draws_six_again():
    m = _created()
    first = m.deciding
    m.submit(first, c.ChooseOrder(go_first=True))
    before = m.state.side(first)
    envs = m.submit(first, c.Mulligan(redraw=True))
    assert kinds(envs) == [("MulliganTaken", "W-4.4"), ("HandReturned", "W-4.4"), ("DeckShuffled", "W-4.4"),
                           ("CardsDrawn", "W-4.4")]
    assert envs[0].kind == "decision" and all(e.cause == envs[0].seq for e in envs[1:])
    assert envs[1].event.cards == before.hand
    order = envs[2].event.order
    assert sorted(order) == sorted(before.deck + before.hand)
    after = m.state.side(first)
    assert after.hand == order[:6] and after.deck == order[6:]
    assert after.mulligan == "taken" and after.hearts == before.hearts


def test_W_4_4_mulligan_once_each():
    m = started(redraw=(True, False))
    assert [m.state.side(s).mulligan for s in (1, 2)] == ["taken", "kept"]
    illegal(m, 1, c.Mulligan(redraw=True), "W-4.4")


def test_W_4_4_nothing_is_played_before_the_mulligans_end():
    m = _created()
    first = m.deciding
    m.submit(first, c.ChooseOrder(go_first=True))
    card = m.state.side(first).hand[0]
    illegal(m, first, c.SetTower(card=card, line=1), "W-4.4")
    illegal(m, first, c.Proceed(to="end"), "W-4.4")


# -- W-4.5 life -------------------------------------------------------------------------------------
def test_W_4_5_life_starts_at_12_and_the_game_begins():
    m = started()
    began = one(m.envelopes, ev.GameBegan)
    assert (began.clause, began.event) == ("W-4.5", ev.GameBegan(first=1, life=12))
    assert m.state.side(1).life == m.state.side(2).life == 12
    assert m.state.turn == 1 and m.state.turn_seat == 1 and m.state.phase == Phase.MAIN1
