"""The digest's proposals R-Q1 .. R-Q16 and the sample set's coverage R-C1 .. R-C11."""
from __future__ import annotations

from collections import Counter

from kifu.domain.reigeki import decide
from kifu.domain.reigeki.cards import catalog
from kifu.domain.reigeki.decks import DeckList, validate
from kifu.domain.reigeki.legal import legal

from .scenario import DECKS, RULES, Pos, attack, c, e, illegal, of, one


def test_R_Q1_adjacency_is_orthogonal() -> None:
    assert decide.ADJACENCY == "orthogonal"
    assert decide.NEIGHBOURS[1] == (2, 4) and decide.NEIGHBOURS[5] == (2, 4, 6)
    p = Pos(phase="step")
    p.stage(1, 1, "チルノ")
    m = p.match()
    illegal(m, 1, c.Move(source=1, to=5), "R-Q1")


def test_R_Q2_leader_counts_and_a_stack_counts_once() -> None:
    p = Pos()
    p.stage(1, 4, "霧雨魔理沙・Ex", under="霧雨魔理沙")
    lv3 = p.hand(1, "八雲紫")
    lv2 = p.hand(1, "紅美鈴")
    m = p.match()
    assert decide.adjacent_count(m.state, 1, 5) == 2            # the leader on 2 and the stack on 4
    illegal(m, 1, c.Play(card=lv3, place=5), "R-7.1")
    m.submit(1, c.Play(card=lv2, place=5))


def test_R_Q3_leader_is_hit_only_by_power_above_3() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "妖精メイド")               # power 3
    m = p.match()
    out = attack(m, 1, 2)
    res = one(out, e.BattleResolved)
    assert (res.event.power, res.event.graze, res.event.success, res.clause) == (3, 3, False, "R-Q3")
    assert not m.state.side(2).damage


def test_R_Q4_defender_spell_uses_its_turn_allowance() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "魂魄妖夢")
    p.stage(1, 3, "チルノ")
    s1 = p.reiryoku(2, "霊符「夢想封印」")
    s2 = p.reiryoku(2, "結界「光と闇の網目」")
    p.hand(2, "毛玉")
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    m.submit(2, c.Proceed())
    m.submit(2, c.Cast(card=s1))
    assert m.state.side(2).spell_turn == 3
    m.submit(1, c.Attack(attacker=3, target=2))
    m.submit(2, c.Proceed())                                      # no spell step: the allowance is used
    assert m.state.phase == "attack" and s2 in m.state.side(2).reiryoku
    assert decide.spell_allowed(m.state, 1)


def test_R_Q5_no_summoning_sickness() -> None:
    p = Pos()
    card = p.hand(1, "チルノ")
    m = p.match()
    m.submit(1, c.Play(card=card, place=1))
    m.submit(1, c.Proceed())
    out = attack(m, 1, 2)
    assert one(out, e.AttackDeclared).event.attacker == card


def test_R_Q6_one_card_at_a_time_and_once_each() -> None:
    p = Pos(phase="step")
    cirno = p.stage(1, 1, "チルノ")
    p.stage(1, 4, "妖精メイド")
    m = p.match()
    m.submit(1, c.Move(source=4, to=5))
    m.submit(1, c.Move(source=1, to=4))                          # the vacated area is refilled
    illegal(m, 1, c.Move(source=4, to=1), "R-Q6")
    assert m.state.side(1).stage[3].card == cirno and cirno in m.state.moved


def test_R_Q7_power_floors_at_zero_and_the_leader_may_be_guarded() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "毛玉")                     # power 2
    g1, g2 = p.hand(2, "毛玉"), p.hand(2, "チルノ")
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    m.submit(2, c.Guard(card=g1))
    out = m.submit(2, c.Guard(card=g2))
    assert one(out, e.Guarded).event.power == 0
    assert {g1, g2} <= set(m.state.side(2).discard)


def test_R_Q8_one_flip_face_up_only_never_below_1_and_flipped_cards_count() -> None:
    p = Pos()
    lv1 = p.reiryoku(1, "符の壱「投擲」")
    dmg = p.damage(1)
    m = p.match()
    illegal(m, 1, c.Cast(card=lv1, flip=dmg), "R-Q8")
    p = Pos()
    lv2 = p.reiryoku(1, "結界「光と闇の網目」")
    done = p.damage(1)
    p.side(1, flipped=(done,))
    for _ in range(5):
        p.damage(1)
    m = p.match()
    illegal(m, 1, c.Cast(card=lv2, flip=done), "R-Q8")
    assert decide.spell_level(catalog()["「永夜返し」"], True) == 4
    assert decide.spell_level(catalog()["符の壱「投擲」"], True) == 1
    # six damage cards, one face down: the seventh still loses
    p2 = Pos(phase="attack")
    p2.side(1, damage=(), flipped=())
    for _ in range(6):
        p2.damage(2)
    p2.side(2, flipped=p2.state.side(2).damage[:1])
    p2.stage(1, 1, "チルノ")
    p2.top(2, "毛玉")
    m = p2.match()
    attack(m, 1, 2)
    assert m.outcome is not None and m.outcome.winner == 1


def test_R_Q9_paid_reiryoku_goes_to_the_ex_discard() -> None:
    p = Pos()
    spell = p.reiryoku(1, "結界「光と闇の網目」")
    reigeki = p.reiryoku(1, "霊撃")
    m = p.match()
    m.submit(1, c.Cast(card=spell, pay=(reigeki,)))
    assert m.state.side(1).exdiscard == (spell, reigeki) and reigeki not in m.state.side(1).discard


def test_R_Q10_reigeki_from_damage_may_exceed_five() -> None:
    p = Pos(phase="attack")
    for key in ("霊符「夢想封印」", "幻想「花鳥風月」", "紅符「スカーレットシュート」", "幻符「殺人ドール」",
                "結界「光と闇の網目」"):
        p.reiryoku(2, key)
    p.stage(1, 1, "チルノ")
    p.top(2, "霊撃")
    m = p.match()
    attack(m, 1, 2)
    assert len(m.state.side(2).reiryoku) == 6


def test_R_Q11_both_players_losing_at_once_is_a_draw() -> None:
    p = Pos(decks=[DECKS[1], DECKS[0]])
    for seat in (1, 2):
        for _ in range(6):
            p.damage(seat)
        p.top(seat, "毛玉")
    spell = p.reiryoku(1, "夢符「二重結界」")
    pay = (p.reiryoku(1, "霊符「夢想封印」"), p.reiryoku(1, "結界「光と闇の網目」"))
    m = p.match()
    out = m.submit(1, c.Cast(card=spell, pay=pay))
    assert [env.event.seat for env in of(out, e.Lost)] == [1, 2]
    assert m.outcome.winner is None and one(out, e.GameOver).clause == "R-Q11"


def test_R_Q11_deck_out_is_checked_before_seven_damage() -> None:
    p = Pos(phase="attack")
    for _ in range(6):
        p.damage(2)
    p.deck_only(2, 1)
    p.stage(1, 1, "チルノ")
    m = p.match()
    out = attack(m, 1, 2)
    lost = one(out, e.Lost)
    assert lost.event.reason == "deck-out" and m.outcome.termination == "deck-out"


def test_R_Q12_a_leader_hit_is_no_battle_win() -> None:
    p = Pos(phase="attack")
    p.stage(1, 4, "パチュリー・ノーレッジ")    # power 4, ハイレンジ, 1 damage on a win
    m = p.match()
    out = attack(m, 4, 2)
    assert len(of(out, e.DamageTaken)) + len(of(out, e.ReigekiCharged)) == 1


def test_R_Q13_attacker_gone_before_the_battle_step_ends_with_no_result() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")                   # graze 1
    spell = p.reiryoku(2, "幻符「殺人ドール」")
    pay = p.reiryoku(2, "霊符「夢想封印」")
    g = p.hand(2, "毛玉")
    p.hand(2, "妖精メイド")
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    m.submit(2, c.Guard(card=g))
    m.submit(2, c.Proceed())
    out = m.submit(2, c.Cast(card=spell, pay=(pay,), target_seat=1, target=1))
    ended = one(out, e.BattleEnded)
    assert (ended.event.result, ended.clause) == ("no result", "R-Q13") and not of(out, e.BattleResolved)
    assert g in m.state.side(2).discard


def test_R_Q14_guardx_character_in_any_row_only_reloaded() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")
    p.stage(2, 6, "大妖精", burst=True)
    p.stage(2, 4, "紅美鈴")
    p.hand(2, "毛玉")
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    assert [x for x in legal(m.state, 2) if isinstance(x, c.GuardWith)] == [c.GuardWith(place=4)]
    illegal(m, 2, c.GuardWith(place=6), "R-Q14")
    illegal(m, 2, c.GuardWith(place=2), "R-Q14")
    m.submit(2, c.GuardWith(place=4))


def test_R_Q15_lvex_replaces_statistics_and_keeps_the_state() -> None:
    p = Pos()
    p.stage(1, 5, "霧雨魔理沙", burst=True, entered=2)
    ex = p.hand(1, "霧雨魔理沙・Ex")
    p.stage(1, 4, "チルノ")
    p.stage(1, 6, "妖精メイド")
    m = p.match()
    m.submit(1, c.Play(card=ex, place=5))
    unit = m.state.side(1).stage[4]
    assert unit.burst and decide.power_graze(m.state, unit) == (8, 4)


def test_R_Q16_per_card_copy_limit() -> None:
    mima = RULES.content.load_deck("mima")
    assert Counter(mima.deck)["毛玉"] == 9
    assert catalog()["毛玉"].max_copies == 45


# -- coverage -------------------------------------------------------------------------------------
def _characters() -> list:
    return [card for card in catalog().values() if card.type == "character"]


def test_R_C1_levels_1_2_3_and_lvex_with_a_same_named_lv3() -> None:
    assert {card.level for card in _characters()} == {1, 2, 3, "Ex"}
    for ex in (card for card in _characters() if card.level == "Ex"):
        assert any(c3.level == 3 and c3.printed_name == ex.printed_name for c3 in _characters())


def test_R_C2_power_around_the_leader_threshold() -> None:
    powers = {card.power for card in _characters()}
    assert min(powers) <= 3 < max(powers) and len({card.graze for card in _characters()}) >= 5


def test_R_C3_highrange_cards() -> None:
    assert sum(card.highrange for card in _characters()) >= 3


def test_R_C4_guardx_character_and_spell() -> None:
    assert any(card.guard for card in _characters())
    assert any(card.guard for card in catalog().values() if card.type == "spell")


def test_R_C5_reigeki_as_guard_as_damage_and_as_reiryoku() -> None:
    p = Pos(phase="attack")
    p.stage(1, 1, "チルノ")
    p.stage(1, 3, "魂魄妖夢")
    in_hand = p.hand(2, "霊撃")
    from_deck = p.top(2, "霊撃")
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    out = m.submit(2, c.Guard(card=in_hand))
    assert one(out, e.Nullified).clause == "R-3.4" and one(out, e.BattleEnded).event.result == "nullified by 霊撃"
    assert in_hand in m.state.side(2).discard
    out = attack(m, 3, 2)
    assert one(out, e.ReigekiCharged).event.card == from_deck and from_deck in m.state.side(2).reiryoku
    assert RULES.decider.view(m.state, 1).seats[1].reiryoku[0].name == "霊撃"      # face up: the opponent sees it


def test_R_C6_spells_of_every_level_1_to_5() -> None:
    assert {card.level for card in catalog().values() if card.type == "spell"} == {1, 2, 3, 4, 5}


def test_R_C7_all_four_triggers() -> None:
    whens = {s.when for card in _characters() for s in card.skill}
    assert {"attack", "attacked", "win", "lose"} <= whens


def test_R_C8_move_effect() -> None:
    p = Pos()
    cirno = p.stage(1, 1, "チルノ")
    spell = p.reiryoku(1, "境符「スキマ送り」")
    m = p.match()
    illegal(m, 1, c.Cast(card=spell, target_seat=1, target=1, to=2), "R-Q1")   # occupied by the leader
    out = m.submit(1, c.Cast(card=spell, target_seat=1, target=1, to=4))
    assert one(out, e.Moved).clause == "R-C8" and m.state.side(1).stage[3].card == cirno


def test_R_C9_lasting_effect_survives_the_end_phase() -> None:
    p = Pos()
    cirno = p.stage(1, 1, "チルノ")
    rumia = p.stage(1, 3, "ルーミア")                 # +1 power when attacking: a default duration
    devil = p.reiryoku(1, "紅魔「スカーレットデビル」")   # +2 power, 特記: it stays
    pay = (p.reiryoku(1, "霊符「夢想封印」"), p.reiryoku(1, "符の壱「投擲」"))
    m = p.match()
    out = m.submit(1, c.Cast(card=devil, pay=pay, target_seat=1, target=1))
    assert one(out, e.Modified).clause == "R-C9" and one(out, e.Modified).event.lasting
    m.submit(1, c.Proceed())
    attack(m, 3, 2)
    assert decide.power_graze(m.state, m.state.side(1).stage[2]) == (4, 1)
    out = m.submit(1, c.Proceed())
    assert one(out, e.EffectsEnded).event.cards == (rumia,)
    assert decide.power_graze(m.state, m.state.side(1).stage[0])[0] == 6                 # チルノ 4 + 2, lasting
    assert decide.power_graze(m.state, m.state.side(1).stage[2])[0] == 3
    assert m.state.side(1).stage[0].card == cirno


def test_R_C10_deck_out_through_damage() -> None:
    p = Pos(decks=[DECKS[1], DECKS[0]])
    spell = p.reiryoku(1, "神霊「夢想封印 瞬」")
    pay = tuple(p.reiryoku(1, k) for k in ("霊符「夢想封印」", "幻想「花鳥風月」", "結界「光と闇の網目」"))
    p.deck_only(2, 2)
    m = p.match()
    out = m.submit(1, c.Cast(card=spell, pay=pay))
    assert one(out, e.Lost).event.reason == "deck-out" and m.outcome.winner == 1


def test_R_C11_a_card_with_a_copy_limit_exception() -> None:
    deck = DECKS[0]
    cards = [k for k in deck.deck if k not in ("チルノ", "ルーミア")] + ["毛玉"] * 6
    validate(DeckList(name="fluff", leader=deck.leader, deck=tuple(cards), ex=deck.ex))
    assert Counter(cards)["毛玉"] == 12


def test_R_Q15_the_lv3_left_behind_keeps_the_turn_it_entered() -> None:
    """An LvEx that entered this turn on a Lv3 of turn 2 leaves: the Lv3 stays with its own entry
    turn, not the LvEx's (R-7.2 reads it: このターンに登場したキャラクターでないこと)."""
    p = Pos(active=2, turn=3)
    ex = p.stage(1, 5, "霧雨魔理沙・Ex", under="霧雨魔理沙", entered=3, under_entered=2)
    lv3 = p.state.side(1).stage[4].under
    spell = p.reiryoku(2, "恋符「マスタースパーク」")
    pay = [p.reiryoku(2, k) for k in ("霊符「夢想封印」", "結界「光と闇の網目」")]
    m = p.match()
    out = m.submit(2, c.Cast(card=spell, pay=tuple(pay), target_seat=1, target=5))
    assert one(out, e.CharacterLeft).event.stays == lv3 and ex in m.state.side(1).discard
    unit = m.state.side(1).stage[4]
    assert unit.card == lv3 and unit.entered == 2 and not unit.under


def test_R_Q15_an_lvex_played_remembers_the_turn_its_lv3_entered() -> None:
    p = Pos(turn=3)
    p.stage(1, 5, "霧雨魔理沙", entered=2)
    ex = p.hand(1, "霧雨魔理沙・Ex")
    p.stage(1, 4, "チルノ")
    p.stage(1, 6, "妖精メイド")
    m = p.match()
    m.submit(1, c.Play(card=ex, place=5))
    unit = m.state.side(1).stage[4]
    assert (unit.card, unit.entered, unit.under_entered) == (ex, 3, 2)
