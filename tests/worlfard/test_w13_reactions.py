"""W-13 reactions: the two windows of a combat (W-12.3 turn player first, W-12.5 defender first),
alternating rights, both passing closing the chain, newest-first resolution, triggers waiting
for the chain (W-13.2), a waiting Short Spell on its table spot (W-Q7); and the three examples
of W-12.7, played through the reaction windows.

Seat 1's 大地の戦士 (STR3 VIT3 AGI1) attacks seat 2's spot in front of it; seat 2's 潮騒の槍兵
(STR2 VIT3 AGI1) stands there when a test says so. Each seat has three spare souls for costs.
"""
from __future__ import annotations

import pytest
from skill_scenarios import Phase, Pos, attack, c, ev, folds, illegal, inject, kinds, of, one, pass_, passes

from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import NotYourDecision
from kifu.domain.core.rng import Rng
from kifu.domain.worlfard import flow
from kifu.domain.worlfard.cards import card as printed
from kifu.domain.worlfard.evolve import evolve
from kifu.domain.worlfard.ops import Context, apply_skill
from kifu.domain.worlfard.state import Trigger, Window


def _battle(p1: tuple[str, ...] = (), p2: tuple[str, ...] = (), defender: bool = True, line: int = 2,
            more1: tuple[str, ...] = (), more2: tuple[str, ...] = ()) -> tuple:
    """Hands ``p1`` and ``p2``; ``more1`` and ``more2`` stay in the decks for the test to place."""
    p = Pos(p1=["大地の戦士", *p1, *more1], p2=["潮騒の槍兵", *p2, *more2]).at(Phase.BATTLE, 1)
    attacker = p.unit(1, line, "大地の戦士")
    spear = p.unit(2, line, "潮騒の槍兵") if defender else None
    hand1 = p.hand(1, *p1)
    hand2 = p.hand(2, *p2)
    p.souls(1, 3)
    p.souls(2, 3)
    return p, attacker, spear, hand1, hand2


def _souls(m, seat: int, n: int) -> tuple[int, ...]:
    return m.state.side(seat).soul[:n]


# -- W-12.3 / W-12.5 the two windows ---------------------------------------------------------------
def test_W_12_3_window_1_opens_after_the_target_declaration_with_the_turn_player_first():
    p, attacker, spear, _, _ = _battle()
    m = p.build()
    envs = attack(m, 2, 2)
    assert kinds(envs, windows=True)[-3:] == [("UnitBroken", "W-12.2"), ("CombatStep", "W-12.3"),
                                              ("WindowOpened", "W-12.3")]
    assert envs[-1].event.window == Window(step=1, seat=1)
    assert m.deciding == 1 and c.Pass() in m.legal(1) and m.legal(2) == []
    with pytest.raises(NotYourDecision):
        m.submit(2, c.Pass())
    illegal(m, 1, c.Proceed(to="main2"), "W-13.1")


def test_W_12_5_window_2_opens_after_the_defense_with_the_defender_first():
    p, attacker, spear, _, _ = _battle()
    m = p.build()
    attack(m, 2, 2)
    envs = passes(m)
    assert kinds(envs, windows=True) == [("Passed", "W-13.1"), ("Passed", "W-13.1"), ("WindowClosed", "W-13.1"),
                                         ("CombatStep", "W-12.4")]
    assert m.state.window is None and m.deciding == 2
    envs = m.submit(2, c.NoDefense())
    opened = one(envs, ev.WindowOpened)
    assert opened.clause == "W-12.5" and opened.event.window == Window(step=2, seat=2)
    assert m.deciding == 2


# -- W-13.1 rights, passes, the chain ---------------------------------------------------------------
def test_W_13_1_the_right_alternates_and_two_passes_in_a_row_close_the_chain():
    p, attacker, spear, (flame,), (wall,) = _battle(("闘志の炎",), ("大地の防壁",))
    m = p.build()
    attack(m, 2, 2)
    envs = m.submit(1, c.Pass())
    assert envs[0].kind == "decision" and m.state.window.seat == 2 and m.state.window.passes == 1
    m.submit(2, c.Cast(card=wall, line=1, souls=_souls(m, 2, 1), targets=(spear,)))
    assert m.state.window.seat == 1 and m.state.window.passes == 0        # a cast gives the right back
    m.submit(1, c.Cast(card=flame, line=1, souls=_souls(m, 1, 1), targets=(attacker,)))
    assert m.state.window.seat == 2
    envs = m.submit(2, c.Pass())
    assert not of(envs, ev.ChainResolving) and m.state.window.seat == 1
    envs = m.submit(1, c.Pass())
    resolving = one(envs, ev.ChainResolving)
    assert resolving.clause == "W-13.1" and resolving.event.chain == (21, 11)
    assert one(envs, ev.WindowClosed).clause == "W-13.1" and m.state.combat.step == "defend"
    folds(m)


def test_W_13_1_a_chain_of_three_resolves_newest_first():
    p, attacker, spear, (flame, wall), (weaken,) = _battle(("闘志の炎", "大地の防壁"), ("脆弱化",))
    m = p.build()
    attack(m, 2, 2)
    m.submit(1, c.Cast(card=flame, line=1, souls=_souls(m, 1, 1), targets=(attacker,)))
    m.submit(2, c.Cast(card=weaken, line=3, souls=_souls(m, 2, 1), targets=(attacker,)))
    m.submit(1, c.Cast(card=wall, line=2, souls=_souls(m, 1, 1), targets=(attacker,)))
    assert m.state.window.chain == (11, 23, 12)
    envs = pass_(m) + pass_(m)
    assert [e.event.card for e in of(envs, ev.SpellResolved)] == [wall, weaken, flame]
    assert [e.event.effect.stat for e in of(envs, ev.EffectAdded)] == ["DEF", "DEF", "STR"]
    assert [e.event.card for e in of(envs, ev.CardMoved)] == [wall, weaken, flame]
    assert all(spot is None for seat in (1, 2) for spot in m.state.side(seat).table)
    assert m.state.window is None
    folds(m)


def test_W_13_1_only_a_short_spell_or_a_pass_in_a_window():
    p, attacker, spear, _, _ = _battle()
    m = p.build()
    attack(m, 2, 2)
    illegal(m, 1, c.Attack(line=2), "W-13.1")


# -- W-Q7 a waiting Short Spell occupies its table spot -------------------------------------------------
def test_W_Q7_a_waiting_short_spell_stands_on_its_table_spot_until_it_resolves():
    p, attacker, spear, (flame,), _ = _battle(("闘志の炎",))
    m = p.build()
    attack(m, 2, 2)
    envs = m.submit(1, c.Cast(card=flame, line=4, souls=_souls(m, 1, 1), targets=(attacker,)))
    placed = one(envs, ev.SpellPlaced)
    assert placed.clause == "W-Q7" and placed.event.waiting
    spot = m.state.side(1).table[3]
    assert (spot.card, spot.targets, spot.waiting) == (flame, (attacker,), True)
    assert flame not in m.state.side(1).hand
    envs = pass_(m) + pass_(m)
    assert m.state.side(1).table[3] is None and flame in m.state.side(1).grave


def test_W_Q7_with_no_empty_table_spot_a_player_cannot_react():
    full = ("加護の陣", "加護の陣", "加護の陣", "神速封じの結界", "神速封じの結界")
    p, attacker, spear, (flame,), _ = _battle(("闘志の炎",), more1=full)
    for line, name in enumerate(full, start=1):
        p.table(1, line, name)
    m = p.build()
    attack(m, 2, 2)
    assert m.legal(1) == [c.Pass()]
    illegal(m, 1, c.Cast(card=flame, line=1, souls=_souls(m, 1, 1), targets=(attacker,)), "W-3.3")


def test_W_Q7_the_element_effect_uses_the_waiting_spells_line():
    p, attacker, spear, (wave,), _ = _battle(("衝撃波",), more1=("疾風の鷹",))
    p.tower(1, 3, "疾風の鷹")                                              # wind on line 3
    m = p.build()
    attack(m, 2, 2)
    illegal(m, 1, c.Cast(card=wave, line=2, souls=_souls(m, 1, 1), targets=(spear,)), "W-6.1")
    envs = m.submit(1, c.Cast(card=wave, line=3, souls=_souls(m, 1, 1), targets=(spear,)))
    assert envs[0].event.cost == 1


# -- W-13.2 triggers during resolution wait for the chain ------------------------------------------------
def test_W_13_2_triggers_during_resolution_wait_and_then_resolve_in_order_of_occurrence():
    """No sample Short Spell makes a skill trigger, so the triggers are put in the queue as the
    chain starts to resolve (state preparation): 知恵の梟 (draw 1) fired first, then 墓守 (mill 2)."""
    p, attacker, spear, (flame,), (wall,) = _battle(("闘志の炎",), ("大地の防壁",), more1=("知恵の梟",),
                                                    more2=("墓守",))
    owl = p.unit(1, 4, "知恵の梟")
    keeper = p.unit(2, 4, "墓守")
    m = p.build()
    attack(m, 2, 2)
    m.submit(1, c.Cast(card=flame, line=1, souls=_souls(m, 1, 1), targets=(attacker,)))
    m.submit(2, c.Cast(card=wall, line=1, souls=_souls(m, 2, 1), targets=(spear,)))
    m.submit(1, c.Pass())
    # seat 2's pass closes the chain; it is decided by hand so the triggers can join as it resolves
    seq = m.seq + 1
    draft = Draft(m.state, seq, Rng.for_seq(m.header.seed, seq), evolve)
    passed = draft.decision(2, ev.Passed(seat=2), clause="W-13.1")
    draft.rule("W-13.1", passed, ev.ChainResolving(chain=draft.state.window.chain))
    draft.rule("W-2.5", passed, ev.SkillTriggered(trigger=Trigger(seat=1, card=owl, skill=0), when="summon"))
    draft.rule("W-2.5", passed, ev.SkillTriggered(trigger=Trigger(seat=2, card=keeper, skill=0), when="summon"))
    flow.advance(draft, passed)
    names = [type(e.event).__name__ for e in draft.envelopes]
    resolved = [i for i, n in enumerate(names) if n == "SpellResolved"]
    triggers = [i for i, n in enumerate(names) if n == "TriggerResolves"]
    assert [draft.envelopes[i].event.card for i in resolved] == [wall, flame]
    assert [draft.envelopes[i].event.trigger.card for i in triggers] == [owl, keeper]
    assert max(resolved) < names.index("WindowClosed") < min(triggers)
    assert names.index("CardDrawn") < names.index("CardsMilled")
    assert draft.state.combat.step == "defend"


# -- W-12.7 the three examples, played through the reactions ----------------------------------------------
def test_W_12_7_a_defender_destroyed_in_window_2_ends_the_combat_without_damage_to_the_player():
    p, attacker, spear, (burn,), _ = _battle(("代償の炎",))
    m = p.build()
    attack(m, 2, 2)
    passes(m)
    m.submit(2, c.NoDefense())
    assert m.state.combat.defender_card == spear
    pass_(m)                                                                # the defender passes first
    m.submit(1, c.Cast(card=burn, line=1, souls=_souls(m, 1, 2), targets=(spear,)))
    envs = pass_(m) + pass_(m)
    assert one(envs, ev.UnitDestroyed).event.card == spear
    ended = one(envs, ev.CombatEnded)
    assert ended.clause == "W-12.7" and ended.event.reason == "the defending unit left the field"
    assert not of(envs, ev.PlayerAttacked) and not of(envs, ev.HeartsBroken) and not of(envs, ev.LifeLost)
    assert not of(envs, ev.CombatDamage)
    assert m.state.side(2).life == 12 and not any(h.broken for h in m.state.side(2).hearts)
    assert m.state.side(1).stage[1].damage == 0 and m.state.combat is None
    folds(m)


def _summon_into(m, seat: int, card: int, line: int) -> list:
    """召喚術師's instant summon (W-8.5), as if it could happen now."""
    skill = printed("召喚術師").skill[0]
    return inject(m, lambda d: apply_skill(d, Context(seat=seat, card=card, skill=skill, skill_index=0,
                                                       targets=(card * 10 + line,)), None))


def test_W_12_7_a_unit_arriving_on_the_target_spot_after_a_direct_attack_is_fixed_changes_nothing():
    p, attacker, _, _, _ = _battle(p2=("潮騒の槍兵",), defender=False)
    late = p.state.side(2).hand[0]
    m = p.build()
    attack(m, 2, 2)
    passes(m)
    envs = m.submit(2, c.NoDefense())
    assert one(envs, ev.DefenseFixed).event.on_player
    envs = _summon_into(m, 2, late, 2)
    assert one(envs, ev.UnitSummonedFree).event.line == 2 and m.state.side(2).stage[1].card == late
    envs = passes(m)
    assert one(envs, ev.PlayerAttacked).event == ev.PlayerAttacked(seat=2, STR=3)
    assert len(one(envs, ev.HeartsBroken).event.indexes) == 3
    assert not of(envs, ev.CombatDamage) and m.state.side(2).stage[1].damage == 0
    folds(m)


def test_W_12_7_a_unit_arriving_before_the_defense_declaration_can_block():
    p, attacker, _, _, _ = _battle(p2=("潮騒の槍兵",), defender=False)
    late = p.state.side(2).hand[0]
    m = p.build()
    attack(m, 2, 2)
    _summon_into(m, 2, late, 2)
    passes(m)
    assert c.Block(line=2) in m.legal(2)
    envs = m.submit(2, c.Block(line=2)) + passes(m)
    assert {e.event.card for e in of(envs, ev.CombatDamage)} == {attacker, late}
    assert not of(envs, ev.PlayerAttacked)


def test_W_12_7_moving_a_combat_unit_out_of_range_does_not_cancel_the_combat():
    p, attacker, spear, _, _ = _battle(line=1)
    m = p.build()
    attack(m, 1, 1)
    passes(m)
    m.submit(2, c.NoDefense())
    skill = printed("暴風の精霊").skill[0]     # 隣接する空いているスポットに移動させる
    inject(m, lambda d: apply_skill(d, Context(seat=2, card=spear, skill=skill, skill_index=0,
                                               targets=(attacker * 10 + 2,)), None))
    envs = inject(m, lambda d: apply_skill(d, Context(seat=2, card=spear, skill=skill, skill_index=0,
                                                      targets=(attacker * 10 + 3,)), None))
    assert one(envs, ev.UnitShifted).event == ev.UnitShifted(seat=1, line=2, to=3)
    assert m.state.side(1).stage[2].card == attacker                     # 3 columns from spot 1, AGI 1
    envs = passes(m)
    assert not [e for e in of(envs, ev.CombatEnded) if e.clause == "W-12.7"]
    damage = {e.event.card: e.event.amount for e in of(envs, ev.CombatDamage)}
    assert damage == {spear: 3, attacker: 2}
    assert one(envs, ev.UnitDestroyed).event.card == spear
    folds(m)


def test_W_Q8_the_turn_players_triggers_resolve_first():
    """After combat both combat units' skills fire: the attacker's (turn player) before the defender's."""
    p = Pos(p1=["復讐の亡霊"], p2=["雷獣"]).at(Phase.BATTLE, 1)
    ghost = p.unit(1, 2, "復讐の亡霊")                                      # STR2 VIT2: 1 damage after combat
    beast = p.unit(2, 2, "雷獣")                                            # STR2 VIT3: paralysis after combat
    m = p.build()
    attack(m, 2, 2)
    passes(m)
    envs = m.submit(2, c.NoDefense()) + passes(m)
    assert [e.event.trigger.card for e in of(envs, ev.SkillTriggered)] == [ghost, beast]
    assert [e.event.trigger.card for e in of(envs, ev.TriggerResolves)] == [ghost, beast]
    assert one(envs, ev.UnitDamaged).event.card == beast                  # 2 combat + 1: destroyed
    assert {e.event.card for e in of(envs, ev.UnitDestroyed)} == {ghost, beast}
    folds(m)
