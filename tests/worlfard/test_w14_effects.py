"""W-14 effects, played with the sample set: layering (the seed's worked example), durations,
lasting effects that end with their source, recomputation, prohibitions and card-over-rule
(W-1.2), destroy / vanish / wave damage (W-8.3, W-8.4, W-14.5), regenerate and instant summon
(W-8.5), owner versus controller (W-3.5), seal, and special victory (W-1.1).

Seat 1 acts in its main phase (turn 3) unless a test says otherwise. Cost towers are filler piles
on lines 4 and 5; spells go to table spots whose line tower does not share their element.
Units: ディプテラ STR2 VIT2 AGI3; 潮騒の槍兵 STR2 VIT3 AGI1; 岩窟のゴーレム STR2 VIT5 AGI0 DEF1;
深海の大亀 STR2 VIT6 AGI0 DEF1; 大地の戦士 STR3 VIT3 AGI1.
"""
from __future__ import annotations

from skill_scenarios import Effect, Phase, Pos, attack, c, ev, folds, illegal, inject, kinds, of, one, passes, stats

from kifu.domain.worlfard.field import all_negated


# -- W-14.3 order of application: the seed's worked example ------------------------------------
def _example() -> tuple[Pos, int, int, int]:
    p = Pos(p1=["氷塊の足枷", "風唄いミーミル"], p2=["ディプテラ"])
    dip = p.unit(2, 3, "ディプテラ")
    fetters, mimir = p.hand(1, "氷塊の足枷", "風唄いミーミル")
    p.pile(1, 4, 2)
    p.pile(1, 5, 3)
    return p, dip, fetters, mimir


def _fetters(m, card: int, dip: int) -> list:
    return m.submit(1, c.Cast(card=card, line=1, towers=(4,), targets=(dip,)))


def _mimir(m, card: int, dip: int) -> list:
    envs = m.submit(1, c.Summon(card=card, line=2, towers=(5,)))
    assert m.state.choice is not None and dip in m.state.choice.options
    return envs + m.submit(1, c.Choose(targets=(dip,)))


def test_W_14_3_fetters_then_mimir_on_diptera_gives_AGI_2():
    p, dip, fetters, mimir = _example()
    m = p.build()
    assert stats(m, 2, 3).AGI == 3
    envs = _fetters(m, fetters, dip)
    assert kinds(envs)[-1] == ("SpellStays", "W-10.3")
    assert stats(m, 2, 3).AGI == 0
    envs = _mimir(m, mimir, dip)
    added = one(envs, ev.EffectAdded)
    assert added.clause == "W-14.3" and added.event.effect.op == "add" and added.event.effect.value == 2
    assert stats(m, 2, 3).AGI == 2      # [基礎AGI=0] first, then [AGI+2]
    folds(m)


def test_W_14_3_mimir_then_fetters_on_diptera_gives_AGI_2_as_well():
    p, dip, fetters, mimir = _example()
    m = p.build()
    _mimir(m, mimir, dip)
    assert stats(m, 2, 3).AGI == 5
    _fetters(m, fetters, dip)
    assert stats(m, 2, 3).AGI == 2      # the later set-base still comes before the earlier add
    folds(m)


def test_W_14_3_the_latest_set_base_wins_either_way():
    p = Pos(p1=["氷塊の足枷"], p2=["ディプテラ"])
    dip = p.unit(2, 3, "ディプテラ")
    p.effect(dip, "set", "AGI", 4, id=1)          # an older [基礎AGI=4]
    fetters, = p.hand(1, "氷塊の足枷")
    p.pile(1, 4, 2)
    m = p.build()
    assert stats(m, 2, 3).AGI == 4
    _fetters(m, fetters, dip)
    assert stats(m, 2, 3).AGI == 0                # the fetters came later
    inject(m, lambda d: d.rule("W-14.3", None, ev.EffectAdded(effect=Effect(
        id=d.next_seq, target=dip, op="set", stat="AGI", value=4))))
    assert stats(m, 2, 3).AGI == 4                # a set-base after the fetters wins over them
    folds(m)


# -- W-14.1 durations -------------------------------------------------------------------------
def test_W_14_1_until_end_of_turn_ends_at_the_end_phase():
    p = Pos(p1=["加速の風", "大地の戦士"])
    warrior = p.unit(1, 2, "大地の戦士")
    wind, = p.hand(1, "加速の風")
    p.souls(1, 1)
    m = p.build()
    soul = m.state.side(1).soul[0]
    m.submit(1, c.Cast(card=wind, line=1, souls=(soul,), targets=(warrior,)))
    assert stats(m, 1, 2).AGI == 2
    effect = m.state.effects[0]
    assert effect.until == "turn"
    envs = m.submit(1, c.Proceed(to="end"))
    ended = one(envs, ev.EffectsEnded)
    assert ended.clause == "W-5.5" and ended.event.ids == (effect.id,)
    assert stats(m, 1, 2).AGI == 1 and m.state.effects == ()


def test_W_14_1_until_end_of_combat_ends_with_the_combat():
    p = Pos(p1=["闘志の炎", "大地の戦士"]).at(Phase.BATTLE, 1)
    warrior = p.unit(1, 2, "大地の戦士")
    flame, = p.hand(1, "闘志の炎")
    p.souls(1, 1)
    m = p.build()
    attack(m, 2, 2)
    m.submit(1, c.Cast(card=flame, line=1, souls=m.state.side(1).soul, targets=(warrior,)))
    passes(m)
    assert stats(m, 1, 2).STR == 5
    envs = m.submit(2, c.NoDefense()) + passes(m)
    assert one(envs, ev.PlayerAttacked).event.STR == 5
    ended = one(envs, ev.EffectsEnded)
    assert ended.clause == "W-14.1" and ended.event.reason == "end of combat"
    assert envs.index(ended) > envs.index(one(envs, ev.CombatEnded))
    assert stats(m, 1, 2).STR == 3
    folds(m)


def test_W_14_1_an_effect_with_no_duration_lasts_while_the_unit_stays_on_the_stage():
    p = Pos(p1=["脆弱化", "帰還の術"], p2=["岩窟のゴーレム"])
    golem = p.unit(2, 3, "岩窟のゴーレム")
    weaken, recall = p.hand(1, "脆弱化", "帰還の術")
    p.souls(1, 3)
    m = p.build()
    m.submit(1, c.Cast(card=weaken, line=1, souls=m.state.side(1).soul[:1], targets=(golem,)))
    assert stats(m, 2, 3).DEF == -1 and m.state.effects[0].until == "stage"
    m.submit(1, c.Proceed(to="end"))            # the turn ends; the effect stays
    assert m.state.turn == 4 and stats(m, 2, 3).DEF == -1
    m.submit(2, c.Proceed(to="end"))
    soul = m.state.side(1).soul
    m.submit(1, c.Cast(card=recall, line=2, souls=soul[:2], targets=(golem,)))
    assert golem in m.state.side(2).hand and m.state.effects == ()   # it left and took the effect along
    folds(m)


def test_W_14_1_a_kept_effect_ends_with_its_source():
    """群れの長 keeps giving its 獣 [STR+1]: when it leaves, the effect is gone at once."""
    p = Pos(p1=["群れの長", "強襲の狼"], p2=["火球"]).at(Phase.MAIN1, 2)
    leader = p.unit(1, 1, "群れの長")
    p.unit(1, 2, "強襲の狼")
    fireball, = p.hand(2, "火球")
    p.pile(2, 5, 2)
    m = p.build()
    assert stats(m, 1, 2).STR == 3 and stats(m, 1, 1).STR == 3   # 群れの長 is a 獣 of its own side too
    envs = m.submit(2, c.Cast(card=fireball, line=1, towers=(5,), targets=(leader,)))
    assert one(envs, ev.UnitDestroyed).event.card == leader
    assert stats(m, 1, 2).STR == 2
    assert not of(envs, ev.EffectsEnded)        # nothing was stored: the source simply stopped giving


def test_W_14_1_a_given_effect_outlives_its_source():
    p = Pos(p1=["強襲の狼", "風唄いミーミル"], p2=["火球"]).at(Phase.MAIN1, 2)
    wolf = p.unit(1, 2, "強襲の狼")
    mimir = p.unit(1, 3, "風唄いミーミル")
    p.effect(wolf, "add", "AGI", 2, id=1, source=mimir)
    fireball, = p.hand(2, "火球")
    p.pile(2, 5, 2)
    m = p.build()
    m.submit(2, c.Cast(card=fireball, line=1, towers=(5,), targets=(mimir,)))
    assert m.state.side(1).stage[2] is None
    assert stats(m, 1, 2).AGI == 4             # ・召喚時 … を与える: no "keeps", so it stays


# -- W-14.2 continuous values are recomputed ----------------------------------------------------
def test_W_14_2_a_lasting_effect_reaches_a_unit_that_arrives_later_and_only_by_family():
    p = Pos(p1=["群れの長", "神速の隼", "紅蓮の剣士"])
    p.unit(1, 1, "群れの長")
    falcon, swordsman = p.hand(1, "神速の隼", "紅蓮の剣士")
    p.pile(1, 4, 2)
    p.pile(1, 5, 2)
    m = p.build()
    m.submit(1, c.Summon(card=falcon, line=2, towers=(4,)))
    assert stats(m, 1, 2).STR == 3             # [F=獣] among its families 獣 and 鳥 (W-14.4)
    m.submit(1, c.Summon(card=swordsman, line=3, towers=(5,)))
    assert stats(m, 1, 3).STR == 3             # 紅蓮の剣士 is no 獣: printed STR 3
    folds(m)


def test_W_14_2_a_keeper_that_loses_its_tower_element_loses_VIT_and_is_destroyed():
    """The keeper's [VIT+1] (W-7.3) is recomputed when a new top card changes the tower's element;
    with damage 2 and VIT back to 2 the unit is destroyed (W-8.3, a state-based check)."""
    p = Pos(p1=["潮騒の槍兵", "水妖ウンディーネ", "紅蓮の剣士"])
    p.tower(1, 2, "水妖ウンディーネ")
    spear = p.unit(1, 2, "潮騒の槍兵", damage=3)
    card, = p.hand(1, "紅蓮の剣士")
    m = p.build()
    assert stats(m, 1, 2).VIT == 4
    envs = m.submit(1, c.SetTower(card=card, line=2))
    assert stats_or_none(m, 1, 2) is None
    destroyed = one(envs, ev.UnitDestroyed)
    assert destroyed.clause == "W-8.3" and destroyed.event.card == spear
    assert spear in m.state.side(1).soul
    folds(m)


def stats_or_none(m, seat: int, line: int):
    return None if m.state.side(seat).stage[line - 1] is None else stats(m, seat, line)


def test_W_14_6_a_negation_of_every_skill_negates_them_all_and_one_of_a_named_skill_does_not():
    """``all_negated`` skips the field unless something negates every skill ("*"): both ways."""
    p = Pos(p2=["ディプテラ", "潮騒の槍兵"])
    dip = p.unit(2, 3, "ディプテラ")
    lancer = p.unit(2, 2, "潮騒の槍兵")
    p.effect(lancer, "negate", skill="防衛", id=1)
    m = p.build()
    assert not all_negated(m.state, 2, 3) and not all_negated(m.state, 2, 2)
    inject(m, lambda d: d.rule("W-14.6", None, ev.EffectAdded(effect=Effect(
        id=d.next_seq, target=dip, op="negate", skill="*"))))
    assert all_negated(m.state, 2, 3) and stats(m, 2, 3).keywords == frozenset()
    assert not all_negated(m.state, 2, 2)
    folds(m)


# -- W-1.2 prohibitions win; the card wins over the rule ---------------------------------------
def test_W_1_2_a_unit_not_destroyed_by_spells_survives_a_destroy_spell():
    p = Pos(p1=["破滅の呪文"], p2=["不壊の守護者"])
    guardian = p.unit(2, 3, "不壊の守護者")
    doom, = p.hand(1, "破滅の呪文")
    p.pile(1, 4, 4)
    m = p.build()
    envs = m.submit(1, c.Cast(card=doom, line=1, towers=(4,), targets=(guardian,)))
    prevented = one(envs, ev.DestroyPrevented)
    assert prevented.clause == "W-1.2" and prevented.event.card == guardian
    assert not of(envs, ev.UnitDestroyed)
    assert m.state.side(2).stage[2].card == guardian and doom in m.state.side(1).grave
    folds(m)


def test_W_1_2_defense_lets_an_AGI_0_unit_block_where_the_rule_forbids_it():
    p = Pos(p1=["大地の戦士"], p2=["城壁の番兵", "深海の大亀"]).at(Phase.BATTLE, 1)
    p.unit(1, 1, "大地の戦士")
    sentry = p.unit(2, 4, "城壁の番兵")
    p.unit(2, 5, "深海の大亀")
    m = p.build()
    attack(m, 1, 1)
    passes(m)
    assert stats(m, 2, 4).AGI == 0 and c.Block(line=4) in m.legal(2)
    illegal(m, 2, c.Block(line=5), "W-12.4")    # AGI 0 without 防衛: the rule holds
    envs = m.submit(2, c.Block(line=4))
    assert envs[0].event == ev.BlockDeclared(seat=2, line=4, distance=3, agi=0)
    envs += passes(m)
    assert {e.event.card for e in of(envs, ev.CombatDamage)} == {sentry, m.state.side(1).stage[0].card}
    assert m.state.side(2).life == 12 and not of(envs, ev.PlayerAttacked)


# -- W-8.3 destroy, W-8.4 vanish, W-14.5 wave damage ----------------------------------------------
def test_W_8_3_a_destroy_effect_makes_a_soul():
    p = Pos(p1=["破滅の呪文"], p2=["潮騒の槍兵"])
    spear = p.unit(2, 3, "潮騒の槍兵")
    doom, = p.hand(1, "破滅の呪文")
    p.pile(1, 4, 4)
    m = p.build()
    envs = m.submit(1, c.Cast(card=doom, line=1, towers=(4,), targets=(spear,)))
    destroyed = one(envs, ev.UnitDestroyed)
    assert destroyed.clause == "W-8.3" and destroyed.event.by == "effect"
    assert spear in m.state.side(2).soul and spear not in m.state.side(2).grave


def test_W_8_4_VIT_lowered_to_0_vanishes_to_the_graveyard():
    p = Pos(p1=["衰弱の呪い"], p2=["潮騒の槍兵"])
    spear = p.unit(2, 3, "潮騒の槍兵")
    curse, = p.hand(1, "衰弱の呪い")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=curse, line=1, towers=(4,), targets=(spear,)))
    vanished = one(envs, ev.UnitVanished)
    assert vanished.clause == "W-8.4" and vanished.event.card == spear
    assert not of(envs, ev.UnitDestroyed)
    assert spear in m.state.side(2).grave and spear not in m.state.side(2).soul
    folds(m)


def test_W_Q5_VIT_lowered_but_above_0_with_damage_at_least_VIT_is_destroyed():
    p = Pos(p1=["衰弱の呪い"], p2=["岩窟のゴーレム"])
    golem = p.unit(2, 3, "岩窟のゴーレム", damage=3)
    curse, = p.hand(1, "衰弱の呪い")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=curse, line=1, towers=(4,), targets=(golem,)))
    destroyed = one(envs, ev.UnitDestroyed)     # VIT 5-3 = 2, damage 3: destroyed, not vanished
    assert destroyed.clause == "W-8.3" and (destroyed.event.damage, destroyed.event.VIT) == (3, 2)
    assert golem in m.state.side(2).soul


def test_W_14_5_wave_damage_ignores_DEF_where_ordinary_damage_does_not():
    p = Pos(p1=["衝撃波", "火球"], p2=["深海の大亀"])
    turtle = p.unit(2, 3, "深海の大亀")
    wave, fireball = p.hand(1, "衝撃波", "火球")
    p.pile(1, 4, 2)
    p.pile(1, 5, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=fireball, line=1, towers=(4,), targets=(turtle,)))
    hit = one(envs, ev.UnitDamaged)
    assert (hit.event.amount, hit.event.base, hit.event.DEF, hit.event.wave) == (2, 3, 1, False)
    envs = m.submit(1, c.Cast(card=wave, line=2, towers=(5,), targets=(turtle,)))
    hit = one(envs, ev.UnitDamaged)
    assert hit.clause == "W-14.5" and (hit.event.amount, hit.event.DEF, hit.event.wave) == (2, 0, True)
    assert m.state.side(2).stage[2].damage == 4


def test_W_14_5_wave_damage_to_a_player_ignores_the_hearts():
    p = Pos(p1=["神罰の雷"])
    bolt, = p.hand(1, "神罰の雷")
    p.pile(1, 4, 3)
    m = p.build()
    envs = m.submit(1, c.Cast(card=bolt, line=1, towers=(4,)))
    assert one(envs, ev.PlayerDamaged).event == ev.PlayerDamaged(seat=2, amount=2, wave=True)
    lost = one(envs, ev.LifeLost)
    assert lost.clause == "W-14.5" and lost.event.life == 10
    assert not of(envs, ev.HeartsBroken) and not any(h.broken for h in m.state.side(2).hearts)


# -- W-8.5 regenerate, instant summon ---------------------------------------------------------
def test_W_8_5_regenerate_removes_all_damage_and_breaks():
    p = Pos(p1=["再生の樹精"])
    dryad = p.unit(1, 2, "再生の樹精", damage=3)
    p.souls(1, 1)
    m = p.build()
    envs = m.submit(1, c.Activate(card=dryad, skill=0, souls=m.state.side(1).soul))
    regen = one(envs, ev.UnitRegenerated)
    assert regen.clause == "W-8.5"
    unit = m.state.side(1).stage[1]
    assert unit.damage == 0 and unit.broken
    folds(m)


def test_W_8_5_regenerate_by_a_spell():
    p = Pos(p1=["活力の薬"], p2=["岩窟のゴーレム"])
    golem = p.unit(2, 3, "岩窟のゴーレム", damage=4)
    potion, = p.hand(1, "活力の薬")
    p.souls(1, 1)
    m = p.build()
    m.submit(1, c.Cast(card=potion, line=1, souls=m.state.side(1).soul, targets=(golem,)))
    assert m.state.side(2).stage[2].damage == 0 and m.state.side(2).stage[2].broken


def test_W_8_5_instant_summon_pays_nothing_and_gives_no_sleep():
    p = Pos(p1=["召喚術師", "知恵の梟"])
    summoner, owl = p.hand(1, "召喚術師", "知恵の梟")
    p.pile(1, 4, 4)
    m = p.build()
    m.submit(1, c.Summon(card=summoner, line=1, towers=(4,)))
    choice = m.state.choice
    assert choice.optional and owl * 10 + 2 in choice.options
    deck_top = m.state.side(1).deck[0]
    envs = m.submit(1, c.Choose(targets=(owl * 10 + 2,)))
    free = one(envs, ev.UnitSummonedFree)
    assert free.clause == "W-8.5" and free.event == ev.UnitSummonedFree(seat=1, card=owl, line=2, src="hand")
    assert not of(envs, ev.CostPaid)
    assert m.state.side(1).stage[1].status is None       # no sleep
    assert m.state.side(1).stage[0].status is not None   # the summoner itself sleeps
    drawn = one(envs, ev.CardDrawn)                       # the owl's own on-summon skill resolved too
    assert drawn.event.card == deck_top
    folds(m)


def test_W_8_5_instant_summon_from_the_soul():
    p = Pos(p1=["蘇生の儀", "潮騒の槍兵"])
    rite, = p.hand(1, "蘇生の儀")
    spear, = p.soul(1, "潮騒の槍兵")
    p.pile(1, 4, 3)
    m = p.build()
    envs = m.submit(1, c.Cast(card=rite, line=1, towers=(4,), targets=(spear * 10 + 3,)))
    assert one(envs, ev.UnitSummonedFree).event.src == "soul"
    assert m.state.side(1).stage[2].card == spear and m.state.side(1).stage[2].status is None
    assert spear not in m.state.side(1).soul


# -- W-3.5 owner and controller ----------------------------------------------------------------
def _dominated() -> tuple:
    p = Pos(p1=["支配の魔女", "帰還の術", "破滅の呪文"], p2=["大地の戦士"])
    warrior = p.unit(2, 3, "大地の戦士")
    witch, recall, doom = p.hand(1, "支配の魔女", "帰還の術", "破滅の呪文")
    p.pile(1, 1, 5)
    p.pile(1, 4, 2)
    p.pile(1, 5, 4)
    m = p.build()
    m.submit(1, c.Summon(card=witch, line=2, towers=(1,)))
    envs = m.submit(1, c.Choose(targets=(warrior,)))
    gained = one(envs, ev.ControlGained)
    assert gained.clause == "W-3.5" and gained.event == ev.ControlGained(seat=1, card=warrior, src_line=3, line=3)
    assert m.state.side(1).stage[2].card == warrior and m.state.side(2).stage[2] is None
    return m, warrior, recall, doom


def test_W_3_5_a_returned_unit_goes_to_its_owners_hand_not_the_controllers():
    m, warrior, recall, _ = _dominated()
    envs = m.submit(1, c.Cast(card=recall, line=4, towers=(4,), targets=(warrior,)))
    moved = of(envs, ev.CardMoved)[0]
    assert moved.clause == "W-3.5"
    assert moved.event == ev.CardMoved(card=warrior, src="stage", dst="hand", seat=1, line=3)
    assert warrior in m.state.side(2).hand and warrior not in m.state.side(1).hand
    folds(m)


def test_W_3_5_a_destroyed_controlled_unit_becomes_its_owners_soul():
    m, warrior, _, doom = _dominated()
    m.submit(1, c.Cast(card=doom, line=4, towers=(5,), targets=(warrior,)))
    assert warrior in m.state.side(2).soul and warrior not in m.state.side(1).soul


# -- seal ---------------------------------------------------------------------------------------
def test_W_3_1_seal_a_soul_and_a_graveyard_card():
    p = Pos(p1=["魂喰らい", "魂の封印"], p2=["潮騒の槍兵", "大地の戦士"])
    eater, sealing = p.hand(1, "魂喰らい", "魂の封印")
    soul, = p.soul(2, "潮騒の槍兵")
    dead, = p.grave(2, "大地の戦士")
    p.pile(1, 4, 3)
    p.souls(1, 1)
    m = p.build()
    m.submit(1, c.Summon(card=eater, line=1, towers=(4,)))
    envs = m.submit(1, c.Choose(targets=(soul,)))
    assert one(envs, ev.CardMoved).event == ev.CardMoved(card=soul, src="soul", dst="seal", seat=2)
    envs = m.submit(1, c.Cast(card=sealing, line=2, souls=m.state.side(1).soul, targets=(dead,)))
    assert of(envs, ev.CardMoved)[0].event == ev.CardMoved(card=dead, src="grave", dst="seal", seat=2)
    assert m.state.side(2).seal == (soul, dead)
    folds(m)


# -- W-1.1 special victory ----------------------------------------------------------------------
def test_W_1_1_special_victory_with_eight_souls():
    p = Pos(p1=["運命の書記"])
    scribe, = p.hand(1, "運命の書記")
    p.souls(1, 8)
    p.pile(1, 4, 3)
    p.pile(1, 5, 3)
    m = p.build()
    envs = m.submit(1, c.Summon(card=scribe, line=1, towers=(4, 5)))
    ended = one(envs, ev.MatchEnded)
    assert ended.clause == "W-1.1" and ended.event.winner == 1
    assert "運命の書記" in ended.event.termination
    assert m.outcome is not None and m.outcome.winner == 1
    folds(m)


def test_W_1_1_no_special_victory_with_seven_souls():
    p = Pos(p1=["運命の書記"])
    scribe, = p.hand(1, "運命の書記")
    p.souls(1, 7)
    p.pile(1, 4, 3)
    p.pile(1, 5, 3)
    m = p.build()
    envs = m.submit(1, c.Summon(card=scribe, line=1, towers=(4, 5)))
    fizzled = one(envs, ev.SkillFizzled)
    assert fizzled.event.reason == "its condition does not hold"
    assert m.outcome is None
