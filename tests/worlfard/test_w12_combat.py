"""W-12 combat (without reactions): declarations, defense, damage, final decisions, end processing.

Seat 1 (flame-gale) attacks in its battle phase unless a test says otherwise; seat 2 (tide-stone)
defends. Units used: 紅蓮の剣士 STR3 VIT2 AGI1; 炎獄の番犬 STR4 VIT3 AGI2 DEF-1; ディプテラ STR2 VIT2 AGI3;
潮騒の槍兵 STR2 VIT3 AGI1; 蒼氷の魔導師 STR3 VIT3 AGI2; 聖堂の守り手 STR2 VIT3 AGI1 DEF1;
深海の大亀 STR2 VIT6 AGI0 DEF1; 疾風の鷹 STR1 VIT1 AGI3.
"""
from __future__ import annotations

from scenario import Phase, Position, attack, c, defend, draft_on, illegal, kinds, of, one, passes, shown

from kifu.domain.worlfard import combat
from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.combat import combat_damage


def _battle(seat: int = 1) -> Position:
    return Position().at(Phase.BATTLE, seat=seat)


def _attack(p: Position, line: int, target: int):
    """Seat 1 attacks; reaction window 1 passes; seat 2's defense declaration is awaited."""
    m = p.build()
    attack(m, line, target)
    assert m.deciding == 2
    return m


# -- W-12.1 attack declaration ----------------------------------------------------------------
def test_W_12_1_attack_declaration_makes_the_unit_the_attacker():
    p = _battle()
    card = p.unit(1, 3, "紅蓮の剣士")
    m = p.build()
    envs = m.submit(1, c.Attack(line=3))
    assert kinds(envs) == [("AttackDeclared", "W-12.1")] and envs[0].kind == "decision"
    assert envs[0].event == ev.AttackDeclared(seat=1, line=3, card=card)
    assert m.state.combat.attacker == 3 and m.state.combat.attacker_card == card
    assert m.deciding == 1 and m.legal(1) == [c.Target(line=3)]


def test_W_12_1_AGI_0_cannot_attack():
    p = _battle(seat=2)
    p.unit(2, 2, "深海の大亀")
    m = p.build()
    assert c.Attack(line=2) not in m.legal(2)
    illegal(m, 2, c.Attack(line=2), "W-12.1")


def test_W_12_1_only_a_ready_unit_of_ones_own_attacks():
    p = _battle()
    p.unit(1, 2, "紅蓮の剣士", broken=True)
    p.unit(2, 4, "潮騒の槍兵")
    m = p.build()
    illegal(m, 1, c.Attack(line=2), "W-12.1")
    illegal(m, 1, c.Attack(line=4), "W-12.1")      # the opponent's unit is not seat 1's
    illegal(m, 1, c.Attack(line=6), "W-3.2")


def test_W_12_1_attacks_only_in_the_battle_phase():
    p = Position().at(Phase.MAIN1)
    p.unit(1, 2, "紅蓮の剣士")
    illegal(p.build(), 1, c.Attack(line=2), "W-12.1")


def test_W_12_1_attack_declaration_cannot_be_cancelled():
    p = _battle()
    p.unit(1, 2, "紅蓮の剣士")
    p.unit(1, 4, "ディプテラ")
    m = p.build()
    m.submit(1, c.Attack(line=2))
    illegal(m, 1, c.Proceed(to="main2"), "W-12.2")      # the next decision is the target
    illegal(m, 1, c.Attack(line=4), "W-12.2")
    m.submit(1, c.Target(line=2))
    illegal(m, 1, c.Proceed(to="main2"), "W-13.1")      # reaction window 1: cast or pass
    passes(m)
    illegal(m, 2, c.Proceed(to="end"), "W-12.4")        # the defender must declare


# -- W-12.2 target declaration ----------------------------------------------------------------
def test_W_12_2_target_is_an_enemy_spot_within_the_attackers_AGI_and_the_attacker_breaks():
    p = _battle()
    p.unit(1, 3, "炎獄の番犬")                     # AGI 2
    m = p.build()
    m.submit(1, c.Attack(line=3))
    assert m.legal(1) == [c.Target(line=2), c.Target(line=3), c.Target(line=4)]
    illegal(m, 1, c.Target(line=1), "W-12.2")
    illegal(m, 1, c.Target(line=6), "W-3.2")
    envs = m.submit(1, c.Target(line=4))           # an empty spot may be targeted
    assert kinds(envs) == [("TargetDeclared", "W-12.2"), ("UnitBroken", "W-12.2")]
    assert envs[0].event == ev.TargetDeclared(seat=1, line=4, distance=2, agi=2)
    assert envs[1].event == ev.UnitBroken(seat=1, line=3) and envs[1].cause == envs[0].seq
    assert m.state.side(1).stage[2].broken and m.state.combat.target == 4
    assert m.deciding == 1 and m.legal(1) == [c.Pass()]    # W-12.3: the turn player has the first right
    passes(m)
    assert m.deciding == 2


def test_W_12_2_target_only_right_after_an_attack_declaration():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    m = p.build()
    illegal(m, 1, c.Target(line=3), "W-5.6")           # nothing waits for a target
    attack(m, 3, 3)
    illegal(m, 2, c.Target(line=3), "W-12.4")


# -- W-12.4 defense declaration ---------------------------------------------------------------
def test_W_12_4_block_range_is_the_blockers_AGI_along_its_row():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    p.unit(2, 1, "蒼氷の魔導師")      # AGI 2, distance 2: in range
    p.unit(2, 2, "潮騒の槍兵")        # AGI 1, distance 1: in range
    p.unit(2, 5, "水妖ウンディーネ")   # AGI 1, distance 2: out of range
    m = _attack(p, 3, 3)
    assert m.legal(2) == [c.Block(line=1), c.Block(line=2), c.NoDefense()]
    error = illegal(m, 2, c.Block(line=5), "W-12.4")
    assert "distance 2" in error.reason
    illegal(m, 2, c.Block(line=4), "W-12.4")       # nobody there


def test_W_12_4_AGI_0_cannot_block():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    p.unit(2, 4, "深海の大亀")
    m = _attack(p, 3, 3)
    assert c.Block(line=4) not in m.legal(2)
    illegal(m, 2, c.Block(line=4), "W-12.4")


def test_W_12_4_broken_unit_cannot_block():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    p.unit(2, 2, "潮騒の槍兵", broken=True)
    m = _attack(p, 3, 3)
    illegal(m, 2, c.Block(line=2), "W-12.4")


def test_W_12_4_block_makes_unit_against_unit_and_the_blocker_breaks():
    p = _battle()
    attacker = p.unit(1, 3, "紅蓮の剣士")
    blocker = p.unit(2, 2, "潮騒の槍兵")
    m = _attack(p, 3, 3)
    envs = shown(defend(m, c.Block(line=2)))
    assert kinds(envs) == [
        ("BlockDeclared", "W-12.4"), ("DefenseFixed", "W-12.4"), ("UnitBroken", "W-12.4"),
        ("CombatDamage", "W-12.6"), ("CombatDamage", "W-12.6"),
        ("UnitDestroyed", "W-8.3"), ("UnitDestroyed", "W-8.3"), ("CombatEnded", "W-12.8")]
    declared = envs[0]
    assert declared.kind == "decision" and declared.seat == 2
    assert declared.event == ev.BlockDeclared(seat=2, line=2, distance=1, agi=1)
    assert envs[1].event == ev.DefenseFixed(line=2, card=blocker, decision=envs[0].seq)
    assert envs[2].event == ev.UnitBroken(seat=2, line=2)
    damage = [e.event for e in of(envs, ev.CombatDamage)]
    assert damage == [ev.CombatDamage(seat=2, line=2, card=blocker, amount=3, STR=3, DEF=0),
                      ev.CombatDamage(seat=1, line=3, card=attacker, amount=2, STR=2, DEF=0)]
    assert m.state.side(2).soul == (blocker,) and m.state.side(1).soul == (attacker,)
    assert m.state.side(2).life == 12 and not any(h.broken for h in m.state.side(2).hearts)


def test_W_12_6_combat_damage_traces_back_to_the_defense_declaration():
    """The damage is caused by the declarations that fixed the combat, not by the last pass of the
    reaction window that happened to come before it: ``kifu why`` walks to the block."""
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    p.unit(2, 2, "潮騒の槍兵")
    m = _attack(p, 3, 3)
    envs = defend(m, c.Block(line=2))
    declared = next(e for e in envs if isinstance(e.event, ev.BlockDeclared))
    damage = of(envs, ev.CombatDamage)
    assert damage and all(e.cause == declared.seq for e in damage)
    assert all(e.cause in {d.seq for d in damage} for e in of(envs, ev.UnitDestroyed))


def test_W_12_4_evade_when_AGI_is_at_least_the_attackers():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")                    # AGI 1
    p.unit(2, 3, "潮騒の槍兵")                    # AGI 1: equal is enough
    m = _attack(p, 3, 3)
    assert c.Evade() in m.legal(2)
    envs = defend(m, c.Evade())
    assert kinds(envs) == [
        ("EvadeDeclared", "W-12.4"), ("UnitBroken", "W-12.4"), ("DefenseFixed", "W-12.4"),
        ("PlayerAttacked", "W-12.6"), ("HeartsBroken", "W-11.2"), ("CombatEnded", "W-12.8")]
    assert envs[0].event == ev.EvadeDeclared(seat=2, line=3, agi=1, attacker_agi=1)
    assert envs[2].event == ev.DefenseFixed(on_player=True, decision=envs[0].seq)
    assert m.state.side(2).stage[2].broken and m.state.side(2).stage[2].damage == 0


def test_W_12_4_evade_needs_AGI_at_least_the_attackers():
    p = _battle()
    p.unit(1, 3, "炎獄の番犬")                    # AGI 2
    p.unit(2, 3, "潮騒の槍兵")                    # AGI 1
    m = _attack(p, 3, 3)
    assert c.Evade() not in m.legal(2)
    illegal(m, 2, c.Evade(), "W-12.4")


def test_W_12_4_evade_needs_a_ready_unit_on_the_target_spot():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    p.unit(2, 2, "潮騒の槍兵")
    p.unit(2, 4, "潮騒の槍兵", broken=True)
    m = _attack(p, 3, 3)
    illegal(m, 2, c.Evade(), "W-12.4")             # spot 3 is empty
    q = _battle()
    q.unit(1, 4, "紅蓮の剣士")
    q.unit(2, 4, "潮騒の槍兵", broken=True)
    illegal(_attack(q, 4, 4), 2, c.Evade(), "W-12.4")


def test_W_12_4_no_defense_with_an_occupant_makes_it_the_defender():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    occupant = p.unit(2, 3, "深海の大亀")          # AGI 0: it needs no range to defend its own spot
    m = _attack(p, 3, 3)
    envs = defend(m, c.NoDefense())
    assert kinds(envs)[:3] == [("NoDefenseDeclared", "W-12.4"), ("DefenseFixed", "W-12.4"), ("UnitBroken", "W-12.4")]
    assert envs[1].event == ev.DefenseFixed(line=3, card=occupant, decision=envs[0].seq)
    assert of(envs, ev.PlayerAttacked) == []
    assert m.state.side(2).stage[2].damage == 2     # STR 3 − DEF 1


def test_W_12_4_no_defense_on_an_empty_spot_is_an_attack_on_the_player():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    p.unit(2, 2, "潮騒の槍兵")                    # could have blocked, but does not
    m = _attack(p, 3, 3)
    envs = defend(m, c.NoDefense())
    assert kinds(envs)[:3] == [("NoDefenseDeclared", "W-12.4"), ("DefenseFixed", "W-12.4"),
                               ("PlayerAttacked", "W-12.6")]
    assert envs[1].event == ev.DefenseFixed(on_player=True, decision=envs[0].seq)
    assert one(envs, ev.HeartsBroken).event.indexes == (2, 1, 0)
    assert not m.state.side(2).stage[1].broken


def test_W_12_4_a_broken_occupant_still_defends_and_does_not_break_again():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    occupant = p.unit(2, 3, "深海の大亀", broken=True)
    m = _attack(p, 3, 3)
    envs = defend(m, c.NoDefense())
    assert one(envs, ev.DefenseFixed).event == ev.DefenseFixed(line=3, card=occupant, decision=envs[0].seq)
    assert of(envs, ev.UnitBroken) == []


def test_W_12_4_only_a_defense_declaration_answers_a_target():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    m = _attack(p, 3, 3)
    illegal(m, 2, c.Attack(line=3), "W-12.4")
    illegal(m, 2, c.Target(line=3), "W-12.4")


# -- W-12.6 damage ---------------------------------------------------------------------------------
def test_W_12_6_damage_is_STR_minus_DEF():
    p = _battle()
    attacker = p.unit(1, 3, "紅蓮の剣士")           # STR 3
    defender = p.unit(2, 3, "聖堂の守り手")         # STR 2, DEF 1
    m = _attack(p, 3, 3)
    envs = defend(m, c.NoDefense())
    damage = [e.event for e in of(envs, ev.CombatDamage)]
    assert damage == [ev.CombatDamage(seat=2, line=3, card=defender, amount=2, STR=3, DEF=1),
                      ev.CombatDamage(seat=1, line=3, card=attacker, amount=2, STR=2, DEF=0)]


def test_W_12_6_negative_DEF_increases_damage():
    p = _battle()
    hound = p.unit(1, 3, "炎獄の番犬")              # VIT 3, DEF −1
    p.unit(2, 3, "潮騒の槍兵")                     # STR 2
    m = _attack(p, 3, 3)
    envs = defend(m, c.NoDefense())
    to_hound = [e.event for e in of(envs, ev.CombatDamage) if e.event.card == hound][0]
    assert (to_hound.amount, to_hound.STR, to_hound.DEF) == (3, 2, -1)
    assert hound in m.state.side(1).soul          # 3 damage on VIT 3


def test_W_12_6_damage_is_never_below_zero():
    assert combat_damage(1, 1) == 0 and combat_damage(0, 3) == 0 and combat_damage(2, -1) == 3
    p = _battle()
    hawk = p.unit(1, 3, "疾風の鷹")                 # STR 1
    turtle = p.unit(2, 3, "深海の大亀")              # DEF 1
    m = _attack(p, 3, 3)
    envs = defend(m, c.NoDefense())
    to_turtle = [e.event for e in of(envs, ev.CombatDamage) if e.event.card == turtle][0]
    assert to_turtle.amount == 0 and m.state.side(2).stage[2].damage == 0
    assert hawk in m.state.side(1).soul


def test_W_12_6_both_combat_units_deal_damage_at_the_same_time():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")                    # STR 3 VIT 2
    p.unit(2, 3, "大地の戦士")                    # STR 3 VIT 3
    m = _attack(p, 3, 3)
    envs = defend(m, c.NoDefense())
    names = [k for k, _ in kinds(envs)]
    assert names.index("UnitDestroyed") > max(i for i, k in enumerate(names) if k == "CombatDamage")
    assert len(of(envs, ev.UnitDestroyed)) == 2


# -- W-12.7 decisions are final -----------------------------------------------------------------
def _fixed(p: Position, attacker: int, defender: int | None, target: int, a_line: int, d_line: int | None):
    """The combat as declared: attacker from ``a_line`` at ``target``, defended by ``defender`` from
    ``d_line`` (or on the player); the units may since have moved or left."""
    return p.combat(attacker=a_line, attacker_card=attacker, target=target, defended=True,
                    defender=d_line, defender_card=defender, on_player=defender is None, step="damage")


def test_W_12_7_defender_leaving_ends_combat():
    """Seed example: the defender is destroyed after it was fixed; the combat does not turn into an
    attack on the player, it ends."""
    p = _battle()
    attacker = p.unit(1, 3, "紅蓮の剣士", broken=True)
    (gone,) = p.soul(2, "潮騒の槍兵")               # the fixed defender, since destroyed
    _fixed(p, attacker, gone, target=3, a_line=3, d_line=3)
    m = p.build()
    draft = draft_on(m)
    combat.resolve(draft, m.seq)
    assert kinds(draft.envelopes) == [("CombatEnded", "W-12.7")]
    assert draft.envelopes[0].event == ev.CombatEnded(reason="the defending unit left the field")
    assert draft.envelopes[0].cause == m.seq
    state = draft.state
    assert state.combat is None and state.side(2).life == 12 and not any(h.broken for h in state.side(2).hearts)
    assert state.side(1).stage[2].damage == 0


def test_W_12_7_attacker_leaving_ends_combat():
    p = _battle()
    (gone,) = p.soul(1, "紅蓮の剣士")
    _fixed(p, gone, None, target=3, a_line=3, d_line=None)
    m = p.build()
    draft = draft_on(m)
    combat.resolve(draft, m.seq)
    assert kinds(draft.envelopes) == [("CombatEnded", "W-12.7")]
    assert draft.envelopes[0].event == ev.CombatEnded(reason="the attacking unit left the field")
    assert draft.state.side(2).hearts == m.state.side(2).hearts


def test_W_12_7_direct_attack_stays_on_player_after_new_unit_summoned():
    """Seed example: after 'attack on the player' was fixed, a unit is summoned on the target spot;
    the player is still attacked and the new unit is not fought."""
    p = _battle()
    attacker = p.unit(1, 3, "紅蓮の剣士", broken=True)
    newcomer = p.unit(2, 3, "潮騒の槍兵", status=None)
    _fixed(p, attacker, None, target=3, a_line=3, d_line=None)
    m = p.build()
    draft = draft_on(m)
    combat.resolve(draft, m.seq)
    assert kinds(draft.envelopes) == [("PlayerAttacked", "W-12.6"), ("HeartsBroken", "W-11.2")]
    assert draft.envelopes[0].event == ev.PlayerAttacked(seat=2, STR=3)
    assert draft.state.side(2).stage[2].card == newcomer and draft.state.side(2).stage[2].damage == 0


def test_W_12_7_unit_arriving_before_the_defense_declaration_can_block():
    """Seed example, second half: a unit that is there before the defense declaration may block."""
    p = _battle()
    attacker = p.unit(1, 3, "紅蓮の剣士", broken=True)
    newcomer = p.unit(2, 3, "潮騒の槍兵")
    p.combat(attacker=3, attacker_card=attacker, target=3, step="defend")
    m = p.build()
    assert c.Block(line=3) in m.legal(2)
    envs = defend(m, c.Block(line=3))
    assert one(envs, ev.DefenseFixed).event == ev.DefenseFixed(line=3, card=newcomer, decision=envs[0].seq)


def test_W_12_7_moving_combat_unit_out_of_range_does_not_cancel():
    """Seed example: attacker (AGI 1) declared from spot 1 on spot 1, blocker (AGI 1) from spot 2;
    both have since moved out of range (attacker to 3, blocker to 5). The combat goes on unchanged."""
    p = _battle()
    attacker = p.unit(1, 3, "紅蓮の剣士", broken=True)
    blocker = p.unit(2, 5, "潮騒の槍兵", broken=True)
    _fixed(p, attacker, blocker, target=1, a_line=1, d_line=2)
    m = p.build()
    draft = draft_on(m)
    combat.resolve(draft, m.seq)
    damage = [e.event for e in of(draft.envelopes, ev.CombatDamage)]
    assert damage == [ev.CombatDamage(seat=2, line=5, card=blocker, amount=3, STR=3, DEF=0),
                      ev.CombatDamage(seat=1, line=3, card=attacker, amount=2, STR=2, DEF=0)]
    assert of(draft.envelopes, ev.CombatEnded) == []
    assert blocker in draft.state.side(2).soul and attacker in draft.state.side(1).soul


def test_W_12_7_moved_attacker_still_hits_the_declared_player():
    p = _battle()
    attacker = p.unit(1, 5, "紅蓮の剣士", broken=True)     # declared from spot 1, now on spot 5
    _fixed(p, attacker, None, target=1, a_line=1, d_line=None)
    m = p.build()
    draft = draft_on(m)
    combat.resolve(draft, m.seq)
    assert one(draft.envelopes, ev.PlayerAttacked).event == ev.PlayerAttacked(seat=2, STR=3)


def test_W_12_7_moved_attacker_is_still_the_attacker_for_evade():
    """Before the defense declaration the attacker has moved (as a reaction may do): evade compares
    with its AGI where it stands now."""
    p = _battle()
    attacker = p.unit(1, 2, "炎獄の番犬", broken=True)     # AGI 2; declared from spot 3
    p.unit(2, 3, "潮騒の槍兵")                             # AGI 1
    p.combat(attacker=3, attacker_card=attacker, target=3, step="defend")
    m = p.build()
    assert m.legal(2) == [c.Block(line=3), c.NoDefense()]
    illegal(m, 2, c.Evade(), "W-12.4")


# -- W-12.8 end processing ---------------------------------------------------------------------
def test_W_12_8_end_processing_destroys_then_the_turn_player_may_attack_again():
    p = _battle()
    p.unit(1, 3, "紅蓮の剣士")
    p.unit(1, 4, "ディプテラ")
    victim = p.unit(2, 3, "水妖ウンディーネ")       # VIT 2
    m = _attack(p, 3, 3)
    envs = defend(m, c.NoDefense())
    ended = envs[-1]
    assert (ended.clause, ended.event) == ("W-12.8", ev.CombatEnded(reason="combat resolved"))
    assert ended.cause == [e for e in envs if e.kind == "decision"][-1].seq   # the pass that closed window 2
    assert victim in m.state.side(2).soul and m.state.combat is None
    assert m.deciding == 1
    assert [cmd for cmd in m.legal(1) if isinstance(cmd, c.Attack)] == [c.Attack(line=4)]
    illegal(m, 1, c.Attack(line=3), "W-12.1")      # the first attacker is broken now
    m.submit(1, c.Attack(line=4))
    assert m.state.combat.attacker == 4
