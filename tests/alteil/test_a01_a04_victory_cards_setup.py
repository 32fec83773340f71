"""A-1 victory, A-2 cards, A-3 areas, A-4 setup (with the sealed opening influence, A-4.5)."""
from __future__ import annotations

import msgspec
import pytest
from alteil_scenario import RULES, TEST_DECK, Position, c, ev, illegal, kinds, of, one

from kifu.domain.alteil.cards import catalog
from kifu.domain.alteil.decks import DeckList, parse_deck, preset, preset_names, validate
from kifu.domain.alteil.view import redact, view
from kifu.domain.alteil.vocabulary import GODS, OPENING
from kifu.domain.core.errors import InvalidDeck
from kifu.domain.core.match import Match
from kifu.domain.core.visibility import redact as seen_by


def fresh(seed: int = 3) -> Match:
    return Match.create(RULES, match_id=f"setup-{seed}", seed=seed, decks=[TEST_DECK, TEST_DECK],
                        players=("p1", "p2"))


def through_mulligans(seed: int = 3) -> Match:
    m = fresh(seed)
    m.submit(1, c.Mulligan(redraw=False))
    m.submit(2, c.Mulligan(redraw=False))
    return m


# -- A-1 victory --------------------------------------------------------------------------------
def test_A_1_1_last_battlefield_card_destroyed_loses() -> None:
    p = Position()
    p.destroy(2, 1, 2, 3, 4, 5)
    attacker = p.unit(1, "火炎の戦士", 1)
    m = p.acting(attacker).match()
    envs = m.submit(1, c.AttackBattlefield(card=attacker, square=6))
    assert one(envs, ev.PlayerLost) == ev.PlayerLost(seat=2, reason="battlefield")
    assert m.outcome.winner == 1 and m.outcome.clause == "A-1.1" and not m.awaiting


def test_A_1_2_seventh_dead_unit_loses() -> None:
    p = Position()
    p.zone(2, "cemetery", *(["骸骨兵"] * 1 + ["水の衛兵", "火炎の戦士", "闇の斥候", "炎の弓兵", "陽光の祈祷師"]))
    victim = p.unit(2, "闇の斥候", 1)             # HP 2
    attacker = p.unit(1, "火炎の戦士", 1)         # AT 3
    m = p.acting(attacker).match()
    envs = m.submit(1, c.Attack(card=attacker, target=victim))
    assert kinds(envs)[-1] == "PlayerLost"
    assert one(envs, ev.PlayerLost) == ev.PlayerLost(seat=2, reason="deaths")
    assert m.outcome.clause == "A-1.2"


def test_A_1_3_failed_preparation_draw_loses() -> None:
    p2 = Position()
    p2.hand(2, "水の衛兵")
    p2.deck(2, 0)
    m = p2.at(step="end", sub="soul", actor=2, turn_seat=1).match()
    envs = m.submit(2, c.EndDiscards())
    assert "DrawFailed" in kinds(envs)
    assert one(envs, ev.PlayerLost) == ev.PlayerLost(seat=2, reason="deck-out")
    assert m.outcome.clause == "A-1.3"


def test_A_1_4_concession_loses() -> None:
    p = Position()
    p.hand(1, "水の衛兵")
    m = p.at(step="set", actor=1).match()
    envs = m.submit(1, c.Concede())
    assert kinds(envs) == ["Conceded", "PlayerLost"]
    assert m.outcome.winner == 2 and m.outcome.clause == "A-1.4"
    assert c.Concede() not in m.legal(1)


# -- A-2 cards ----------------------------------------------------------------------------------
def test_A_2_1_deck_is_exactly_51_with_at_most_3_per_number() -> None:
    for name in preset_names():
        assert len(preset(name).cards) == 51
    with pytest.raises(InvalidDeck) as short:
        validate(DeckList(name="short", cards=TEST_DECK.cards[:50]))
    assert short.value.clause == "A-2.1"
    with pytest.raises(InvalidDeck) as four:
        parse_deck('name = "x"\n[cards]\n"火炎の戦士" = 4\n', "x.toml")
    assert four.value.clause == "A-2.1" and "line 3" in str(four.value)
    with pytest.raises(InvalidDeck):
        validate(DeckList(name="four", cards=TEST_DECK.cards[:47] + ("火炎の戦士",) * 4))


def test_A_2_2_every_card_belongs_to_one_of_four_gods() -> None:
    assert set(GODS) == {"Lifes", "Lotia", "Gouen", "Falkau"}
    assert {card.god for card in catalog().values()} == set(GODS)


def test_A_2_3_units_have_lv_df_at_hp_agi_and_iconed_skills() -> None:
    for card in catalog().values():
        if card.unit:
            assert 1 <= card.lv <= 4 and card.hp > 0
        if card.skill is not None and card.unit:
            assert card.skill.icon in ("START", "NEXT", "ACTION", "SOUL")


def test_A_2_4_named_unit_not_twice_on_own_field() -> None:
    p = Position()
    p.unit(1, "『白翼のリーゼ』", 1)
    riese = p.hand(1, "『白翼のリーゼ』")[0]
    p.influence(1, "光の見習い騎士", "聖盾の守護兵", "陽光の祈祷師")
    p.soul(1, 5)
    m = p.match()
    illegal(m, 1, c.PlaceUnit(card=riese, square=2), "A-Q4")


def test_A_2_5_grimoire_is_not_influence_and_pays_its_own_cost() -> None:
    p = Position()
    fireball = p.hand(1, "火球")[0]
    m = p.at(step="influence", actor=1).match()
    illegal(m, 1, c.PlaceInfluence(card=fireball), "A-2.5")
    p = Position()
    fireball = p.hand(1, "火球")[0]
    p.influence(1, "火炎の戦士", "炎の弓兵")
    p.soul(1, 3)
    foe = p.unit(2, "水の衛兵", 1)
    m = p.window(1).match()
    envs = m.submit(1, c.UseGrimoire(card=fireball, target=foe))
    assert one(envs, ev.SoulPaid).amount == 2
    assert m.state.side(1).senka == (fireball,)
    assert m.state.side(2).unit(foe).damage == 3


# -- A-3 areas ----------------------------------------------------------------------------------
def test_A_3_1_battlefield_is_six_face_down_squares() -> None:
    m = through_mulligans()
    m_state = m.state
    for seat in (1, 2):
        assert len(m_state.side(seat).squares) == 6
        for viewer in (1, 2):
            assert all(sq is not None and sq.id == 0 for sq in view(m_state, viewer).sides[seat - 1].squares)
    one_set = [e for e in m.envelopes if isinstance(e.event, ev.BattlefieldSet)][0]
    assert set(redact(one_set, 1).event.cards) == {0}


def test_A_3_2_destroyed_square_takes_no_unit() -> None:
    p = Position()
    p.destroy(1, 2)
    knight = p.hand(1, "光の見習い騎士")[0]
    p.influence(1, "聖盾の守護兵")
    p.soul(1, 1)
    m = p.match()
    illegal(m, 1, c.PlaceUnit(card=knight, square=2), "A-3.2")
    mover = Position()
    mover.destroy(1, 2)
    u = mover.unit(1, "火炎の戦士", 1)
    m = mover.acting(u).match()
    illegal(m, 1, c.Move(card=u, square=2), "A-3.2")


def test_A_3_3_senka_and_cemetery_are_distinct() -> None:
    p = Position()
    fireball = p.hand(1, "火球")[0]
    p.influence(1, "火炎の戦士", "炎の弓兵")
    p.soul(1, 2)
    foe = p.unit(2, "闇の斥候", 1)
    m = p.window(1).match()
    m.submit(1, c.UseGrimoire(card=fireball, target=foe))
    assert m.state.side(1).senka == (fireball,) and m.state.side(1).cemetery == ()
    assert m.state.side(2).cemetery == (foe,) and foe not in m.state.side(2).senka


# -- A-4 setup ----------------------------------------------------------------------------------
def test_A_4_1_shuffle_draw_six_and_one_mulligan() -> None:
    m = fresh()
    assert kinds(m.envelopes) == ["DeckShuffled", "CardsDrawn"] * 2
    assert all(len(m.state.side(s).hand) == 6 for s in (1, 2))
    assert m.awaiting == {1}
    envs = m.submit(1, c.Mulligan(redraw=True))
    assert kinds(envs) == ["MulliganDecided", "HandReturned", "DeckShuffled", "CardsDrawn"]
    assert len(m.state.side(1).hand) == 6 and m.awaiting == {2}
    m.submit(2, c.Mulligan(redraw=False))
    illegal_now = [x for x in m.legal(1) + m.legal(2) if isinstance(x, c.Mulligan)]
    assert not illegal_now


def test_A_4_2_first_player_by_seeded_coin() -> None:
    firsts = set()
    for seed in range(1, 12):
        m = through_mulligans(seed)
        firsts.add(one(m.envelopes, ev.FirstPlayerDecided).seat)
        assert m.state.first_seat in (1, 2)
    assert firsts == {1, 2}


def test_A_4_3_six_battlefield_cards_from_the_deck_top() -> None:
    m = fresh()
    tops = {s: m.state.side(s).deck[:6] for s in (1, 2)}
    m.submit(1, c.Mulligan(redraw=False))
    m.submit(2, c.Mulligan(redraw=False))
    for s in (1, 2):
        assert m.state.side(s).squares == tops[s]
        assert m.state.side(s).life == 6


def test_A_4_4_second_player_starts_with_one_soul() -> None:
    m = through_mulligans()
    first = m.state.first_seat
    assert len(m.state.side(first).soul) == 0
    assert len(m.state.side(3 - first).soul) == 1


def test_A_4_5_opening_influence_is_sealed_then_revealed() -> None:
    m = through_mulligans()
    assert m.state.step == OPENING and m.awaiting == {1, 2} and RULES.decider.sealed(m.state)
    pick1 = m.legal(1)[0]
    envs = m.submit(1, pick1)
    assert kinds(envs) == ["ChoiceSealed"]
    assert m.state.side(1).influence == ()                      # nothing placed before the reveal
    other_view = seen_by(RULES, envs[0], 2)
    assert "choice" not in msgspec.json.decode(msgspec.json.encode(other_view.event))
    layout = RULES.presentation.layout(RULES.decider.view(m.state, 2))
    assert layout.chosen == (1,) and layout.choosing == (2,)
    pick2 = m.legal(2)[0]
    envs = m.submit(2, pick2)
    assert kinds(envs)[:5] == ["ChoiceSealed", "ChoiceRevealed", "ChoiceRevealed", "OpeningInfluence",
                               "OpeningInfluence"]
    placed = of(envs, ev.OpeningInfluence)
    assert [(x.seat, x.card) for x in placed] == [(1, pick1.card), (2, pick2.card)]
    assert m.state.side(1).influence == (pick1.card,) and m.state.side(2).influence == (pick2.card,)
    assert "TurnBegan" in kinds(envs)


def test_A_4_5_no_unit_in_hand_no_influence() -> None:
    p = Position()
    p.hand(1, "火球", "闇の囁き")
    p.hand(2, "水の衛兵")
    m = p.at(step=OPENING, actor=0, turn=0).match()
    assert m.legal(1) == [c.NoInfluence()]
    m.submit(1, c.NoInfluence())
    envs = m.submit(2, c.PlaceInfluence(card=m.state.side(2).hand[0]))
    assert of(envs, ev.OpeningInfluence)[0] == ev.OpeningInfluence(seat=1, card=0)
    assert m.state.side(1).influence == ()
