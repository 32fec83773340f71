"""Tests for the digest's proposals N-Q1 .. N-Q12 and the sample-set items N-C1 .. N-C10."""
from __future__ import annotations

import msgspec
import pytest

from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import Illegal
from kifu.domain.core.rng import Rng
from kifu.domain.novel import decide, decks
from kifu.domain.novel.cards import BEATS, card, catalog
from kifu.domain.novel.combat import attack_damage
from kifu.domain.novel.commands import Act, Done, Pick, Reveal
from kifu.domain.novel.legal import distance, legal, skill_targets
from kifu.domain.novel.state import MAGIC_SLOTS, ROW_SLOTS

from .scenario import RULES, ev, events_of, new_match, one, position, select, start, submit
from .test_clauses import FILLER, _skill, _turn, _with_hp


def _pick_filler(m, seat):  # type: ignore[no-untyped-def]
    return Pick(card=one(m.state, "旅の剣士", seat, "deck"))


# -- proposals ------------------------------------------------------------------------------------
def test_N_Q1_default_action_attacks_one_enemy_in_range():
    s = position(front1=("旅の剣士",), back1=("野戦の衛生兵",), front2=("火の衛兵",), back2=("風の斥候",))
    sword, medic = one(s, "旅の剣士", 1), one(s, "野戦の衛生兵")
    assert skill_targets(s, sword) == [one(s, "火の衛兵")]          # range 1 from the front: enemy front
    assert set(skill_targets(s, medic)) == {sword, medic}            # the healer's skill: allies in range


def test_N_Q2_three_slots_per_row_and_three_magic_slots():
    s = position(front1=("旅の剣士",) * 3, back1=("風の斥候",) * 2, front2=("旅の剣士",),
                 magic1=(("火球", True),) * MAGIC_SLOTS, deck1=("旅の剣士", "火球"))
    m = start(s)
    options = legal(m.state, 1)
    assert [p for p in options if isinstance(p, Pick)] == [Pick(card=one(m.state, "旅の剣士", 1, "deck"))]
    new = one(m.state, "旅の剣士", 1, "deck")
    evs = select(m, [Pick(card=new)], [_pick_filler(m, 2)])
    assert [e.row for e in events_of(evs, ev.Summoned) if e.card == new] == ["back"]   # front full
    assert ROW_SLOTS == 3


def test_N_Q3_same_row_is_distance_zero():
    s = position(front1=("旅の剣士", "火の衛兵"), front2=("旅の剣士",), back2=("風の斥候",))
    a = one(s, "旅の剣士", 1)
    assert distance(s, a, one(s, "火の衛兵")) == 0
    assert distance(s, a, one(s, "旅の剣士", 2)) == 1
    assert distance(s, a, one(s, "風の斥候")) == 2


def test_N_Q4_affinity_floored_before_def_and_stat_products_floored():
    assert attack_damage(21, "風", "氷", 0) == 10          # 21 × 0.5 = 10.5 -> 10
    assert attack_damage(21, "風", "土", 20) == 22         # 42 - 20
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("脆弱化",), deck2=FILLER)
    m = start(s)
    enemy = one(m.state, "旅の剣士", 2)
    select(m, [Pick(card=one(m.state, "脆弱化"), target=enemy)], [_pick_filler(m, 2)])
    assert m.state.card(enemy).def_ == 2                   # 5 × 0.5 = 2.5 -> 2


def test_N_Q5_same_category_tie_break_is_recorded():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("堅守",), deck2=("脆弱化",))
    m = start(s)
    mine = one(m.state, "旅の剣士", 1)
    evs = select(m, [Pick(card=one(m.state, "堅守"), target=mine)], [Pick(card=one(m.state, "脆弱化"), target=mine)])
    fixed = events_of(evs, ev.OrderFixed)
    assert fixed and fixed[0].cards == (one(m.state, "堅守"), one(m.state, "脆弱化"))   # cost 3 before cost 2
    assert m.state.card(mine).def_ == 5                    # 5 × 2 = 10, × 0.5 = 5 (not 2 × 2 = 4)


def test_N_Q6_face_down_magic_is_revealed_in_a_later_turn_at_no_cost():
    s = position(front1=("旅の剣士",), front2=("火の衛兵",), deck1=("火球",) + FILLER, deck2=FILLER)
    m = start(s)
    fb = one(m.state, "火球")
    select(m, [Pick(card=fb, face_down=True)], [_pick_filler(m, 2)])
    assert m.state.card(fb).face_down and not any(isinstance(c, Reveal) for c in legal(m.state, 1))
    _skill(m)
    guard = one(m.state, "火の衛兵")
    assert Reveal(card=fb, target=guard) in legal(m.state, 1)
    with pytest.raises(Illegal):
        m.submit(1, Done())                                 # a reveal is not the turn's card
    evs = submit(m, 1, Reveal(card=fb, target=guard)) + submit(m, 2, _pick_filler(m, 2))
    assert m.state.side(1).spent == 0                                  # no cost (N-Q6)
    evs += select(m, [_pick_filler(m, 1)], [])
    assert any(isinstance(e, ev.MagicFlipped) for e in evs)
    assert [e.damage for e in events_of(evs, ev.HpChanged) if e.card == guard][0] == 20


def test_N_Q7_no_legal_card_loses_when_the_field_is_full():
    """Checked when a select phase begins (as ``_begin_turn`` does): six characters on the field
    and only a character left in the deck is nothing to play."""
    s = position(front1=("旅の剣士",) * 3, back1=("風の斥候",) * 3, front2=("旅の剣士",),
                 deck1=("土の巨人",), deck2=FILLER, turn=1)
    m = start(s)
    assert legal(m.state, 1) == []
    draft: Draft = Draft(m.state, m.seq + 1, Rng(1), RULES.decider.evolve)
    decide._check_can_play(draft, m.seq, "N-Q7")
    ended = [e.event for e in draft.envelopes if isinstance(e.event, ev.MatchEnded)]
    assert ended and ended[0].winner == 2 and ended[0].termination == "nothing to play"


def test_N_Q8_row_collapse_is_permanent():
    s = position(front1=("水の槍兵",), front2=("火の衛兵",), back2=("氷の術士",), deck1=FILLER,
                 deck2=("火球", "火球", "風の斥候"))
    m = start(s)
    lancer, guard, mage = one(m.state, "水の槍兵"), one(m.state, "火の衛兵"), one(m.state, "氷の術士")
    _turn(m, [_pick_filler(m, 1)], [Pick(card=one(m.state, "火球", 2), face_down=True)],
          acts1=[Act(card=lancer, target=guard)])
    assert m.state.card(mage).zone == "front"
    scout = one(m.state, "風の斥候")
    select(m, [_pick_filler(m, 1)], [Pick(card=scout)])
    assert m.state.card(mage).zone == "front" and m.state.card(scout).zone == "back"


def test_N_Q9_healing_stops_at_max_hp_and_revive_reads_kept_stats():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("癒しの光",), deck2=FILLER)
    m = start(s)
    mine = one(m.state, "旅の剣士", 1)
    m = start(_with_hp(m.state, {mine: 45}))
    select(m, [Pick(card=one(m.state, "癒しの光"), target=mine)], [_pick_filler(m, 2)])
    assert m.state.card(mine).hp == 50
    _revive_reads_kept_stats()


def _revive_reads_kept_stats() -> None:
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), grave1=("火の衛兵",), deck1=("再誕の祈り",), deck2=FILLER)
    guard = one(s, "火の衛兵")
    cards = list(s.cards)
    cards[guard - 1] = msgspec.structs.replace(cards[guard - 1], max_hp=100, atk=40)   # kept changes
    m = start(msgspec.structs.replace(s, cards=tuple(cards)))
    evs = select(m, [Pick(card=one(m.state, "再誕の祈り"), target=guard)], [_pick_filler(m, 2)])
    revived = events_of(evs, ev.Revived)
    assert revived and revived[0].hp == 100 and m.state.card(guard).atk == 40
    assert m.state.card(guard).zone == "front"


def test_N_Q10_first_phase_is_turn_zero_then_turn_one():
    m = new_match()
    assert m.state.turn == 0
    for seat in (1, 2):
        submit(m, seat, next(p for p in legal(m.state, seat) if card(m.state.card(p.card).name).kind == "character"))
    while m.state.phase == "first":
        for seat in sorted(m.awaiting):
            submit(m, seat, Done() if Done() in legal(m.state, seat) else legal(m.state, seat)[0])
    assert m.state.turn == 1 and m.state.phase == "select"


def test_N_Q11_a_target_gone_by_resolution_fizzles_and_the_card_is_used():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("火球", "両断"), deck2=FILLER)
    m = start(s)
    enemy = one(m.state, "旅の剣士", 2)
    m = start(_with_hp(m.state, {enemy: 10}))
    cut = one(m.state, "両断")
    evs = select(m, [Pick(card=one(m.state, "火球"), target=enemy), Pick(card=cut, target=enemy)], [_pick_filler(m, 2)])
    assert [e.card for e in events_of(evs, ev.MagicFizzled)] == [cut]
    assert m.state.card(cut).zone == "grave"


def test_N_Q12_every_copy_is_a_card_of_its_own():
    deck = decks.load("tide-flame")
    m = new_match()
    mine = [c for c in m.state.cards if c.owner == 1]
    assert len(mine) == len(deck.cards) and len({c.id for c in mine}) == len(mine)
    assert sum(card(c.name).cost for c in mine) == 200


# -- the sample set -------------------------------------------------------------------------------
def test_N_C1_every_element_and_the_wrap_around():
    elements = {c.element for c in catalog().values() if c.kind == "character"}
    assert elements == {"無", "火", "水", "雷", "土", "風", "氷"}
    assert BEATS["火"] == "氷" and attack_damage(40, "火", "氷", 0) == 80 and attack_damage(40, "無", "火", 0) == 40


def test_N_C2_truncation_and_ranges_one_two_three():
    assert {c.rng for c in catalog().values() if c.kind == "character"} >= {1, 2, 3}
    assert any(c.atk % 2 for c in catalog().values() if c.kind == "character")
    s = position(back1=("氷の術士", "潮の賢者シズク"), front2=("旅の剣士",), back2=("風の斥候",))
    assert one(s, "風の斥候") not in skill_targets(s, one(s, "氷の術士"))
    assert one(s, "風の斥候") in skill_targets(s, one(s, "潮の賢者シズク"))


def test_N_C3_position_change_magic():
    s = position(front1=("旅の剣士", "火の衛兵"), front2=("旅の剣士",), deck1=("配置転換",), deck2=FILLER)
    m = start(s)
    guard = one(m.state, "火の衛兵")
    evs = select(m, [Pick(card=one(m.state, "配置転換"), target=guard)], [_pick_filler(m, 2)])
    assert any(isinstance(e, ev.Moved) and e.card == guard and e.row == "back" for e in evs)


def test_N_C4_equipment_bonus_survives_death():
    s = position(front1=("旅の剣士",), front2=("水の槍兵",), deck1=("鉄の盾", "旅の剣士"), deck2=FILLER)
    m = start(s)
    sword, lancer, shield = one(m.state, "旅の剣士", 1, "front"), one(m.state, "水の槍兵"), one(m.state, "鉄の盾")
    m = start(_with_hp(m.state, {sword: 5}))
    _turn(m, [Pick(card=shield, target=sword)], [_pick_filler(m, 2)], acts2=[Act(card=lancer, target=sword)])
    assert m.state.card(sword).zone == "grave" and m.state.card(sword).def_ == 15
    assert m.state.card(shield).attached_to == sword


def test_N_C5_magic_in_all_five_categories():
    assert {c.category for c in catalog().values() if c.kind == "magic"} == {1, 2, 3, 4, 5}
    s = position(front1=("旅の剣士",), front2=("土の巨人",), deck1=("両断",), deck2=("活性",))
    m = start(s)
    giant = one(m.state, "土の巨人")
    m = start(_with_hp(m.state, {giant: 60}))
    evs = select(m, [Pick(card=one(m.state, "両断"), target=giant)], [Pick(card=one(m.state, "活性"), target=giant)])
    hit = [e for e in events_of(evs, ev.HpChanged) if e.card == giant][0]
    assert (hit.damage, hit.heal, hit.hp) == (30, 30, 60)           # ×0.5 and ×1.5 from one snapshot cancel


def test_N_C6_face_down_then_revealed():
    test_N_Q6_face_down_magic_is_revealed_in_a_later_turn_at_no_cost()


def test_N_C7_equal_agi_mutual_kill():
    s = position(front1=("水の槍兵",), front2=("焔の姫ホムラ",), deck1=("火球",), deck2=("火球",))
    lancer, homura = one(s, "水の槍兵"), one(s, "焔の姫ホムラ")
    m = start(_with_hp(s, {lancer: 10, homura: 10}))
    select(m, [Pick(card=one(m.state, "火球", 1), face_down=True)],
           [Pick(card=one(m.state, "火球", 2), face_down=True)])
    evs = _skill(m, [Act(card=lancer, target=homura)], [Act(card=homura, target=lancer)])
    assert {e.card for e in events_of(evs, ev.Died)} == {lancer, homura}


def test_N_C8_end_phase_skill_and_revive():
    s = position(front1=("旅の剣士",), back1=("潮の賢者シズク",), front2=("旅の剣士",), deck1=FILLER, deck2=FILLER)
    mine = one(s, "旅の剣士", 1)
    m = start(_with_hp(s, {mine: 30}))
    evs = _turn(m, [_pick_filler(m, 1)], [_pick_filler(m, 2)])
    end = evs.index(next(e for e in evs if isinstance(e, ev.PhaseBegun) and e.phase == "end"))
    assert [e.heal for e in evs[end:] if isinstance(e, ev.HpChanged) and e.card == mine] == [10]
    _revive_reads_kept_stats()


def test_N_C9_presets_at_the_deck_limits():
    every = set()
    for name in decks.preset_names():
        d = decks.load(name)
        kinds = set(d.cards)
        assert sum(card(n).cost for n in d.cards) == 200
        assert sum(1 for n in kinds if card(n).named) == 3 and sum(1 for n in kinds if not card(n).named) == 6
        every |= kinds
    assert every == set(catalog()) and len(decks.preset_names()) >= 4


def test_N_C10_turn_rules_together():
    # summon-turn rest, forced play, no-card loss, 100-turn draw, end-of-turn judgement
    from .test_clauses import (
        test_N_4_1_draw_when_neither_side_has_characters,
        test_N_4_2_a_seat_with_nothing_to_play_loses_at_turn_start,
        test_N_4_3_draw_after_turn_100,
        test_N_6_1_no_action_on_the_summon_turn,
    )
    test_N_6_1_no_action_on_the_summon_turn()
    test_N_4_2_a_seat_with_nothing_to_play_loses_at_turn_start()
    test_N_4_3_draw_after_turn_100()
    test_N_4_1_draw_when_neither_side_has_characters()
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=FILLER, deck2=FILLER)
    assert Done() not in legal(start(s).state, 1)
