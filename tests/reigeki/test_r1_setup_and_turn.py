"""R-1 victory, R-2 areas, R-4 decks, R-5 setup and R-6 turn structure."""
from __future__ import annotations

import pytest

from kifu.domain.core.errors import InvalidDeck
from kifu.domain.reigeki.decide import card_of
from kifu.domain.reigeki.decks import DeckList, validate

from .scenario import DECKS, RULES, Pos, attack, c, e, illegal, kinds, of, one, started


def _keys(deck: DeckList) -> dict[str, int]:
    out: dict[str, int] = {}
    for k in deck.deck:
        out[k] = out.get(k, 0) + 1
    return out


# -- R-1 -----------------------------------------------------------------------------------------
def test_R_1_1_seventh_damage_card_loses() -> None:
    p = Pos(phase="attack")
    for _ in range(6):
        p.damage(2)
    p.stage(1, 1, "チルノ")
    p.top(2, "毛玉")
    m = p.match()
    out = attack(m, 1, 2)
    assert one(out, e.DamageTaken).event.seat == 2
    assert one(out, e.GameOver).event.winner == 1 and m.outcome.termination == "7 damage"
    assert m.awaiting == frozenset()


def test_R_1_1_deck_reaching_zero_loses_at_once() -> None:
    p = Pos(phase="attack")
    p.deck_only(2, 2)
    m = p.match()
    out = m.submit(1, c.Proceed())          # end phase -> seat 2 draws its last 2 cards
    assert one(out, e.Lost).event.seat == 2 and one(out, e.Lost).clause == "R-Q11"
    assert m.outcome.winner == 1 and m.outcome.termination == "deck-out"
    assert "PhaseBegan" in kinds(out) and not any(env.event == e.PhaseBegan(phase="charge") for env in out)


# -- R-2 -----------------------------------------------------------------------------------------
def test_R_2_1_every_card_starts_in_a_zone() -> None:
    m = started(3)
    for seat in (1, 2):
        side = m.state.side(seat)
        assert len(side.deck) + len(side.hand) == 50 and len(side.exdeck) == 20
        leader = [u for u in side.stage if u is not None]
        assert len(leader) == 1 and leader[0].leader


def test_R_2_2_stage_has_six_areas() -> None:
    p = Pos()
    card = p.hand(1, "チルノ")
    m = p.match()
    illegal(m, 1, c.Play(card=card, place=7), "R-2.2")
    assert len(m.state.side(1).stage) == 6


def test_R_2_3_charge_stops_at_five() -> None:
    p = Pos(phase="end", active=2)
    for key in ("霊符「夢想封印」", "符の壱「投擲」", "境符「スキマ送り」", "幻符「殺人ドール」",
                "結界「光と闇の網目」"):
        p.reiryoku(1, key)
    p.set(phase="attack")
    m = p.match()
    out = m.submit(2, c.Proceed())
    assert not of(out, e.Charged) and len(m.state.side(1).reiryoku) == 5
    assert e.PhaseBegan(phase="charge") in [env.event for env in out]


def test_R_2_4_damage_goes_face_up_and_reigeki_goes_to_reiryoku() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")
    p.stage(1, 3, "魂魄妖夢")
    reigeki = p.top(2, "霊撃")
    m = p.match()
    out = attack(m, 1, 2)
    assert one(out, e.ReigekiCharged).event.card == reigeki and one(out, e.ReigekiCharged).clause == "R-2.4"
    assert reigeki in m.state.side(2).reiryoku and not m.state.side(2).damage
    top = m.state.side(2).deck[0]
    out = attack(m, 3, 2)
    assert one(out, e.DamageTaken).event.card == top and m.state.side(2).damage == (top,)


# -- R-4 -----------------------------------------------------------------------------------------
def test_R_4_1_deck_is_45_characters_and_5_reigeki() -> None:
    deck = DECKS[0]
    short = DeckList(name="short", leader=deck.leader, deck=deck.deck[1:], ex=deck.ex)
    with pytest.raises(InvalidDeck) as exc:
        validate(short)
    assert exc.value.clause == "R-4.1"
    no_reigeki = DeckList(name="x", leader=deck.leader, deck=tuple(k for k in deck.deck if k != "霊撃") + ("毛玉",) * 5,
                          ex=deck.ex)
    with pytest.raises(InvalidDeck, match="0 霊撃; it needs 45 and 5"):
        validate(no_reigeki)


def test_R_4_1_three_of_a_name_and_lvex_shares_the_name() -> None:
    deck = DECKS[0]
    cards = list(deck.deck)
    cards.remove("妖精メイド")
    cards.append("チルノ")                       # 4 チルノ
    with pytest.raises(InvalidDeck, match="チルノ"):
        validate(DeckList(name="x", leader=deck.leader, deck=tuple(cards), ex=deck.ex))
    cards = list(deck.deck)
    cards.remove("妖精メイド")
    cards.append("霧雨魔理沙・Ex")                # 2 霧雨魔理沙 + 2 霧雨魔理沙・Ex: 4 of one printed name
    with pytest.raises(InvalidDeck, match="霧雨魔理沙"):
        validate(DeckList(name="x", leader=deck.leader, deck=tuple(cards), ex=deck.ex))


def test_R_4_1_deck_file_error_names_rule_and_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\nleader = "博麗霊夢"\n\n[deck]\n"チルノ" = 4\n"毛玉" = 41\n"霊撃" = 5\n\n[ex]\n'
                    + "".join(f'"{k}" = 2\n' for k in sorted(set(DECKS[0].ex))), "utf-8")
    with pytest.raises(InvalidDeck) as exc:
        RULES.content.load_deck(str(path))
    assert exc.value.clause == "R-4.1" and "line 5" in str(exc.value)


def test_R_4_2_ex_deck_is_20_spells_two_of_a_name() -> None:
    deck = DECKS[0]
    with pytest.raises(InvalidDeck) as exc:
        validate(DeckList(name="x", leader=deck.leader, deck=deck.deck, ex=deck.ex[1:]))
    assert exc.value.clause == "R-4.2"
    ex = list(deck.ex)
    ex[0] = ex[2] = ex[1]
    with pytest.raises(InvalidDeck, match="at most 2"):
        validate(DeckList(name="x", leader=deck.leader, deck=deck.deck, ex=tuple(ex)))


# -- R-5 -----------------------------------------------------------------------------------------
def test_R_5_1_each_player_shuffles_the_opponents_decks_hidden_from_both() -> None:
    m = started(5)
    shuffles = of(m.envelopes, e.DecksShuffled)
    assert [(env.event.seat, env.seat, env.clause) for env in shuffles] == [(1, 2, "R-5.1"), (2, 1, "R-5.1")]
    for viewer in (1, 2):
        for env in shuffles:
            seen = RULES.visibility.redact(env, viewer).event
            assert set(seen.deck) == {0} and set(seen.exdeck) == {0}
    assert started(5).state == m.state and started(6).state.side(1).deck != m.state.side(1).deck


def test_R_5_2_leaders_front_centre() -> None:
    m = started(2)
    for seat in (1, 2):
        unit = m.state.side(seat).stage[1]
        assert unit is not None and unit.leader and card_of(m.state, unit.card).type == "leader"


def test_R_5_3_a_seeded_coin_decides_the_first_player() -> None:
    firsts = {started(seed).state.first for seed in range(1, 12)}
    assert firsts == {1, 2}
    assert one(started(4).envelopes, e.FirstPlayer).clause == "R-5.3"


def test_R_5_4_five_cards_and_one_mulligan() -> None:
    m = started(1)
    first = m.state.first
    assert all(len(m.state.side(s).hand) == 5 for s in (1, 2))
    assert m.awaiting == frozenset((first,))
    old = m.state.side(first).hand
    out = m.submit(first, c.Mulligan(redraw=True))
    assert kinds(out)[:2] == ["HandReturned", "Drew"] and len(m.state.side(first).hand) == 5
    assert m.state.side(first).hand != old and len(m.state.side(first).deck) == 45
    assert m.awaiting == frozenset((3 - first,))
    illegal(m, 3 - first, c.Move(source=2, to=1), "R-5.4")
    m.submit(3 - first, c.Mulligan())
    assert m.state.turn == 1 and m.state.active == first and m.state.phase == "step"


def test_R_5_5_no_battle_on_the_first_turn() -> None:
    m = started(1)
    m.submit(m.state.first, c.Mulligan())
    m.submit(3 - m.state.first, c.Mulligan())
    first = m.state.first
    m.submit(first, c.Proceed())
    out = m.submit(first, c.Proceed())
    assert any(env.clause == "R-5.5" for env in out)
    assert m.state.active == 3 - first and m.state.turn == 2


# -- R-6 -----------------------------------------------------------------------------------------
def test_R_6_1_start_phase_reloads_burst_characters() -> None:
    p = Pos(phase="attack", active=2)
    p.stage(1, 1, "チルノ", burst=True)
    m = p.match()
    out = m.submit(2, c.Proceed())
    assert one(out, e.Reloaded).event.places == (1,)
    assert not m.state.side(1).stage[0].burst


def test_R_6_2_draw_two() -> None:
    p = Pos(phase="attack", active=2)
    m = p.match()
    top2 = m.state.side(1).deck[:2]
    out = m.submit(2, c.Proceed())
    assert one(out, e.Drew).event.cards == top2 and m.state.side(1).hand == top2


def test_R_6_3_charge_one_face_down() -> None:
    p = Pos(phase="attack", active=2)
    m = p.match()
    top = m.state.side(1).exdeck[0]
    out = m.submit(2, c.Proceed())
    assert one(out, e.Charged).event.card == top and m.state.side(1).reiryoku == (top,)
    assert RULES.visibility.redact(one(out, e.Charged), 2).event.card == 0


def test_R_6_4_step_phase_moves_one_area() -> None:
    p = Pos(phase="step")
    p.stage(1, 1, "チルノ")
    p.stage(1, 4, "妖精メイド")
    m = p.match()
    illegal(m, 1, c.Move(source=1, to=4), "R-6.4")      # a character cannot enter an occupied area
    illegal(m, 1, c.Move(source=1, to=3), "R-Q1")       # two areas away
    m.submit(1, c.Move(source=4, to=5))
    m.submit(1, c.Move(source=1, to=4))
    assert m.state.side(1).stage[3] is not None and m.state.side(1).stage[0] is None


def test_R_6_4_leader_steps_onto_an_own_character_which_is_discarded() -> None:
    p = Pos(phase="step")
    cirno = p.stage(1, 1, "チルノ")
    m = p.match()
    out = m.submit(1, c.Move(source=2, to=1))
    assert one(out, e.Moved).event.displaced == cirno
    assert m.state.side(1).stage[0].leader and cirno in m.state.side(1).discard


def test_R_6_5_main_phase_plays_and_casts() -> None:
    p = Pos()
    card = p.hand(1, "チルノ")
    spell = p.reiryoku(1, "符の壱「投擲」")
    m = p.match()
    m.submit(1, c.Play(card=card, place=1))
    m.submit(1, c.Cast(card=spell))
    assert m.state.side(1).stage[0].card == card and spell in m.state.side(1).exdiscard


def test_R_6_6_battle_phase_follows_main() -> None:
    m = Pos().match()
    out = m.submit(1, c.Proceed())
    assert out[-1].clause == "R-6.6" and m.state.phase == "attack"


def test_R_6_7_discard_down_to_eight_and_effects_end() -> None:
    p = Pos(phase="attack")
    for key in ("毛玉",) * 6 + ("チルノ", "妖精メイド", "大妖精", "ルーミア"):
        p.hand(1, key)
    m = p.match()
    m.submit(1, c.Proceed())
    assert m.state.phase == "end" and m.awaiting == frozenset((1,))
    hand = m.state.side(1).hand
    illegal(m, 1, c.Proceed(), "R-6.7")
    m.submit(1, c.Discard(card=hand[0]))
    assert m.state.phase == "end"
    m.submit(1, c.Discard(card=hand[1]))
    assert len(m.state.side(1).hand) == 8 and m.state.active == 2
