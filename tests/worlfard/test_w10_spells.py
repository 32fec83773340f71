"""W-10 spells: when each type may be cast (W-10.2), Long Spells staying and leaving (W-10.3),
targets chosen at cast and re-checked at resolution (W-10.4), extra costs, instant cast (W-10.5).

Seat 1 acts (turn 3). Spells: 火球 MS LV2 3 damage; 衝撃波 SS LV2 2 wave damage; 闘志の炎 SS LV1
[STR+2] until end of combat; 代償の炎 SS LV1 {コスト:〔1〕} 3 damage; 氷塊の足枷 LS LV2; 加護の陣 LS LV2
(no spell skill: own units [VIT+1]); 癒しの雨 MS LV2 (no target); 連鎖の魔導書 MS LV3 (instantly
cast a spell from hand).
"""
from __future__ import annotations

from skill_scenarios import Phase, Pos, attack, c, ev, folds, illegal, kinds, of, one, pass_, passes, stats


# -- W-10.2 when each type is cast ------------------------------------------------------------------
def _window(*spells: str, seat2_spells: tuple[str, ...] = ()) -> tuple:
    """Seat 1's 大地の戦士 attacks seat 2's 潮騒の槍兵 (line 2): reaction window 1, seat 1 to act."""
    p = Pos(p1=["大地の戦士", *spells], p2=["潮騒の槍兵", *seat2_spells]).at(Phase.BATTLE, 1)
    attacker = p.unit(1, 2, "大地の戦士")
    defender = p.unit(2, 2, "潮騒の槍兵")
    hand1 = p.hand(1, *spells)
    hand2 = p.hand(2, *seat2_spells)
    p.souls(1, 3)
    p.souls(2, 3)
    m = p.build()
    attack(m, 2, 2)
    assert m.state.window is not None and m.state.window.seat == 1
    return m, attacker, defender, hand1, hand2


def test_W_10_2_a_middle_or_long_spell_cannot_be_cast_in_a_reaction_window():
    m, attacker, defender, (fireball, fetters), _ = _window("火球", "氷塊の足枷")
    souls = m.state.side(1).soul[:2]
    illegal(m, 1, c.Cast(card=fireball, line=1, souls=souls, targets=(defender,)), "W-10.2")
    illegal(m, 1, c.Cast(card=fetters, line=1, souls=souls, targets=(defender,)), "W-10.2")
    assert all(x.card not in (fireball, fetters) for x in m.legal(1) if isinstance(x, c.Cast))


def test_W_10_2_a_middle_spell_cannot_be_cast_by_the_defender_in_window_2():
    m, attacker, defender, _, (fireball,) = _window(seat2_spells=("火球",))
    passes(m)
    m.submit(2, c.NoDefense())
    assert m.state.window.seat == 2
    illegal(m, 2, c.Cast(card=fireball, line=1, souls=m.state.side(2).soul[:2], targets=(attacker,)), "W-10.2")


def test_W_10_2_a_short_spell_is_cast_in_a_window_by_either_player():
    m, attacker, defender, (flame,), (wave,) = _window("闘志の炎", seat2_spells=("衝撃波",))
    envs = m.submit(1, c.Cast(card=flame, line=1, souls=m.state.side(1).soul[:1], targets=(attacker,)))
    assert envs[0].kind == "decision" and one(envs, ev.SpellPlaced).event.waiting
    envs = m.submit(2, c.Cast(card=wave, line=1, souls=m.state.side(2).soul[:2], targets=(attacker,)))
    assert one(envs, ev.SpellPlaced).event.waiting


def test_W_10_2_no_spell_in_the_battle_phase_outside_a_window():
    p = Pos(p1=["衝撃波", "火球"], p2=["潮騒の槍兵"]).at(Phase.BATTLE, 1)
    target = p.unit(2, 2, "潮騒の槍兵")
    wave, fireball = p.hand(1, "衝撃波", "火球")
    p.souls(1, 2)
    m = p.build()
    souls = m.state.side(1).soul
    illegal(m, 1, c.Cast(card=wave, line=1, souls=souls, targets=(target,)), "W-10.2")
    illegal(m, 1, c.Cast(card=fireball, line=1, souls=souls, targets=(target,)), "W-10.2")


def test_W_10_2_a_short_spell_in_a_main_phase_resolves_at_once():
    p = Pos(p1=["衝撃波"], p2=["潮騒の槍兵"])
    target = p.unit(2, 2, "潮騒の槍兵")
    wave, = p.hand(1, "衝撃波")
    p.souls(1, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=wave, line=1, souls=m.state.side(1).soul, targets=(target,)))
    assert kinds(envs, windows=True) == [
        ("SpellCast", "W-10.1"), ("CostPaid", "W-6.2"), ("SpellPlaced", "W-10.1"), ("SpellResolved", "W-10.1"),
        ("UnitDamaged", "W-14.5"), ("CardMoved", "W-10.3")]
    assert m.state.window is None and wave in m.state.side(1).grave


# -- W-10.3 what stays on the table --------------------------------------------------------------
def test_W_10_3_a_middle_spell_goes_to_the_graveyard_after_resolving():
    p = Pos(p1=["火球"], p2=["潮騒の槍兵"])
    target = p.unit(2, 2, "潮騒の槍兵")
    fireball, = p.hand(1, "火球")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=fireball, line=3, towers=(4,), targets=(target,)))
    moved = envs[-1]
    assert moved.clause == "W-10.3" and moved.event == ev.CardMoved(card=fireball, src="table", dst="grave",
                                                                     seat=1, line=3)
    assert m.state.side(1).table[2] is None
    folds(m)


def test_W_10_3_a_long_spell_without_a_spell_skill_stays_and_keeps_giving():
    p = Pos(p1=["加護の陣", "大地の戦士"], p2=["潮騒の槍兵"])
    p.unit(1, 1, "大地の戦士")
    p.unit(2, 1, "潮騒の槍兵")
    circle, = p.hand(1, "加護の陣")
    p.pile(1, 4, 2)
    m = p.build()
    envs = m.submit(1, c.Cast(card=circle, line=3, towers=(4,)))
    assert kinds(envs) == [("SpellCast", "W-10.1"), ("CostPaid", "W-6.2"), ("SpellPlaced", "W-10.1"),
                           ("SpellResolved", "W-10.1"), ("SpellStays", "W-10.3")]
    assert m.state.side(1).table[2].card == circle
    assert stats(m, 1, 1).VIT == 4 and stats(m, 2, 1).VIT == 3
    m.submit(1, c.Proceed(to="end"))
    assert m.state.side(1).table[2].card == circle and stats(m, 1, 1).VIT == 4
    folds(m)


def _fettered() -> tuple:
    p = Pos(p1=["氷塊の足枷", "火球", "帰還の術"], p2=["ディプテラ"])
    dip = p.unit(2, 3, "ディプテラ")
    fetters, fireball, recall = p.hand(1, "氷塊の足枷", "火球", "帰還の術")
    p.pile(1, 4, 2)
    p.pile(1, 5, 2)
    m = p.build()
    m.submit(1, c.Cast(card=fetters, line=1, towers=(4,), targets=(dip,)))
    assert m.state.side(1).table[0].targets == (dip,)
    return m, dip, fetters, fireball, recall


def test_W_10_3_a_targeting_long_spell_goes_to_the_graveyard_when_its_target_is_destroyed():
    m, dip, fetters, fireball, _ = _fettered()
    envs = m.submit(1, c.Cast(card=fireball, line=2, towers=(5,), targets=(dip,)))
    destroyed = one(envs, ev.UnitDestroyed)
    gone = [e for e in of(envs, ev.CardMoved) if e.event.card == fetters]
    assert len(gone) == 1 and gone[0].clause == "W-10.3"
    assert gone[0].event == ev.CardMoved(card=fetters, src="table", dst="grave", seat=1, line=1)
    assert envs.index(gone[0]) > envs.index(destroyed)
    assert m.state.side(1).table[0] is None and fetters in m.state.side(1).grave
    folds(m)


def test_W_10_3_a_targeting_long_spell_goes_when_its_target_returns_to_hand():
    m, dip, fetters, _, recall = _fettered()
    m.submit(1, c.Cast(card=recall, line=2, towers=(5,), targets=(dip,)))
    assert dip in m.state.side(2).hand and fetters in m.state.side(1).grave


# -- W-10.4 targets ----------------------------------------------------------------------------------
def test_W_10_4_a_spell_whose_target_cannot_be_chosen_cannot_be_cast():
    p = Pos(p1=["火球"])
    fireball, = p.hand(1, "火球")
    p.pile(1, 4, 2)
    m = p.build()
    assert not any(isinstance(x, c.Cast) for x in m.legal(1))
    illegal(m, 1, c.Cast(card=fireball, line=1, towers=(4,)), "W-10.4")


def test_W_10_4_targets_are_chosen_at_cast_and_must_be_correct():
    p = Pos(p1=["火球", "癒しの雨"], p2=["潮騒の槍兵"])
    target = p.unit(2, 2, "潮騒の槍兵")
    fireball, rain = p.hand(1, "火球", "癒しの雨")
    p.pile(1, 4, 2)
    m = p.build()
    illegal(m, 1, c.Cast(card=fireball, line=1, towers=(4,)), "W-10.4")                       # none given
    illegal(m, 1, c.Cast(card=fireball, line=1, towers=(4,), targets=(rain,)), "W-10.4")      # not a unit
    illegal(m, 1, c.Cast(card=fireball, line=1, towers=(4,), targets=(target, target)), "W-10.4")
    illegal(m, 1, c.Cast(card=rain, line=1, towers=(4,), targets=(target,)), "W-10.4")        # takes none
    envs = m.submit(1, c.Cast(card=fireball, line=1, towers=(4,), targets=(target,)))
    assert envs[0].event.targets == (target,)


def test_W_10_4_a_spell_whose_target_left_before_resolution_does_nothing():
    """Seat 1 raises its attacker's STR; seat 2 answers by burning the attacker. Newest first: the
    attacker is destroyed, so 闘志の炎 finds no target and ends (and the combat stops, W-12.7)."""
    m, attacker, defender, (flame,), (burn,) = _window("闘志の炎", seat2_spells=("代償の炎",))
    m.submit(1, c.Cast(card=flame, line=1, souls=m.state.side(1).soul[:1], targets=(attacker,)))
    m.submit(2, c.Cast(card=burn, line=1, souls=m.state.side(2).soul[:2], targets=(attacker,)))
    envs = pass_(m) + pass_(m)
    fizzled = one(envs, ev.SpellFizzled)
    assert fizzled.clause == "W-10.4" and fizzled.event.card == flame
    assert envs.index(one(envs, ev.UnitDestroyed)) < envs.index(fizzled)
    assert not of(envs, ev.EffectAdded)
    moved = [e for e in of(envs, ev.CardMoved) if e.event.card == flame]
    assert moved[0].clause == "W-10.3" and flame in m.state.side(1).grave
    assert one(envs, ev.CombatEnded).clause == "W-12.7" and m.state.combat is None
    folds(m)


# -- extra cost ----------------------------------------------------------------------------------------
def test_W_2_4_an_extra_cost_is_paid_on_top_of_the_level():
    p = Pos(p1=["代償の炎"], p2=["潮騒の槍兵"])
    target = p.unit(2, 2, "潮騒の槍兵")
    burn, = p.hand(1, "代償の炎")
    souls = p.souls(1, 2)
    m = p.build()
    illegal(m, 1, c.Cast(card=burn, line=1, souls=souls[:1], targets=(target,)), "W-6.1")
    envs = m.submit(1, c.Cast(card=burn, line=1, souls=souls, targets=(target,)))
    assert envs[0].event.cost == 2 and one(envs, ev.CostPaid).event.cost == 2


# -- W-10.5 instant cast -------------------------------------------------------------------------------
def _grimoire(souls: int = 1) -> tuple:
    p = Pos(p1=["連鎖の魔導書", "代償の炎"], p2=["潮騒の槍兵"])
    target = p.unit(2, 2, "潮騒の槍兵")
    grimoire, burn = p.hand(1, "連鎖の魔導書", "代償の炎")
    p.pile(1, 4, 3)
    p.souls(1, souls)
    return p, target, grimoire, burn


def test_W_10_5_an_instant_cast_pays_no_level_but_pays_the_extra_cost():
    p, target, grimoire, burn = _grimoire()
    m = p.build()
    soul = m.state.side(1).soul
    envs = m.submit(1, c.Cast(card=grimoire, line=1, towers=(4,), targets=(burn * 10 + 2,)))
    free = [e for e in of(envs, ev.SpellCast) if e.event.free]
    assert len(free) == 1 and free[0].clause == "W-10.5" and free[0].kind == "rule"
    assert (free[0].event.card, free[0].event.line, free[0].event.cost, free[0].event.souls) == (burn, 2, 1, soul)
    paid = of(envs, ev.CostPaid)
    assert [e.event.cost for e in paid] == [3, 1]
    assert grimoire in m.state.side(1).grave
    assert m.state.choice is not None and m.state.choice.options == (target,)    # its target, chosen now
    envs = m.submit(1, c.Choose(targets=(target,)))
    assert one(envs, ev.UnitDamaged).event.amount == 3
    assert one(envs, ev.UnitDestroyed).event.card == target
    assert burn in m.state.side(1).grave and m.state.side(1).table == (None,) * 5
    folds(m)


def test_W_10_4_an_instant_cast_whose_extra_cost_is_no_longer_payable_does_nothing():
    """At cast, tower 4 could pay 代償の炎's 〔1〕; it paid for the grimoire itself, so when the grimoire
    resolves its target can no longer be chosen correctly (W-10.4, W-10.5)."""
    p, target, grimoire, burn = _grimoire(souls=0)
    m = p.build()
    envs = m.submit(1, c.Cast(card=grimoire, line=1, towers=(4,), targets=(burn * 10 + 2,)))
    assert one(envs, ev.SpellFizzled).event.card == grimoire
    assert not [e for e in of(envs, ev.SpellCast) if e.event.free]
    assert burn in m.state.side(1).hand and grimoire in m.state.side(1).grave


def test_W_10_5_the_instant_cast_goes_to_an_empty_table_spot_other_than_the_casters():
    p, target, grimoire, burn = _grimoire()
    m = p.build()
    assert not any(isinstance(x, c.Cast) and x.card == grimoire and x.targets[0] % 10 == x.line
                   for x in m.legal(1))
    illegal(m, 1, c.Cast(card=grimoire, line=1, towers=(4,), targets=(burn * 10 + 1,)), "W-10.4")
