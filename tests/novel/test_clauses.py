"""One test per clause of the novel ruleset (N-1 .. N-8, N-Q1 .. N-Q12), named for it."""
from __future__ import annotations

import pytest

from kifu.domain.core.errors import Illegal, InvalidDeck
from kifu.domain.novel import decks
from kifu.domain.novel.cards import BEATS, ELEMENTS, card, catalog
from kifu.domain.novel.combat import attack_damage
from kifu.domain.novel.legal import distance, legal, skill_targets
from kifu.domain.novel.state import TURN_LIMIT
from kifu.domain.novel.view import view

from .scenario import RULES, Act, Done, Pick, ev, events_of, new_match, one, position, select, start, submit

FILLER = ("旅の剣士",) * 3


def _deck(**cards: int) -> decks.Deck:
    return decks.Deck(name="t", cards=tuple(n for n, k in cards.items() for _ in range(k)))


def _skill(m, acts1=(), acts2=()):  # type: ignore[no-untyped-def]
    """Answer the skill phase: the listed Acts in order, then the first legal choice."""
    out = []
    a1, a2 = list(acts1), list(acts2)
    while m.outcome is None and m.state.phase == "skill":
        for seat, queue in ((1, a1), (2, a2)):
            if seat in m.awaiting and m.state.phase == "skill":
                cmd = queue.pop(0) if queue else legal(m.state, seat)[0]
                out += submit(m, seat, cmd)
    return out


def _turn(m, picks1, picks2, acts1=(), acts2=()):  # type: ignore[no-untyped-def]
    return select(m, picks1, picks2) + _skill(m, acts1, acts2)


# -- N-1 cards ------------------------------------------------------------------------------------
def test_N_1_1_three_card_kinds():
    assert {c.kind for c in catalog().values()} == {"character", "equipment", "magic"}


def test_N_1_2_named_cards_are_marked_and_rarity_is_one_to_six():
    for c in catalog().values():
        assert c.text.startswith("=ネームド=") == c.named
        assert 1 <= c.rarity <= 6


# -- N-2 deck building ----------------------------------------------------------------------------
def test_N_2_1_total_cost_at_most_200_and_a_character():
    with pytest.raises(InvalidDeck) as e:
        decks.validate(_deck(土の巨人=51))
    assert e.value.clause == "N-2.1"
    with pytest.raises(InvalidDeck) as e:
        decks.validate(_deck(火球=3))
    assert e.value.clause == "N-2.1"
    decks.validate(_deck(土の巨人=50))


def test_N_2_2_named_one_copy_three_kinds():
    with pytest.raises(InvalidDeck) as e:
        decks.validate(_deck(焔の姫ホムラ=2))
    assert e.value.clause == "N-2.2"
    with pytest.raises(InvalidDeck) as e:
        decks.validate(_deck(焔の姫ホムラ=1, 潮の賢者シズク=1, 雷神ライデン=1, 氷の女王フユ=1))
    assert e.value.clause == "N-2.2"


def test_N_2_3_at_most_six_normal_kinds_any_copies():
    decks.validate(_deck(旅の剣士=30))
    with pytest.raises(InvalidDeck) as e:
        decks.validate(_deck(旅の剣士=1, 火の衛兵=1, 水の槍兵=1, 雷の射手=1, 土の巨人=1, 風の斥候=1, 氷の術士=1))
    assert e.value.clause == "N-2.3"


def test_N_2_3_deck_file_errors_name_rule_and_line(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('name = "bad"\n[cards]\n"焔の姫ホムラ" = 2\n', "utf-8")
    with pytest.raises(InvalidDeck) as e:
        decks.load(str(f))
    assert e.value.clause == "N-2.2" and "line 3" in str(e.value)


# -- N-3 field ------------------------------------------------------------------------------------
def test_N_3_1_used_magic_goes_to_the_graveyard():
    s = position(front1=("旅の剣士",), front2=("火の衛兵",), deck1=("火球",))
    m = start(s)
    fb = one(m.state, "火球")
    target = one(m.state, "火の衛兵")
    evs = select(m, [Pick(card=fb, target=target)], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    assert m.state.card(fb).zone == "grave"
    assert any(isinstance(e, ev.CardSpent) and e.card == fb for e in evs)


def test_N_3_2_any_deck_card_equipment_under_and_face_down_hidden():
    s = position(front1=("旅の剣士",), front2=("火の衛兵",), deck1=("鉄の盾", "火球", "土の巨人"))
    m = start(s)
    kinds = {m.state.card(p.card).name for p in legal(m.state, 1) if isinstance(p, Pick)}
    assert kinds == {"鉄の盾", "火球", "土の巨人"}
    sword, shield, fb = one(m.state, "旅の剣士", 1), one(m.state, "鉄の盾"), one(m.state, "火球")
    select(m, [Pick(card=shield, target=sword), Pick(card=fb, face_down=True)],
           [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    assert m.state.card(shield).zone == "attached" and m.state.card(shield).attached_to == sword
    assert m.state.card(sword).def_ == 15
    seen = view(m.state, 2).sides[0].magic
    assert [cv.id for cv in seen] == [0] and not seen[0].name


# -- N-4 win/loss/draw ----------------------------------------------------------------------------
def test_N_4_1_win_when_the_enemy_has_no_character_at_turn_end():
    s = position(front1=("水の槍兵",), front2=("火の衛兵",), deck1=FILLER, deck2=("火球", "火球"))
    m = start(s)
    lancer, guard = one(m.state, "水の槍兵"), one(m.state, "火の衛兵")
    # the guard has 70 HP: the 90 damage of the worked example kills it
    evs = _turn(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))],
                [Pick(card=one(m.state, "火球", 2), face_down=True)],
                acts1=[Act(card=lancer, target=guard)])
    assert m.outcome is not None and m.outcome.winner == 1
    ended = events_of(evs, ev.MatchEnded)
    assert ended and ended[0].termination == "no characters"


def test_N_4_1_draw_when_neither_side_has_characters():
    s = position(front1=("水の槍兵",), front2=("焔の姫ホムラ",), deck1=("火球",), deck2=("火球",))
    s = s.__class__(**{**{f: getattr(s, f) for f in s.__struct_fields__}})
    m = start(s)
    lancer, homura = one(m.state, "水の槍兵"), one(m.state, "焔の姫ホムラ")
    # both cast 火球 face down so nothing else is summoned; AGI 5 vs 5 fire together (N-6.5)
    m2 = start(_with_hp(m.state, {lancer: 10, homura: 10}))
    select(m2, [Pick(card=one(m2.state, "火球", 1), face_down=True)],
           [Pick(card=one(m2.state, "火球", 2), face_down=True)])
    _skill(m2, [Act(card=lancer, target=homura)], [Act(card=homura, target=lancer)])
    assert m2.outcome is not None and m2.outcome.winner is None and m2.outcome.termination == "no characters"


def _with_hp(state, hp):  # type: ignore[no-untyped-def]
    import msgspec
    cards = tuple(msgspec.structs.replace(c, hp=hp[c.id]) if c.id in hp else c for c in state.cards)
    return msgspec.structs.replace(state, cards=cards)


def test_N_4_2_a_seat_with_nothing_to_play_loses_at_turn_start():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("火球",), deck2=("火球", "火球"))
    m = start(s)
    evs = select(m, [Pick(card=one(m.state, "火球", 1), face_down=True)],
                 [Pick(card=one(m.state, "火球", 2), face_down=True)])
    evs += _skill(m)
    lost = events_of(evs, ev.Lost)
    assert [x.seat for x in lost] == [1] and m.outcome.winner == 2 and m.outcome.termination == "nothing to play"


def test_N_4_3_draw_after_turn_100():
    s = position(back1=("野戦の衛生兵",), back2=("野戦の衛生兵",), deck1=("癒しの光",), deck2=("癒しの光",),
                 turn=TURN_LIMIT)
    m = start(s)
    evs = _turn(m, [Pick(card=one(m.state, "癒しの光", 1), target=one(m.state, "野戦の衛生兵", 1))],
                [Pick(card=one(m.state, "癒しの光", 2), target=one(m.state, "野戦の衛生兵", 2))])
    assert m.outcome is not None and m.outcome.winner is None and m.outcome.termination == "turn limit"
    assert events_of(evs, ev.MatchEnded)[0].termination == "turn limit"


# -- N-5 flow -------------------------------------------------------------------------------------
def test_N_5_1_first_phase_up_to_six_cost_with_a_character():
    m = new_match()
    assert m.state.phase == "first" and m.state.turn == 0 and m.awaiting == {1, 2}
    options = legal(m.state, 1)
    assert Done() not in options
    assert all(card(m.state.card(p.card).name).kind == "character" or p.face_down for p in options)
    magic = next(p for p in options if isinstance(p, Pick) and p.face_down)
    submit(m, 1, magic)
    submit(m, 2, next(p for p in legal(m.state, 2) if card(m.state.card(p.card).name).kind == "character"))
    assert Done() not in legal(m.state, 1)          # still no character chosen


def test_N_5_2_turn_runs_select_summon_magic_skill_end():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=FILLER, deck2=FILLER)
    m = start(s)
    evs = _turn(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    phases = [e.phase for e in events_of(evs, ev.PhaseBegun)]
    assert phases[:5] == ["summon", "magic", "skill", "end", "select"]


def test_N_5_2_1_six_cost_one_card_a_turn_and_secret():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("土の巨人", "土の巨人", "旅の剣士"), deck2=FILLER)
    m = start(s)
    assert Done() not in legal(m.state, 1)           # at least one card a turn
    g1, g2 = one(m.state, "土の巨人", 1, "deck"), [c for c in (one(m.state, "旅の剣士", 1, "deck"),)][0]
    submit(m, 1, Pick(card=g1))
    assert view(m.state, 2).sides[0].picks == ()     # the other seat sees nothing of the choice
    assert view(m.state, 2).sides[0].status == "chosen"
    submit(m, 2, Pick(card=one(m.state, "旅の剣士", 2, "deck")))
    options = legal(m.state, 1)
    assert Pick(card=g2) in options and all(card(m.state.card(p.card).name).cost <= 2
                                           for p in options if isinstance(p, Pick))
    with pytest.raises(Illegal) as e:
        m.submit(1, Pick(card=g1 + 1))
    assert e.value.clause == "N-5.2.1"


def test_N_5_2_2_chosen_cards_of_both_seats_are_summoned_together():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=FILLER, deck2=FILLER)
    m = start(s)
    a, b = one(m.state, "旅の剣士", 1, "deck"), one(m.state, "旅の剣士", 2, "deck")
    evs = select(m, [Pick(card=a)], [Pick(card=b)])
    assert [(e.seat, e.card) for e in events_of(evs, ev.Summoned)] == [(1, a), (2, b)]
    assert not events_of(evs[:evs.index(events_of(evs, ev.Summoned)[0])], ev.Summoned)


def test_N_5_2_3_magic_resolves_in_category_order_across_seats():
    s = position(front1=("旅の剣士",), front2=("火の衛兵",), deck1=("火球", "鼓舞"), deck2=("閃光", "脆弱化"))
    m = start(s)
    sword, guard = one(m.state, "旅の剣士"), one(m.state, "火の衛兵")
    evs = select(m, [Pick(card=one(m.state, "火球"), target=guard), Pick(card=one(m.state, "鼓舞"))],
                 [Pick(card=one(m.state, "閃光"), target=sword), Pick(card=one(m.state, "脆弱化"), target=sword)])
    cats = [e.category for e in events_of(evs, ev.MagicResolved)]
    assert cats == sorted(cats) == [1, 2, 3, 4]
    # 脆弱化 halves DEF 5 -> 2 (floored); 火球 30 - DEF 10 = 20 on the guard
    assert m.state.card(sword).def_ == 2 and m.state.card(guard).hp == 50


def test_N_5_2_4_skills_fire_in_agi_order():
    s = position(front1=("旅の剣士",), back1=("風の斥候",), front2=("土の巨人",), deck1=FILLER, deck2=FILLER)
    m = start(s)
    evs = _turn(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    lit = [e.agi for e in events_of(evs, ev.GroupLit)]
    assert lit == sorted(lit, reverse=True) and lit[0] == 8


def test_N_5_2_5_end_phase_skill():
    s = position(front1=("焔の姫ホムラ",), front2=("旅の剣士", "旅の剣士"), deck1=FILLER, deck2=FILLER)
    m = start(s)
    evs = _turn(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    end = evs.index(next(e for e in evs if isinstance(e, ev.PhaseBegun) and e.phase == "end"))
    hits = [e for e in evs[end:] if isinstance(e, ev.HpChanged)]
    assert hits and all(h.damage == 5 for h in hits)        # 10 - DEF 5 to each enemy front


def test_N_5_3_turns_repeat_until_decided():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=FILLER, deck2=FILLER, turn=3)
    m = start(s)
    _turn(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    assert m.outcome is None and m.state.turn == 4 and m.state.phase == "select"


# -- N-6 combat -----------------------------------------------------------------------------------
def test_N_6_1_no_action_on_the_summon_turn():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=FILLER, deck2=FILLER)
    m = start(s)
    new = one(m.state, "旅の剣士", 1, "deck")
    evs = select(m, [Pick(card=new)], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    assert any(isinstance(e, ev.CannotAct) and e.card == new and "summoned" in e.reason for e in evs)


def test_N_6_1_an_end_phase_skill_does_not_fire_on_the_summon_turn():
    """行動 is a character's skill firing, the end phase's as much as the skill phase's."""
    s = position(front1=("旅の剣士",), front2=("旅の剣士", "旅の剣士"), deck1=("焔の姫ホムラ",) + FILLER, deck2=FILLER)
    m = start(s)
    evs = _turn(m, [Pick(card=one(m.state, "焔の姫ホムラ", 1, "deck"))],
                [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    end = evs.index(next(e for e in evs if isinstance(e, ev.PhaseBegun) and e.phase == "end"))
    assert not [e for e in evs[end:] if isinstance(e, ev.HpChanged)]
    evs = _turn(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    end = evs.index(next(e for e in evs if isinstance(e, ev.PhaseBegun) and e.phase == "end"))
    assert [e for e in evs[end:] if isinstance(e, ev.HpChanged)]     # the next turn it fires


def test_N_6_2_death_keeps_equipment_and_stat_changes():
    s = position(front1=("旅の剣士",), front2=("水の槍兵",), deck1=("不死鳥の羽", "旅の剣士"), deck2=FILLER)
    m = start(s)
    sword, lancer = one(m.state, "旅の剣士", 1, "front"), one(m.state, "水の槍兵")
    plume = one(m.state, "不死鳥の羽")
    m = start(_with_hp(m.state, {sword: 10}))
    _turn(m, [Pick(card=plume, target=sword)], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))],
          acts2=[Act(card=lancer, target=sword)])
    c = m.state.card(sword)
    assert c.zone == "grave" and c.max_hp == 80 and c.atk == 30
    assert m.state.card(plume).zone == "attached" and m.state.card(plume).attached_to == sword


def test_N_6_3_damage_is_incoming_minus_def_rounded_down():
    assert attack_damage(30, "無", "無", 10) == 20
    assert attack_damage(25, "雷", "土", 5) == 7          # 25 × 0.5 = 12.5 -> 12, - 5
    assert attack_damage(5, "無", "無", 10) == 0


def test_N_6_4_damage_and_healing_at_once_cancel():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("癒しの光",), deck2=("火球",))
    m = start(s)
    mine = one(m.state, "旅の剣士", 1, "front")
    evs = select(m, [Pick(card=one(m.state, "癒しの光"), target=mine)],
                 [Pick(card=one(m.state, "火球"), target=mine)])
    hit = [e for e in events_of(evs, ev.HpChanged) if e.card == mine][0]
    assert (hit.damage, hit.heal, hit.hp) == (25, 20, 45)


def test_N_6_5_equal_agi_choose_together_and_fire_together():
    s = position(front1=("水の槍兵",), front2=("焔の姫ホムラ",), deck1=FILLER, deck2=FILLER)
    m = start(s)
    lancer, homura = one(m.state, "水の槍兵"), one(m.state, "焔の姫ホムラ")
    select(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    assert m.state.phase == "skill" and set(m.state.group) == {lancer, homura} and m.awaiting == {1, 2}
    submit(m, 1, Act(card=lancer, target=homura))
    assert m.awaiting == {2} and view(m.state, 2).sides[0].status == "chosen"
    evs = submit(m, 2, Act(card=homura, target=lancer))
    hits: dict = {}
    for e in events_of(evs, ev.HpChanged):
        hits.setdefault(e.card, e)
    assert hits[homura].damage == 50 * 2 - 15 and hits[lancer].damage == 45 // 2 - 5


# -- N-7 position and range -----------------------------------------------------------------------
def test_N_7_1_distance_counts_rows_from_the_back_row():
    s = position(front1=("旅の剣士",), back1=("雷の射手",), front2=("旅の剣士",), back2=("風の斥候",))
    archer = one(s, "雷の射手")
    assert distance(s, archer, one(s, "旅の剣士", 1)) == 1
    assert distance(s, archer, one(s, "旅の剣士", 2)) == 2
    assert distance(s, archer, one(s, "風の斥候")) == 3


def test_N_7_2_targets_must_be_within_range():
    s = position(front1=("旅の剣士",), back1=("氷の術士", "雷の射手"), front2=("旅の剣士",), back2=("風の斥候",))
    mage, archer = one(s, "氷の術士"), one(s, "雷の射手")
    assert skill_targets(s, mage) == [one(s, "旅の剣士", 2)]                  # range 2: enemy front only
    assert set(skill_targets(s, archer)) == {one(s, "旅の剣士", 2), one(s, "風の斥候")}   # range 3


def test_N_7_3_an_empty_front_row_takes_the_back_row():
    s = position(front1=("水の槍兵",), front2=("火の衛兵",), back2=("風の斥候",), deck1=FILLER, deck2=("火球",) * 2)
    m = start(s)
    lancer, guard, scout = one(m.state, "水の槍兵"), one(m.state, "火の衛兵"), one(m.state, "風の斥候")
    evs = _turn(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))],
                [Pick(card=one(m.state, "火球", 2), face_down=True)],
                acts1=[Act(card=lancer, target=guard)])
    assert any(isinstance(e, ev.Moved) and e.card == scout and e.row == "front" for e in evs)


# -- N-8 elements ---------------------------------------------------------------------------------
def test_N_8_1_seven_elements():
    assert ELEMENTS == ("無", "火", "水", "雷", "土", "風", "氷")


def test_N_8_2_the_cycle_right_beats_left():
    assert BEATS == {"水": "火", "雷": "水", "土": "雷", "風": "土", "氷": "風", "火": "氷"}


def test_N_8_3_worked_example_atk_50_water_vs_def_10_fire_is_90():
    assert attack_damage(50, "水", "火", 10) == 90
    s = position(front1=("水の槍兵",), front2=("火の衛兵",), deck1=FILLER, deck2=FILLER)
    m = start(s)
    lancer, guard = one(m.state, "水の槍兵"), one(m.state, "火の衛兵")
    assert m.state.card(lancer).atk == 50 and m.state.card(guard).def_ == 10
    evs = _turn(m, [Pick(card=one(m.state, "旅の剣士", 1, "deck"))], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))],
                acts1=[Act(card=lancer, target=guard)])
    assert [e.damage for e in events_of(evs, ev.HpChanged) if e.card == guard][0] == 90


def test_N_8_3_weak_element_halves_before_def():
    assert attack_damage(50, "火", "水", 10) == 15


def test_N_3_1_layout_shows_both_rows_equipment_face_down_magic_and_who_is_choosing():
    from kifu.domain.core.layout import Grid, Zone
    s = position(front1=("旅の剣士",), back1=("雷の射手",), front2=("火の衛兵",), back2=("風の斥候",),
                 magic2=(("火球", True),), deck1=("鉄の盾", "旅の剣士"), deck2=FILLER)
    m = start(s)
    sword = one(m.state, "旅の剣士", 1, "front")
    _turn(m, [Pick(card=one(m.state, "鉄の盾"), target=sword)], [Pick(card=one(m.state, "旅の剣士", 2, "deck"))])
    submit(m, 1, Pick(card=one(m.state, "旅の剣士", 1, "deck")))
    lay = RULES.presentation.layout(view(m.state, 2))
    assert lay.step == "select" and lay.chosen == (1,) and lay.choosing == (2,)
    for seat in (1, 2):
        grid = next(p for p in lay.panel(seat).parts if isinstance(p, Grid))
        assert {c.row for c in grid.cells} == {1, 2}                       # front and back rows
    grid1 = next(p for p in lay.panel(1).parts if isinstance(p, Grid))
    front = next(c for c in grid1.cells if c.row == 1)
    assert [f.name for f in front.cards] == ["旅の剣士", "鉄の盾"]           # the equipment under it
    magic2 = next(p for p in lay.panel(2).parts if isinstance(p, Zone) and p.id == "magic")
    assert magic2.cards[0].hidden is False and "face down" in magic2.cards[0].marks   # own face-down: shown
    magic_seen_by_1 = next(p for p in RULES.presentation.layout(view(m.state, 1)).panel(2).parts
                           if isinstance(p, Zone) and p.id == "magic")
    assert magic_seen_by_1.cards[0].hidden                                  # the other seat's: face down
    assert not any(isinstance(p, Zone) and p.id == "chosen" for p in lay.panel(1).parts)


def _refused(m, seat, command):  # type: ignore[no-untyped-def]
    before = (m.state, m.seq)
    with pytest.raises(Illegal) as e:
        m.submit(seat, command)
    assert (m.state, m.seq) == before
    return e.value.clause


def test_N_5_2_1_a_missing_or_wrong_target_is_refused_citing_the_select_phase():
    """「装備カードの装備対象、魔法カードの効果対象はこの時点で選択する。」: a pick whose target is
    missing or not one the card may take breaks the select phase's rule (N-5.2.1), not N-Q2."""
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("火球", "癒しの光", "鉄の盾", "旅の剣士"),
                 deck2=FILLER)
    m = start(s)
    own, enemy = m.state.side(1).front[0], m.state.side(2).front[0]
    ball, light = one(m.state, "火球", 1, "deck"), one(m.state, "癒しの光", 1, "deck")
    shield = one(m.state, "鉄の盾", 1, "deck")
    assert _refused(m, 1, Pick(card=ball)) == "N-5.2.1"                     # face up, no target
    assert _refused(m, 1, Pick(card=ball, target=own)) == "N-5.2.1"         # on one's own character
    assert _refused(m, 1, Pick(card=light, target=enemy)) == "N-5.2.1"      # a heal on an enemy
    assert _refused(m, 1, Pick(card=shield, target=enemy)) == "N-5.2.1"     # equipment on an enemy
    assert _refused(m, 1, Pick(card=shield)) == "N-5.2.1"                   # equipment with no target
    assert _refused(m, 1, Pick(card=shield, face_down=True)) == "N-5.2.1"   # equipment is never face down
    submit(m, 1, Pick(card=ball, target=enemy))                            # the right target is taken
    assert _refused(m, 1, Pick(card=ball, target=enemy)) == "N-5.2.1"       # chosen already


def test_N_Q2_a_full_row_or_magic_zone_is_refused_citing_the_capacity():
    s = position(front1=("旅の剣士",) * 3, back1=("旅の剣士",) * 3, front2=("旅の剣士",),
                 magic1=(("閃光", True),) * 3, deck1=("旅の剣士", "火球"), deck2=FILLER)
    m = start(s)
    enemy = m.state.side(2).front[0]
    assert _refused(m, 1, Pick(card=one(m.state, "旅の剣士", 1, "deck"))) == "N-Q2"
    assert _refused(m, 1, Pick(card=one(m.state, "火球", 1, "deck"), target=enemy)) == "N-Q2"


def test_N_5_1_equipment_and_face_up_magic_are_refused_in_the_first_phase():
    m = new_match()
    deck = m.state.deck(1)
    equipment = next(c.id for c in deck if card(c.name).kind == "equipment")
    magic = next(c.id for c in deck if card(c.name).kind == "magic")
    assert _refused(m, 1, Pick(card=equipment)) == "N-5.1"
    assert _refused(m, 1, Pick(card=magic)) == "N-5.1"


def test_N_5_2_1_equipment_cannot_go_on_a_character_chosen_in_the_same_phase():
    s = position(front1=("旅の剣士",), front2=("旅の剣士",), deck1=("風の斥候", "鉄の盾"), deck2=FILLER)
    m = start(s)
    scout, shield = one(m.state, "風の斥候", 1, "deck"), one(m.state, "鉄の盾", 1, "deck")
    submit(m, 1, Pick(card=scout))
    submit(m, 2, Pick(card=one(m.state, "旅の剣士", 2, "deck")))
    assert _refused(m, 1, Pick(card=shield, target=scout)) == "N-5.2.1"
    assert Pick(card=shield, target=m.state.side(1).front[0]) in legal(m.state, 1)
