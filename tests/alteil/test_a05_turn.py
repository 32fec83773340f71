"""A-5 the turn: preparation, influence, set, start, action (AGI order, ties), end."""
from __future__ import annotations

from alteil_scenario import ACTION, END, INFLUENCE, SET, START, WINDOW, Position, c, ev, illegal, kinds, of, one

from kifu.domain.alteil.vocabulary import LIMIT, SOUL


def test_A_5_1_preparation_untaps_draws_and_gains_soul_for_both() -> None:
    p = Position()
    mine = p.unit(1, "火炎の戦士", 1, acted=True)
    theirs = p.unit(2, "水の衛兵", 1, acted=True)
    m = p.at(step=END, sub=SOUL, actor=2, turn_seat=1).match()
    decks = {s: m.state.side(s).deck[:2] for s in (1, 2)}
    envs = m.submit(2, c.EndDiscards())
    k = kinds(envs)
    start = k.index("TurnBegan")
    assert one(envs, ev.TurnBegan) == ev.TurnBegan(turn=2, seat=2)
    assert k[start + 1:start + 9] == ["PhaseBegan", "UnitsUntapped", "CardsDrawn", "SoulGained",
                                      "UnitsUntapped", "CardsDrawn", "SoulGained", "PhaseBegan"]
    assert not any(u.acted for s in (1, 2) for u in m.state.side(s).units)
    for s in (1, 2):
        assert decks[s][0] in m.state.side(s).hand and m.state.side(s).soul == (decks[s][1],)
    assert m.state.step == INFLUENCE and m.awaiting == {2}
    assert mine and theirs


def test_A_5_2_influence_turn_player_only_one_per_god() -> None:
    p = Position()
    a, b, d = p.hand(1, "火炎の戦士", "炎の弓兵", "水の衛兵")
    m = p.at(step=INFLUENCE, actor=1).match()
    assert m.legal(2) == []
    envs = m.submit(1, c.PlaceInfluence(card=a))
    assert one(envs, ev.InfluencePlaced).god == "Gouen"
    illegal(m, 1, c.PlaceInfluence(card=b), "A-5.2")
    m.submit(1, c.PlaceInfluence(card=d))
    assert m.state.side(1).influence == (a, d)
    envs = m.submit(1, c.EndInfluence())
    assert one(envs, ev.PhaseBegan) == ev.PhaseBegan(phase=SET, seat=1)


def test_A_5_3_set_needs_influence_at_least_lv_and_pays_lv_soul_to_the_deck_top() -> None:
    p = Position()
    giant, archer = p.hand(1, "溶岩の巨人", "炎の弓兵")        # LV 3, LV 2
    p.influence(1, "火炎の戦士", "爆炎の術士")                 # Gouen 2
    pile = p.soul(1, 3)
    m = p.at(step=SET, actor=1).match()
    illegal(m, 1, c.PlaceUnit(card=giant, square=1), "A-5.3")
    top_before = m.state.side(1).deck[0]
    envs = m.submit(1, c.PlaceUnit(card=archer, square=4))
    paid = one(envs, ev.SoulPaid)
    assert paid.amount == 2 and paid.cards == (pile[2], pile[1])
    assert m.state.side(1).deck[:3] == (pile[1], pile[2], top_before)   # one at a time onto the top
    assert m.state.side(1).influence and len(m.state.side(1).influence) == 2  # influence is not spent
    assert m.awaiting == {2}                                   # alternating, turn player first


def test_A_5_4_start_skills_fire_and_start_grimoires_are_used() -> None:
    p = Position()
    guard = p.unit(1, "聖盾の守護兵", 1)            # START: DF+1
    mirua = p.unit(2, "『蒼海のミルア』", 1)         # START: gain 1 soul
    prayer, bolt = p.hand(1, "聖なる祈り", "火球")
    p.influence(1, "光の見習い騎士", "火炎の戦士", "炎の弓兵")
    p.soul(1, 3)
    m = p.at(step=SET, actor=1, passes=1).match()
    envs = m.submit(1, c.PassSet())
    fired = of(envs, ev.SkillFired)
    assert [(f.seat, f.card, f.icon) for f in fired] == [(1, guard, "START"), (2, mirua, "START")]
    assert m.state.side(1).unit(guard).df == 1 and len(m.state.side(2).soul) == 1
    assert m.state.step == START and m.state.sub == WINDOW and m.awaiting == {1}
    assert c.UseGrimoire(card=bolt, target=mirua) not in m.legal(1)      # not a START grimoire
    illegal(m, 1, c.UseGrimoire(card=bolt, target=mirua), "A-Q2")
    envs = m.submit(1, c.UseGrimoire(card=prayer))
    assert of(envs, ev.Modified)[0].stat == "AT"
    m.submit(1, c.Pass())
    envs = m.submit(2, c.Pass())
    assert one(envs, ev.PhaseBegan).phase == ACTION


def test_A_5_5_highest_agi_acts_first() -> None:
    p = Position()
    slow = p.unit(1, "水の衛兵", 1)          # AGI 2
    fast = p.unit(2, "闇の斥候", 1)          # AGI 5
    p.at(step=START, sub=WINDOW, actor=2)
    m = p.match()
    envs = m.submit(2, c.Pass())
    assert kinds(envs)[-1] == "WindowOpened"
    m.submit(1, c.Pass())
    envs = m.submit(2, c.Pass())
    assert one(envs, ev.ActorNamed) == ev.ActorNamed(seat=2, card=fast, agi=5)
    assert slow


def test_A_5_5_ties_are_chosen_alternately_from_the_turn_player() -> None:
    p = Position()
    a1, a2 = p.unit(1, "火炎の戦士", 1), p.unit(1, "光の見習い騎士", 2)     # both AGI 3
    b1 = p.unit(2, "影縫いの呪術師", 4)                                      # AGI 3
    m = p.at(step=ACTION, sub=WINDOW, actor=2, turn_seat=1).match()
    envs = m.submit(2, c.Pass())
    tie = one(envs, ev.TieChoice)
    assert tie.seat == 1 and set(tie.units) == {a1, a2} and tie.agi == 3
    envs = m.submit(1, c.ChooseActor(card=a2))
    assert envs[0].kind == "decision" and isinstance(envs[0].event, ev.ActorChosen)
    m.submit(1, c.Wait(card=a2))
    m.submit(1, c.Pass())
    envs = m.submit(2, c.Pass())
    assert one(envs, ev.TieChoice).seat == 2                    # the other player chooses next
    m.submit(2, c.ChooseActor(card=b1))
    m.submit(2, c.Wait(card=b1))
    m.submit(1, c.Pass())
    envs = m.submit(2, c.Pass())
    assert one(envs, ev.ActorNamed) == ev.ActorNamed(seat=1, card=a1, agi=3)   # alone now: no tie


def test_A_5_5_agi_zero_or_less_must_wait() -> None:
    p = Position()
    bones = p.unit(1, "骸骨兵", 1)          # AGI 0
    lava = p.unit(2, "溶岩の巨人", 1)       # AGI -1
    scout = p.unit(2, "闇の斥候", 2)
    m = p.acting(scout).match()
    envs = m.submit(2, c.Wait(card=scout))
    waits = of(envs, ev.UnitWaited)
    assert {(w.card, w.forced) for w in waits} >= {(bones, True), (lava, True)}
    assert one(envs, ev.PhaseBegan).phase == END
    assert all(e.kind == "rule" for e in envs if isinstance(e.event, ev.UnitWaited) and e.event.forced)


def test_A_5_6_end_discard_for_soul_limit_and_effects_end() -> None:
    p = Position()
    hand = p.hand(1, *(["火炎の戦士"] * 2 + ["水の衛兵"] * 2 + ["闇の斥候"] * 2 + ["炎の弓兵"] * 2 + ["骸骨兵"]))
    u = p.unit(1, "光の見習い騎士", 1, at=2)
    m = p.at(step=END, sub=SOUL, actor=1, turn_seat=1).match()
    top = m.state.side(1).deck[0]
    envs = m.submit(1, c.DiscardForSoul(card=hand[0]))
    assert one(envs, ev.SoulGained).cards == (top,)          # the soul comes from the deck top
    assert hand[0] in m.state.side(1).senka
    m.submit(1, c.EndDiscards())
    assert m.state.sub == LIMIT and m.awaiting == {1}        # 8 cards: over the limit of 7
    assert all(isinstance(x, c.DiscardToLimit) for x in m.legal(1))
    envs = m.submit(1, c.DiscardToLimit(card=hand[1]))
    assert one(envs, ev.HandChecked) == ev.HandChecked(seat=1, size=7)
    envs = m.submit(2, c.EndDiscards())
    assert "EffectsEnded" in kinds(envs)
    assert m.state.side(1).unit(u).at == 0


def test_A_5_1_with_one_card_left_the_draw_comes_first_and_the_player_stays_in() -> None:
    """The order the seed leaves free matters only with one card left: drawing it first keeps the
    player in (the soul gain finds nothing, A-Q7); gaining soul first would lose at the draw."""
    p = Position()
    p.deck(2, 1)
    m = p.at(step=END, sub=SOUL, actor=2, turn_seat=1).match()
    last = m.state.side(2).deck[0]
    envs = m.submit(2, c.EndDiscards())
    drawn = [e.event for e in envs if isinstance(e.event, ev.CardsDrawn) and e.event.seat == 2]
    gained = [e.event for e in envs if isinstance(e.event, ev.SoulGained) and e.event.seat == 2]
    assert drawn == [ev.CardsDrawn(seat=2, cards=(last,))] and gained == [ev.SoulGained(seat=2, cards=(), wanted=1)]
    assert m.outcome is None and not of(envs, ev.PlayerLost) and last in m.state.side(2).hand


def test_A_5_1_no_card_reads_a_deck_or_fires_on_untap_draw_or_soul() -> None:
    """The assumptions that make the preparation order free of consequence (A-5.1's
    interpretation): the effects and icons of the set, and soul cards hidden from their owner."""
    from kifu.domain.alteil.cards import catalog
    from kifu.domain.alteil.view import redact

    skills = [d.skill for d in catalog().values() if d.skill is not None]
    assert {s.effect for s in skills} <= {"damage", "damage_all", "heal", "buff", "gain_soul", "reduce_soul",
                                          "discard_influence", "draw"}
    assert {s.icon for s in skills} <= {"START", "NEXT", "ACTION", "SOUL", ""}
    p = Position()
    pile = p.soul(1, 2)
    m = p.at(step=END, sub=SOUL, actor=2, turn_seat=1).match()
    envs = m.submit(2, c.EndDiscards())
    souls = [env for env in envs if isinstance(env.event, ev.SoulGained | ev.SoulPaid | ev.SoulReduced)]
    assert len(souls) == 2 and all(env.event.cards for env in souls)
    for env in souls:                              # hidden from its own owner too
        assert not set(redact(env, env.event.seat).event.cards) & (set(pile) | set(env.event.cards))
