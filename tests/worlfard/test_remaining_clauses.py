"""Clauses the other files do not name: card data (W-2.1, W-2.2, W-2.3, W-Q14, W-Q20), scope
(W-3.6), casting to the table (W-10.1), hearts as placed (W-11.1), main-phase casts (W-13.3),
"has X" (W-14.4), and the proposals W-Q1, W-Q11, W-Q12, W-Q15, W-Q16, W-Q17, W-Q19.

Seat 1 acts in its main phase (turn 3) unless a test says otherwise; cost towers are filler piles
(dark cards first) on lines 4 and 5. Units: 大地の戦士 STR3 VIT3 AGI1; 潮騒の槍兵 STR2 VIT3 AGI1
DEF0; 岩窟のゴーレム STR2 VIT5 AGI0 DEF1; 群れの長 STR2 (own 獣 get [STR+1]); 双頭の竜獣 STR4
families 獣 and 竜; 嵐竜ゲイル STR5 family 竜 only.
"""
from __future__ import annotations

from typing import get_args

import pytest
from scenario import DECKS, RULESET, started
from skill_scenarios import Phase, Pos, Status, c, ev, folds, illegal, kinds, of, one, other, stats

from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import Illegal, Malformed
from kifu.domain.core.match import Match
from kifu.domain.core.rng import Rng
from kifu.domain.worlfard import flow
from kifu.domain.worlfard.cards import catalog, parse_card_set
from kifu.domain.worlfard.evolve import evolve
from kifu.domain.worlfard.field import profile
from kifu.domain.worlfard.skills import Target
from kifu.domain.worlfard.state import Combat
from kifu.domain.worlfard.targets import _fits
from kifu.domain.worlfard.view import redact, view
from kifu.domain.worlfard.vocabulary import LINES, CardType

# -- card files ---------------------------------------------------------------------------------
_GOOD = {
    "UT": 'number = "T-01"\nname = "試しの兵"\ntype = "UT"\nelements = ["火"]\nlv = 1\nstr = 1\nvit = 1\nagi = 1\n',
    "MS": 'number = "T-02"\nname = "試しの術"\ntype = "MS"\nelements = ["水"]\nlv = 2\n',
    "SS": 'number = "T-03"\nname = "試しの速詠"\ntype = "SS"\nelements = ["風"]\nlv = 1\n',
    "LS": 'number = "T-04"\nname = "試しの陣"\ntype = "LS"\nelements = ["光"]\nfamilies = ["結界"]\nlv = 3\n',
}


def _card_set(*cards: str) -> str:
    return 'name = "test"\n' + "".join(f"\n[[card]]\n{body}" for body in cards)


def _malformed(text: str) -> Malformed:
    with pytest.raises(Malformed) as caught:
        parse_card_set(text, "test.toml")
    assert caught.value.where == "test.toml"
    return caught.value


# -- W-2.1 card types ---------------------------------------------------------------------------
def test_W_2_1_card_types_are_exactly_UT_MS_SS_LS():
    assert set(get_args(CardType)) == {"UT", "MS", "SS", "LS"}
    parsed = parse_card_set(_card_set(*_GOOD.values()), "test.toml")
    assert [card.type for card in parsed.card] == ["UT", "MS", "SS", "LS"]
    assert [card.is_unit for card in parsed.card] == [True, False, False, False]
    assert [card.is_spell for card in parsed.card] == [False, True, True, True]
    assert {card.type for card in catalog().values()} <= {"UT", "MS", "SS", "LS"}


@pytest.mark.parametrize("bad_type", ["XX", "ut", "Spell", "US"])
def test_W_2_1_a_card_of_another_type_is_malformed_naming_card_and_field(bad_type: str):
    bad = f'number = "T-09"\nname = "謎のカード"\ntype = "{bad_type}"\nelements = ["闇"]\nlv = 1\n'
    error = _malformed(_card_set(_GOOD["UT"], bad))
    assert "card #2" in error.what and "謎のカード" in error.what
    assert "$.type" in error.what and bad_type in error.what


# -- W-2.2 common parameters --------------------------------------------------------------------
@pytest.mark.parametrize("field", ["lv", "elements", "type", "number"])
def test_W_2_2_a_card_missing_a_required_field_is_malformed_naming_card_and_field(field: str):
    lines = [line for line in _GOOD["MS"].splitlines() if not line.startswith(f"{field} =")]
    assert len(lines) == len(_GOOD["MS"].splitlines()) - 1
    error = _malformed(_card_set(_GOOD["UT"], "\n".join(lines) + "\n"))
    assert "card #2" in error.what and "試しの術" in error.what
    assert f"missing required field `{field}`" in error.what


def test_W_2_2_a_card_without_a_name_is_malformed_naming_its_index_and_the_field():
    nameless = _GOOD["SS"].replace('name = "試しの速詠"\n', "")
    error = _malformed(_card_set(_GOOD["UT"], _GOOD["MS"], nameless))
    assert "card #3" in error.what and "`name`" in error.what


def test_W_2_2_an_element_outside_the_six_is_malformed_naming_the_field():
    error = _malformed(_card_set(_GOOD["MS"].replace('["水"]', '["雷"]')))
    assert "試しの術" in error.what and "$.elements" in error.what


def test_W_2_2_families_default_to_none_and_may_be_several():
    parsed = parse_card_set(_card_set(_GOOD["MS"], _GOOD["LS"].replace('["結界"]', '["結界", "呪法"]')),
                            "test.toml")
    assert parsed.card[0].families == () and parsed.card[1].families == ("結界", "呪法")


# -- W-2.3 unit parameters ----------------------------------------------------------------------
def test_W_2_3_effects_floor_STR_VIT_AGI_at_0_while_DEF_goes_negative():
    p = Pos(p2=["岩窟のゴーレム"])
    golem = p.unit(2, 3, "岩窟のゴーレム")                  # STR2 VIT5 AGI0 DEF1
    for i, stat in enumerate(("STR", "VIT", "AGI", "DEF")):
        p.effect(golem, "add", stat, -9, id=i + 1)
    lowered = profile(p.state, 2, 3)
    assert (lowered.STR, lowered.VIT, lowered.AGI, lowered.DEF) == (0, 0, 0, -8)


def test_W_2_3_a_set_base_below_0_is_floored_but_a_set_DEF_below_0_stays():
    p = Pos(p2=["潮騒の槍兵"])
    spear = p.unit(2, 2, "潮騒の槍兵")
    p.effect(spear, "set", "STR", -2, id=1)
    p.effect(spear, "set", "AGI", -1, id=2)
    p.effect(spear, "set", "DEF", -3, id=3)
    p.effect(spear, "add", "STR", 1, id=4)                  # -2 + 1 = -1, still floored at 0
    got = profile(p.state, 2, 2)
    assert (got.STR, got.VIT, got.AGI, got.DEF) == (0, 3, 0, -3)
    p.effect(spear, "add", "STR", 3, id=5)                  # -2 + 1 + 3 = 2: the floor is applied last
    assert profile(p.state, 2, 2).STR == 2


def test_W_2_3_a_printed_negative_STR_is_malformed():
    bad = _GOOD["UT"].replace("str = 1", "str = -1")
    error = _malformed(_card_set(bad))
    assert "試しの兵" in error.what and "W-2.3" in error.what


# -- W-3.6 scope defaults -----------------------------------------------------------------------
def test_W_3_6_a_long_spell_buffing_its_units_buffs_only_its_controllers_units():
    p = Pos(p1=["加護の陣", "大地の戦士"], p2=["潮騒の槍兵", "大地の戦士"])
    p.unit(1, 2, "大地の戦士")
    p.unit(2, 2, "大地の戦士")
    p.unit(2, 3, "潮騒の槍兵")
    ward, = p.hand(1, "加護の陣")
    p.pile(1, 4, 2)
    m = p.build()
    assert (stats(m, 1, 2).VIT, stats(m, 2, 2).VIT, stats(m, 2, 3).VIT) == (3, 3, 3)
    m.submit(1, c.Cast(card=ward, line=1, towers=(4,)))
    assert m.state.side(1).table[0].card == ward
    assert stats(m, 1, 2).VIT == 4                          # 自分のユニット: the controller's
    assert (stats(m, 2, 2).VIT, stats(m, 2, 3).VIT) == (3, 3)   # not the opponent's, same name or not
    folds(m)


def test_W_3_6_the_buff_follows_the_controller_of_the_spell_not_the_seat_acting():
    p = Pos(p1=["大地の戦士"], p2=["加護の陣", "大地の戦士"])
    p.table(2, 3, "加護の陣")
    p.unit(1, 2, "大地の戦士")
    p.unit(2, 2, "大地の戦士")
    m = p.build()
    assert (stats(m, 1, 2).VIT, stats(m, 2, 2).VIT) == (3, 4)


# -- W-10.1 casting a spell ---------------------------------------------------------------------
def _table_position() -> tuple[Pos, int, int, int]:
    p = Pos(p1=["加護の陣", "火球"], p2=["潮騒の槍兵"])
    spear = p.unit(2, 2, "潮騒の槍兵")
    ward, fireball = p.hand(1, "加護の陣", "火球")
    p.pile(1, 4, 2)
    p.pile(1, 5, 2)
    return p, spear, ward, fireball


def test_W_10_1_a_cast_goes_to_an_empty_own_table_spot_and_pays_its_cost():
    p, spear, ward, _ = _table_position()
    m = p.build()
    envs = m.submit(1, c.Cast(card=ward, line=3, towers=(4,)))
    cast = envs[0]
    assert (cast.clause, cast.kind) == ("W-10.1", "decision")
    assert cast.event.line == 3 and cast.event.cost == 2
    paid = one(envs, ev.CostPaid)
    assert paid.clause == "W-6.2" and (paid.event.cost, paid.event.towers, paid.event.heights) == (2, (4,), (2,))
    placed = one(envs, ev.SpellPlaced)
    assert placed.clause == "W-10.1" and (placed.event.seat, placed.event.line) == (1, 3)
    assert envs.index(paid) < envs.index(placed)           # paid before it resolves
    assert m.state.side(1).table[2].card == ward and ward not in m.state.side(1).hand
    assert m.state.side(2).table == (None,) * LINES        # its own table, not the opponent's
    assert m.state.side(1).towers[3].broken
    folds(m)


def test_W_10_1_a_cast_to_an_occupied_table_spot_is_illegal_W_3_3():
    p, spear, ward, fireball = _table_position()
    m = p.build()
    m.submit(1, c.Cast(card=ward, line=3, towers=(4,)))
    error = illegal(m, 1, c.Cast(card=fireball, line=3, towers=(5,), targets=(spear,)), "W-3.3")
    assert "table spot 3" in error.reason
    envs = m.submit(1, c.Cast(card=fireball, line=2, towers=(5,), targets=(spear,)))   # an empty spot is fine
    assert one(envs, ev.UnitDamaged).event.card == spear
    assert m.state.side(1).table[1] is None and fireball in m.state.side(1).grave   # an MS leaves (W-10.3)


def test_W_10_1_a_cast_that_cannot_pay_is_refused_and_nothing_is_placed():
    p = Pos(p1=["加護の陣"])
    ward, = p.hand(1, "加護の陣")
    p.pile(1, 4, 1)
    m = p.build()
    with pytest.raises(Illegal) as caught:
        m.submit(1, c.Cast(card=ward, line=1, towers=(4,)))
    assert caught.value.clause.startswith("W-6")
    assert m.state.side(1).table[0] is None and ward in m.state.side(1).hand


# -- W-11.1 heart placement ---------------------------------------------------------------------
def test_W_11_1_three_hearts_with_only_the_top_face_up():
    m = started()
    for seat in (1, 2):
        hearts = m.state.side(seat).hearts
        assert len(hearts) == 3
        assert [h.face_up for h in hearts] == [True, False, False]
        assert sorted(m.state.name(h.card) for h in hearts) == sorted(DECKS[seat - 1].hearts)


def test_W_11_1_the_owner_sees_only_the_top_heart():
    m = started()
    for seat in (1, 2):
        hearts = m.state.side(seat).hearts
        own = view(m.state, seat).sides[seat - 1].hearts
        assert own[0].card is not None and own[0].card.id == hearts[0].card
        assert [h.card for h in own[1:]] == [None, None]    # not even their controller sees them
        theirs = view(m.state, other(seat)).sides[seat - 1].hearts
        assert [h.card is None for h in theirs] == [False, True, True]
        judge = view(m.state, None).sides[seat - 1].hearts
        assert [h.card.id for h in judge] == [h.card for h in hearts]


def test_W_11_1_the_hearts_set_event_hides_all_but_the_top_even_from_the_owner():
    m = started()
    for envelope in of(m.envelopes, ev.HeartsSet):
        hearts = envelope.event.hearts
        shown_to_owner = redact(envelope, envelope.event.seat).event.hearts
        assert shown_to_owner[0] == hearts[0] and shown_to_owner[1:] == (0, 0)
        assert redact(envelope, None).event.hearts == hearts


# -- W-13.3 main-phase casts resolve at once ----------------------------------------------------
def test_W_13_3_a_short_spell_cast_in_a_main_phase_resolves_at_once_with_no_window():
    p = Pos(p1=["衝撃波"], p2=["潮騒の槍兵"])
    spear = p.unit(2, 2, "潮騒の槍兵")
    wave, = p.hand(1, "衝撃波")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=wave, line=1, towers=(4,), targets=(spear,)))
    names = [kind for kind, _ in kinds(envs, windows=True)]
    assert "WindowOpened" not in names and "Passed" not in names and "ChainResolving" not in names
    placed = one(envs, ev.SpellPlaced)
    assert placed.clause == "W-10.1" and not placed.event.waiting
    resolved = one(envs, ev.SpellResolved)
    assert envs.index(placed) < envs.index(resolved)
    assert one(envs, ev.UnitDamaged).event.card == spear    # resolved within the cast decision
    assert m.state.window is None and m.deciding == 1 and m.legal(2) == []
    assert wave in m.state.side(1).grave and m.state.side(1).table[0] is None
    folds(m)


def test_W_13_3_in_a_reaction_window_the_same_spell_waits_instead():
    p = Pos(p1=["衝撃波", "大地の戦士"], p2=["潮騒の槍兵"]).at(Phase.BATTLE, 1)
    p.unit(1, 2, "大地の戦士")
    spear = p.unit(2, 2, "潮騒の槍兵")
    wave, = p.hand(1, "衝撃波")
    p.pile(1, 4, 2)
    m = p.build()
    m.submit(1, c.Attack(line=2))
    m.submit(1, c.Target(line=2))
    assert m.state.window is not None
    envs = m.submit(1, c.Cast(card=wave, line=1, towers=(4,), targets=(spear,)))
    assert one(envs, ev.SpellPlaced).event.waiting and not of(envs, ev.SpellResolved)
    assert m.state.side(2).stage[1].damage == 0


# -- W-14.4 "has X" -----------------------------------------------------------------------------
def test_W_14_4_a_unit_with_families_beast_and_dragon_counts_as_a_beast_for_the_pack_leader():
    p = Pos(p1=["双頭の竜獣", "嵐竜ゲイル", "群れの長"])
    p.unit(1, 2, "双頭の竜獣")
    p.unit(1, 3, "嵐竜ゲイル")
    m = p.build()
    assert (stats(m, 1, 2).STR, stats(m, 1, 3).STR) == (4, 5)
    p.unit(1, 1, "群れの長")
    m = p.build()
    assert stats(m, 1, 2).STR == 5                          # [F=獣] is among 獣 and 竜
    assert stats(m, 1, 3).STR == 5                          # a 竜 alone has no 獣: printed STR 5


def test_W_14_4_a_target_with_a_family_fits_any_card_that_has_it():
    p = Pos(p1=["双頭の竜獣", "嵐竜ゲイル"])
    dragon_beast = p.unit(1, 2, "双頭の竜獣")
    gale = p.unit(1, 3, "嵐竜ゲイル")
    assert _fits(p.state, Target(family="獣"), dragon_beast) and _fits(p.state, Target(family="竜"), dragon_beast)
    assert _fits(p.state, Target(family="竜"), gale) and not _fits(p.state, Target(family="獣"), gale)
    assert _fits(p.state, Target(element="地"), dragon_beast) and not _fits(p.state, Target(element="水"), dragon_beast)


# -- W-Q1 five lines per player -----------------------------------------------------------------
def test_W_Q1_five_lines_per_player_each_with_stage_table_and_tower_spots():
    assert LINES == 5
    m = started()
    for seat in (1, 2):
        side = m.state.side(seat)
        assert len(side.stage) == len(side.table) == len(side.towers) == 5
        seen = view(m.state, seat).sides[seat - 1]
        assert len(seen.stage) == len(seen.table) == len(seen.towers) == 5


def test_W_Q1_line_5_is_on_the_board_and_line_6_is_not():
    p = Pos(p1=["ディプテラ", "ディプテラ", "火球"])
    dip, dip2, fireball = p.hand(1, "ディプテラ", "ディプテラ", "火球")
    p.pile(1, 4, 2)
    p.pile(1, 1, 2)
    m = p.build()
    illegal(m, 1, c.Summon(card=dip2, line=6, towers=(1,)), "W-3.2")
    illegal(m, 1, c.Summon(card=dip2, line=0, towers=(1,)), "W-3.2")
    illegal(m, 1, c.SetTower(card=dip2, line=6), "W-3.2")
    illegal(m, 1, c.Cast(card=fireball, line=6, towers=(1,), targets=()), "W-3.2")
    m.submit(1, c.Summon(card=dip, line=5, towers=(4,)))
    assert m.state.side(1).stage[4].card == dip


# -- W-Q11 the attacker's AGI falls to 0 after the declaration -------------------------------------
def _declared_attack(agi0: bool) -> tuple[Match, int]:
    p = Pos(p1=["大地の戦士"], p2=["潮騒の槍兵"]).at(Phase.BATTLE, 1)
    warrior = p.unit(1, 2, "大地の戦士")
    p.unit(2, 2, "潮騒の槍兵")
    if agi0:
        p.effect(warrior, "set", "AGI", 0, id=1)            # as an on-attack trigger would leave it
    p.set(combat=Combat(attacker=2, attacker_card=warrior, step="attack"))
    return p.build(), warrior


def _advance(m: Match) -> Draft:
    seq = m.seq + 1
    draft = Draft(m.state, seq, Rng.for_seq(m.header.seed, seq), evolve)
    flow.advance(draft, m.seq)
    return draft


def test_W_Q11_attacker_at_AGI_0_after_declaration_ends_the_combat_with_no_target_and_breaks():
    m, warrior = _declared_attack(agi0=True)
    assert stats(m, 1, 2).AGI == 0 and not m.state.side(1).stage[1].broken
    draft = _advance(m)
    assert kinds(draft.envelopes) == [("UnitBroken", "W-Q11"), ("CombatEnded", "W-Q11")]
    assert draft.envelopes[0].event == ev.UnitBroken(seat=1, line=2)
    state = draft.state
    assert state.combat is None and state.side(1).stage[1].broken
    assert state.side(1).stage[1].card == warrior
    assert state.side(2).stage[1].damage == 0 and state.side(2).life == 12
    assert state.phase == Phase.BATTLE and state.turn_seat == 1


def test_W_Q11_with_AGI_left_the_combat_goes_on_to_the_target_declaration():
    m, _ = _declared_attack(agi0=False)
    draft = _advance(m)
    assert kinds(draft.envelopes, windows=True) == [("CombatStep", "W-12.2")]
    assert draft.state.combat is not None and draft.state.combat.step == "target"
    assert not draft.state.side(1).stage[1].broken


# -- W-Q12 drawing from an empty deck by an effect -------------------------------------------------
def test_W_Q12_effect_draw_from_empty_deck_draws_nothing_and_does_not_lose():
    p = Pos(p1=["知恵の梟"])
    owl, = p.hand(1, "知恵の梟")
    p.pile(1, 4, 2)
    side = p.state.side(1)
    p.side(1, deck=(), grave=side.grave + side.deck)
    m = p.build()
    envs = m.submit(1, c.Summon(card=owl, line=1, towers=(4,)))
    assert not of(envs, ev.CardDrawn) and not of(envs, ev.PlayerLost) and not of(envs, ev.DeckOut)
    assert m.outcome is None and m.state.side(1).lost is None and m.state.side(2).lost is None
    assert m.state.side(1).hand == () and m.state.side(1).stage[0].card == owl
    assert m.deciding == 1                                  # the turn goes on
    folds(m)


def test_W_Q12_the_same_draw_with_a_card_left_draws_it():
    p = Pos(p1=["知恵の梟"])
    owl, = p.hand(1, "知恵の梟")
    p.pile(1, 4, 2)
    side = p.state.side(1)
    p.side(1, deck=side.deck[:1], grave=side.grave + side.deck[1:])
    last = p.state.side(1).deck[0]
    m = p.build()
    envs = m.submit(1, c.Summon(card=owl, line=1, towers=(4,)))
    drawn = one(envs, ev.CardDrawn)
    assert drawn.clause == "W-Q12" and drawn.event.card == last
    assert m.state.side(1).deck == () and m.outcome is None


# -- W-Q14 family strings with a colon ----------------------------------------------------------
def test_W_Q14_the_families_of_jiban_chinka_are_two():
    sink = catalog()["地盤沈下"]
    assert sink.families == ("呪法", "呪術")
    assert all(":" not in f for d in catalog().values() for f in d.families)


def test_W_Q14_jiban_chinka_has_each_family_separately():
    p = Pos(p1=["地盤沈下"])
    sink, = p.hand(1, "地盤沈下")
    for family in ("呪法", "呪術"):
        assert _fits(p.state, Target(family=family), sink)
    assert not _fits(p.state, Target(family="呪法:呪術"), sink)


# -- W-Q15 no hand limit ------------------------------------------------------------------------
def test_W_Q15_a_hand_of_sixteen_cards_is_kept_through_the_end_of_turn():
    p = Pos()
    deck = p.state.side(1).deck
    p.side(1, hand=deck[:16], deck=deck[16:])
    hand = p.state.side(1).hand
    m = p.build()
    envs = m.submit(1, c.Proceed(to="end"))
    assert not [e for e in of(envs, ev.CardMoved) if e.event.src == "hand"]
    assert m.state.turn_seat == 2 and m.state.side(1).hand == hand
    m.submit(2, c.Proceed(to="end"))                        # seat 1 draws a 17th card
    assert m.state.turn_seat == 1 and len(m.state.side(1).hand) == 17
    assert m.state.side(1).hand[:16] == hand
    envs = m.submit(1, c.Proceed(to="end"))
    assert not [e for e in of(envs, ev.CardMoved) if e.event.src == "hand"]
    assert len(m.state.side(1).hand) == 17 and m.outcome is None
    folds(m)


# -- W-Q16 the coin and the mulligan order ------------------------------------------------------
def _created(seed: int) -> Match:
    return Match.create(RULESET, match_id=f"coin-{seed}", seed=seed, decks=list(DECKS), players=("p1", "p2"))


def test_W_Q16_a_seeded_coin_picks_who_chooses_the_order():
    winners = {}
    for seed in range(1, 13):
        m = _created(seed)
        coin = one(m.envelopes, ev.CoinTossed)
        assert coin.clause == "W-4.3" and coin.kind == "setup"
        assert m.state.phase == Phase.ORDER and m.deciding == coin.event.winner == m.state.chooser
        assert _created(seed).deciding == m.deciding      # the same seed, the same coin
        winners[seed] = coin.event.winner
    assert set(winners.values()) == {1, 2}                  # both seats win on some seed
    seed = next(s for s, w in winners.items() if w == 2)
    m = _created(seed)
    illegal(m, 1, c.ChooseOrder(go_first=True), "W-4.3")   # the loser may not choose


@pytest.mark.parametrize("go_first", [True, False])
def test_W_Q16_the_first_player_decides_the_mulligan_first_then_the_second(go_first: bool):
    m = _created(3)
    chooser = m.deciding
    m.submit(chooser, c.ChooseOrder(go_first=go_first))
    first = chooser if go_first else other(chooser)
    assert m.state.first_seat == first and m.state.phase == Phase.MULLIGAN
    assert m.deciding == first
    illegal(m, other(first), c.Mulligan(redraw=False), "W-Q16")
    envs = m.submit(first, c.Mulligan(redraw=True))
    assert envs[0].event == ev.MulliganTaken(seat=first)
    assert m.deciding == other(first)
    illegal(m, first, c.Mulligan(redraw=False), "W-Q16")   # once each
    envs = m.submit(other(first), c.Mulligan(redraw=False))
    assert envs[0].event == ev.MulliganDeclined(seat=other(first))
    assert one(envs, ev.GameBegan).event.first == first and m.state.turn_seat == first


# -- W-Q17 broken or sleeping targets -----------------------------------------------------------
def test_W_Q17_a_spell_may_target_a_broken_unit_and_a_sleeping_unit():
    p = Pos(p1=["火球", "衝撃波"], p2=["潮騒の槍兵", "大地の戦士"])
    broken = p.unit(2, 2, "潮騒の槍兵", broken=True)
    asleep = p.unit(2, 4, "大地の戦士", status=Status.SLEEP)
    fireball, wave = p.hand(1, "火球", "衝撃波")
    p.pile(1, 4, 2)
    p.pile(1, 5, 2)
    m = p.build()
    casts = [x for x in m.legal(1) if isinstance(x, c.Cast) and x.card == fireball]
    assert {x.targets for x in casts} >= {(broken,), (asleep,)}
    envs = m.submit(1, c.Cast(card=fireball, line=1, towers=(4,), targets=(broken,)))
    assert one(envs, ev.UnitDestroyed).event.card == broken   # 3 damage, VIT 3
    envs = m.submit(1, c.Cast(card=wave, line=2, towers=(5,), targets=(asleep,)))
    hit = one(envs, ev.UnitDamaged)
    assert (hit.event.card, hit.event.amount) == (asleep, 2)
    assert m.state.side(2).stage[3].damage == 2 and m.state.side(2).stage[3].status == Status.SLEEP
    folds(m)


# -- W-Q19 absolute columns ---------------------------------------------------------------------
def test_W_Q19_the_front_archer_on_line_2_hits_the_opponents_unit_on_line_2():
    p = Pos(p1=["正面の射手"], p2=["潮騒の槍兵", "潮騒の槍兵"])
    facing = p.unit(2, 2, "潮騒の槍兵")
    mirrored = p.unit(2, 4, "潮騒の槍兵")                  # line 4 is line 2 counted from the other edge
    archer, = p.hand(1, "正面の射手")
    p.pile(1, 5, 2)
    m = p.build()
    envs = m.submit(1, c.Summon(card=archer, line=2, towers=(5,)))
    hit = one(envs, ev.UnitDamaged)
    assert (hit.event.seat, hit.event.line, hit.event.card, hit.event.amount) == (2, 2, facing, 1)
    assert m.state.side(2).stage[1].damage == 1 and m.state.side(2).stage[3].damage == 0
    assert m.state.side(2).stage[3].card == mirrored
    folds(m)


def test_W_Q19_the_same_holds_for_the_second_seat():
    p = Pos(p1=["潮騒の槍兵", "潮騒の槍兵"], p2=["正面の射手"]).at(Phase.MAIN1, 2)
    facing = p.unit(1, 2, "潮騒の槍兵")
    p.unit(1, 4, "潮騒の槍兵")
    archer, = p.hand(2, "正面の射手")
    p.pile(2, 5, 2)
    m = p.build()
    envs = m.submit(2, c.Summon(card=archer, line=2, towers=(5,)))
    hit = one(envs, ev.UnitDamaged)
    assert (hit.event.seat, hit.event.line, hit.event.card) == (1, 2, facing)
    assert m.state.side(1).stage[3].damage == 0


# -- W-Q20 invented statistics ------------------------------------------------------------------
def test_W_Q20_every_sample_card_but_jiban_chinka_marks_invented_fields():
    cards = catalog()
    unmarked = sorted(name for name, d in cards.items() if not d.invented)
    assert unmarked == ["地盤沈下"]
    assert len(cards) > 60


def test_W_Q20_diptera_keeps_its_known_AGI_3_unmarked():
    dip = catalog()["ディプテラ"]
    assert dip.AGI == 3 and "agi" not in dip.invented and "all" not in dip.invented
    assert {"lv", "str", "vit", "elements", "families"} <= set(dip.invented)
    for name in ("風唄いミーミル", "氷塊の足枷"):            # their elements are guesses (W-Q20)
        assert "elements" in catalog()[name].invented and "all" not in catalog()[name].invented
