"""A-9 influence, A-10 soul power, A-11 miscellany, and the digest's proposals A-Q1 .. A-Q12."""
from __future__ import annotations

import pytest
from alteil_scenario import END, RULES, SET, START, TEST_DECK, Position, c, ev, illegal, kinds, of, one

from kifu.domain.alteil import vocabulary
from kifu.domain.alteil.stats import influence
from kifu.domain.alteil.vocabulary import LIMIT, MULLIGAN, SOUL
from kifu.domain.core.driver import drive
from kifu.domain.core.errors import InvalidDeck
from kifu.domain.core.match import Match


def test_A_9_1_influence_counts_per_god_and_is_never_spent() -> None:
    p = Position()
    knight = p.hand(1, "光の見習い騎士")[0]
    p.influence(1, "聖盾の守護兵", "火炎の戦士", "炎の弓兵")
    p.soul(1, 3)
    m = p.match()
    assert influence(m.state, 1, "Lifes") == 1 and influence(m.state, 1, "Gouen") == 2
    m.submit(1, c.PlaceUnit(card=knight, square=1))
    assert influence(m.state, 1, "Lifes") == 1 and len(m.state.side(1).influence) == 3


def test_A_9_2_discarded_influence_goes_to_senka() -> None:
    p = Position()
    shatter = p.hand(1, "水鏡の破砕")[0]              # Falkau LV1, pay 1: discard an influence card
    p.influence(1, "水の衛兵")
    p.soul(1, 1)
    theirs = p.influence(2, "火炎の戦士", "炎の弓兵")
    p.unit(1, "闇の斥候", 1)
    m = p.window(1).match()
    envs = m.submit(1, c.UseGrimoire(card=shatter, target=theirs[0]))
    assert one(envs, ev.InfluenceDiscarded) == ev.InfluenceDiscarded(seat=2, card=theirs[0])
    assert envs[-1].clause == "A-9.2" or "A-9.2" in [e.clause for e in envs]
    assert theirs[0] in m.state.side(2).senka and influence(m.state, 2, "Gouen") == 1


def test_A_10_1_gain_moves_deck_top_cards_to_the_soul_pile() -> None:
    p = Position()
    mirua = p.unit(1, "『蒼海のミルア』", 1)
    m = p.at(step=SET, actor=1, passes=1).match()
    top = m.state.side(1).deck[0]
    envs = m.submit(1, c.PassSet())
    assert one(envs, ev.SoulGained) == ev.SoulGained(seat=1, cards=(top,), wanted=1)
    assert m.state.side(1).soul == (top,) and mirua


def test_A_10_2_payment_goes_one_at_a_time_to_the_deck_top() -> None:
    p = Position()
    lad = p.hand(1, "『黒曜のヴァルド』")[0]
    p.influence(1, "闇の斥候", "骸骨兵", "影縫いの呪術師", "骸骨兵")
    pile = p.soul(1, 5)
    m = p.match()
    deck = m.state.side(1).deck
    envs = m.submit(1, c.PlaceUnit(card=lad, square=1))
    paid = one(envs, ev.SoulPaid)
    assert paid.cards == tuple(reversed(pile[1:])) and paid.amount == 4
    assert m.state.side(1).deck == pile[1:] + deck and m.state.side(1).soul == pile[:1]


def test_A_10_3_reduction_is_not_a_payment() -> None:
    p = Position()
    whisper, fodder = p.hand(1, "闇の囁き", "水の衛兵")       # Lotia LV2, discard 1: opponent soul -2
    p.influence(1, "闇の斥候", "骸骨兵")
    theirs = p.soul(2, 3)
    m = p.window(1).match()
    envs = m.submit(1, c.UseGrimoire(card=whisper, discard=fodder))
    assert not of(envs, ev.SoulPaid)
    reduced = one(envs, ev.SoulReduced)
    assert reduced.amount == 2 and reduced.cards == (theirs[2], theirs[1])
    assert m.state.side(2).deck[:2] == (theirs[1], theirs[2])
    assert fodder in m.state.side(1).senka


def test_A_11_1_no_summoning_sickness() -> None:
    p = Position()
    knight = p.hand(1, "光の見習い騎士")[0]
    p.influence(1, "聖盾の守護兵")
    p.soul(1, 1)
    m = p.match()
    m.submit(1, c.PlaceUnit(card=knight, square=1))
    m.submit(2, c.PassSet())
    m.submit(1, c.PassSet())
    m.submit(1, c.Pass())
    m.submit(2, c.Pass())            # START grimoire windows
    m.submit(1, c.Pass())
    envs = m.submit(2, c.Pass())     # the first action window
    assert one(envs, ev.ActorNamed).card == knight


def test_A_11_2_named_unique_across_both_fields_first_out_survives() -> None:
    p = Position()
    p.unit(2, "『蒼海のミルア』", 1)
    mirua = p.hand(1, "『蒼海のミルア』")[0]
    p.influence(1, "水の衛兵", "潮読みの賢者", "深淵の魚人")
    p.soul(1, 3)
    m = p.match()
    assert not [x for x in m.legal(1) if isinstance(x, c.PlaceUnit) and x.card == mirua]
    exc = illegal(m, 1, c.PlaceUnit(card=mirua, square=1), "A-Q4")
    assert "already on the field" in exc.reason


def test_A_11_3_two_players_only() -> None:
    with pytest.raises(InvalidDeck) as exc:
        Match.create(RULES, match_id="three", seed=1, decks=[TEST_DECK] * 3, players=("a", "b"))
    assert exc.value.clause == "A-11.3"


def test_A_Q1_both_players_prepare_every_turn() -> None:
    assert vocabulary.BOTH_PREPARE is True
    p = Position()
    m = p.at(step=END, sub=SOUL, actor=2, turn_seat=1).match()
    envs = m.submit(2, c.EndDiscards())
    assert {d.seat for d in of(envs, ev.CardsDrawn)} == {1, 2}
    assert {d.seat for d in of(envs, ev.SoulGained)} == {1, 2}


def test_A_Q2_next_fires_at_the_next_start_phase_and_survives_the_cleanup() -> None:
    p = Position()
    sage = p.unit(1, "潮読みの賢者", 1)          # ACTION/NEXT: next start phase, own units AT+1
    ally = p.unit(1, "火炎の戦士", 2, acted=True)
    m = p.acting(sage).match()
    envs = m.submit(1, c.UseSkill(card=sage))
    assert one(envs, ev.NextScheduled) == ev.NextScheduled(seat=1, card=sage)
    assert m.state.side(1).unit(ally).at == 0          # nothing happens this turn
    m.submit(1, c.EndDiscards())
    envs = m.submit(2, c.EndDiscards())
    assert one(envs, ev.EffectsEnded).kept == (sage,)
    # turn 2 (seat 2): influence and set, then the start phase fires NEXT
    m.submit(2, c.EndInfluence())
    m.submit(2, c.PassSet())
    envs = m.submit(1, c.PassSet())
    fired = one(envs, ev.SkillFired)
    assert (fired.card, fired.icon) == (sage, "NEXT") and envs[kinds(envs).index("SkillFired")].clause == "A-Q2"
    assert m.state.side(1).unit(ally).at == 1 and m.state.pending == ()


def test_A_Q3_grimoire_window_before_each_action_turn_player_first() -> None:
    p = Position()
    a = p.unit(1, "火炎の戦士", 1)
    b = p.unit(2, "闇の斥候", 1)
    m = p.acting(a).match()
    envs = m.submit(1, c.Wait(card=a))
    assert one(envs, ev.WindowOpened) == ev.WindowOpened(seat=1)
    envs = m.submit(1, c.Pass())
    assert envs[-1].event == ev.WindowPassed(seat=1) and m.awaiting == {2}
    envs = m.submit(2, c.Pass())
    assert one(envs, ev.ActorNamed).card == b


def test_A_Q4_a_name_on_either_field_blocks_placement() -> None:
    p = Position()
    p.unit(2, "『白翼のリーゼ』", 3)
    riese = p.hand(1, "『白翼のリーゼ』")[0]
    p.influence(1, "光の見習い騎士", "聖盾の守護兵", "陽光の祈祷師")
    p.soul(1, 3)
    m = p.match()
    illegal(m, 1, c.PlaceUnit(card=riese, square=1), "A-Q4")


def test_A_Q5_agi_changed_mid_phase_reorders_the_rest() -> None:
    p = Position()
    haste = p.hand(2, "加速の呪文")[0]                # Lifes LV1, pay 1: own unit AGI+3
    p.influence(2, "光の見習い騎士")
    p.soul(2, 1)
    scout = p.unit(1, "闇の斥候", 1)                  # AGI 5
    slow = p.unit(2, "水の衛兵", 1)                   # AGI 2 -> 5... +3 = 5: ties with the scout
    fast = p.unit(1, "火炎の戦士", 2)                 # AGI 3
    m = p.window(1).match()
    m.submit(1, c.Pass())
    m.submit(2, c.UseGrimoire(card=haste, target=slow))
    envs = m.submit(2, c.Pass())
    tie = one(envs, ev.TieChoice)
    assert tie.agi == 5 and tie.seat == 1 and tie.units == (scout,)
    assert fast


def test_A_Q6_set_phase_ends_after_two_passes_in_succession() -> None:
    p = Position()
    k1 = p.hand(1, "光の見習い騎士")[0]
    k2 = p.hand(2, "光の見習い騎士")[0]
    p.influence(1, "聖盾の守護兵")
    p.influence(2, "聖盾の守護兵")
    p.soul(1, 1)
    p.soul(2, 1)
    m = p.match()
    m.submit(1, c.PassSet())
    m.submit(2, c.PlaceUnit(card=k2, square=1))
    assert m.awaiting == {1}                       # seat 1 passed, but may place again
    m.submit(1, c.PlaceUnit(card=k1, square=1))
    m.submit(2, c.PassSet())
    envs = m.submit(1, c.PassSet())
    assert one(envs, ev.PhaseBegan).phase == START


def test_A_Q7_only_a_compulsory_draw_loses() -> None:
    p = Position()
    rain, fodder = p.hand(1, "恵みの雨", "水の衛兵")   # discard 1: draw 2
    p.influence(1, "潮読みの賢者")
    p.deck(1, 1)
    m = p.window(1).match()
    envs = m.submit(1, c.UseGrimoire(card=rain, discard=fodder))
    assert len(one(envs, ev.CardsDrawn).cards) == 1 and m.outcome is None
    q = Position()
    mirua = q.unit(1, "『蒼海のミルア』", 1)
    q.deck(1, 0)
    m = q.at(step=SET, actor=1, passes=1).match()
    envs = m.submit(1, c.PassSet())
    assert one(envs, ev.SoulGained) == ev.SoulGained(seat=1, cards=(), wanted=1) and m.outcome is None
    assert mirua


def test_A_Q8_both_players_keep_to_the_hand_limit() -> None:
    assert vocabulary.LIMIT_BOTH is True
    p = Position()
    p.hand(2, *(["火炎の戦士"] * 3 + ["水の衛兵"] * 3 + ["闇の斥候"] * 2))
    m = p.at(step=END, sub=SOUL, actor=2, turn_seat=1).match()
    m.submit(2, c.EndDiscards())
    assert m.state.sub == LIMIT and m.awaiting == {2}


def test_A_Q9_back_row_attacker_with_empty_front_uses_the_front_line() -> None:
    p = Position()
    back = p.unit(1, "火炎の戦士", 5)
    front, rear = p.unit(2, "水の衛兵", 3), p.unit(2, "骸骨兵", 6)
    m = p.acting(back).match()
    assert [x.target for x in m.legal(1) if isinstance(x, c.Attack)] == [front]
    illegal(m, 1, c.Attack(card=back, target=rear), "A-7.2")


def test_A_Q10_no_unit_ever_stands_on_a_destroyed_square() -> None:
    for seed in range(1, 6):
        m = Match.create(RULES, match_id=f"q10-{seed}", seed=seed, decks=[RULES.content.load_deck("dawn-blaze"),
                                                                          RULES.content.load_deck("night-tide")],
                         players=("a", "b"))
        drive(m, {1: RULES.content.bots["greedy"](seed), 2: RULES.content.bots["random"](seed)})
        state = RULES.decider.initial_state(m.header)
        for env in m.envelopes:
            state = _fold(state, env.event)
            for side in state.sides:
                if side.destroyed and side.units:
                    assert not any(side.destroyed[u.square - 1] for u in side.units)


def _fold(state, event):  # type: ignore[no-untyped-def]
    from kifu.domain.core.match import record_evolve
    return record_evolve(RULES)(state, event)


def test_A_Q11_setup_follows_the_seed_order() -> None:
    m = Match.create(RULES, match_id="q11", seed=5, decks=[TEST_DECK, TEST_DECK], players=("a", "b"))
    assert m.state.step == MULLIGAN and m.state.first_seat == 0       # no first player before the mulligans
    m.submit(1, c.Mulligan())
    envs = m.submit(2, c.Mulligan())
    assert kinds(envs) == ["MulliganDecided", "FirstPlayerDecided", "BattlefieldSet", "BattlefieldSet",
                           "SoulGained", "OpeningStarted"]


def test_A_Q12_damage_persists_and_only_effects_heal() -> None:
    p = Position()
    riese = p.unit(1, "『白翼のリーゼ』", 1)           # ACTION pay 1: heal 3
    hurt = p.unit(1, "水の衛兵", 2, damage=2, acted=True)
    p.soul(1, 1)
    m = p.acting(riese).match()
    m.submit(1, c.Wait(card=riese))
    m.submit(1, c.EndDiscards())
    m.submit(2, c.EndDiscards())                      # a whole turn passes: the damage stays
    assert m.state.side(1).unit(hurt).damage == 2
    q = Position()
    riese = q.unit(1, "『白翼のリーゼ』", 1)
    hurt = q.unit(1, "水の衛兵", 2, damage=2)
    q.soul(1, 1)
    m = q.acting(riese).match()
    envs = m.submit(1, c.UseSkill(card=riese, target=hurt))
    assert one(envs, ev.Healed) == ev.Healed(seat=1, card=hurt, amount=2)
    assert m.state.side(1).unit(hurt).damage == 0
