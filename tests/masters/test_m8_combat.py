"""M-8 combat: the seed's combat section as tests (its worked rules, one by one)."""
from __future__ import annotations

from kifu.domain.masters import events as ev

from .scenario import Pos, c, illegal, kinds, of, sq


def attack(p: Pos, piece: int, *path: str):
    return p.do(1, c.Move(piece=piece, path=tuple(path)))


def test_M_8_1_combat_begins_at_once_and_priority_passes_to_the_defender():
    p = Pos().phase("action")
    a = p.piece(1, "剣士", "c3")
    p.piece(2, "槍兵", "c4")
    attack(p, a, "c4")
    assert p.state.combat is not None and p.state.priority.holder == 2
    illegal(p, 1, c.Pass(), "M-8.1")
    assert kinds(p.do(2, c.Pass())) == ["PriorityPassed"]
    assert p.state.combat is not None            # one pass is not enough


def test_M_8_1_combat_avoidance_while_the_defender_has_priority():
    p = Pos().phase("action").mana(2, 1)
    a = p.piece(1, "剣士", "c3")
    ninja = p.piece(2, "霧隠れの忍", "c4")
    attack(p, a, "c4")
    envs = p.do(2, c.Activate(card=ninja))
    assert envs[0].clause == "M-5.4" and p.state.priority.holder == 1     # M-2.1: the attacker may respond
    envs = p.passes()
    avoided = of(envs, ev.CombatAvoided)[0]
    assert avoided.clause == "M-8.1" and avoided.event.square == "c3"
    assert p.state.combat is None and not of(envs, ev.CombatDamage)
    assert p.state.piece(a).square == sq("c3") and p.state.piece(a).tapped
    assert p.state.piece(ninja).damage == 0
    assert p.state.priority.holder == 1                        # the combat is over: the active master again


def test_M_8_2_final_damage_is_atk_after_reductions_and_destroys_at_hp_0():
    p = Pos().phase("action")
    a = p.piece(1, "剣士", "c3")                  # ATK 3
    d = p.piece(2, "重装兵", "c4")                # HP 4, armor 1
    attack(p, a, "c4")
    envs = p.passes()
    dmg = of(envs, ev.CombatDamage)[0]
    assert dmg.event.dealt == 2 and p.state.piece(d).damage == 2
    q = Pos().phase("action")
    a = q.piece(1, "剣士", "c3")
    d = q.piece(2, "槍兵", "c4", damage=0)        # HP 2 <= 3
    attack(q, a, "c4")
    envs = q.passes()
    destroyed = of(envs, ev.PieceDestroyed)
    assert [e.event.card for e in destroyed] == [d] and destroyed[0].clause == "M-8.2"


def test_M_8_3_a_destroyed_defender_is_removed_and_the_attacker_completes_its_move():
    p = Pos().phase("action")
    a = p.piece(1, "騎兵", "a3")                  # MOV 3
    d = p.piece(2, "斥候", "c4")
    attack(p, a, "b3", "b4", "c4")
    assert p.state.piece(a).square == sq("b4")     # until the kill it stands on the square before
    assert p.state.combat.origin == sq("a3") and p.state.combat.before == sq("b4")
    envs = p.passes()
    done = of(envs, ev.MoveCompleted)[0]
    assert done.clause == "M-8.3" and p.state.piece(a).square == sq("c4") and p.state.piece(d) is None
    assert p.state.piece(a).tapped


def test_M_8_4_a_surviving_defender_stops_the_attacker_on_the_previous_square_of_its_path():
    p = Pos().phase("action")
    a = p.piece(1, "斥候", "a3")                  # MOV 2, ATK 1
    d = p.piece(2, "石壁の番人", "b4")            # HP 4, MOV 0: no counter
    attack(p, a, "a4", "b4")
    envs = p.passes()
    stop = of(envs, ev.AttackStopped)[0]
    assert stop.clause == "M-8.4" and stop.event.square == "a4"
    assert p.state.piece(a).square == sq("a4") and p.state.piece(a).tapped and p.state.piece(d).damage == 1
    illegal(p, 1, c.Move(piece=a, path=("a5",)), "M-5.2")


def test_M_8_5_a_counter_attack_is_simultaneous_and_both_pieces_can_die():
    p = Pos().phase("action")
    a = p.piece(1, "剣士", "c3")                  # ATK 3 HP 3
    d = p.piece(2, "剣士", "c4")
    attack(p, a, "c4")
    envs = p.passes()
    dmg = of(envs, ev.CombatDamage)[0]
    assert dmg.clause == "M-8.5" and dmg.event.countered and dmg.event.dealt == dmg.event.taken == 3
    destroyed = of(envs, ev.PieceDestroyed)
    assert sorted(e.event.card for e in destroyed) == sorted((a, d))
    assert [e.clause for e in destroyed] == ["M-8.2", "M-8.5"]
    assert {e.cause for e in destroyed} == {dmg.seq}          # one cause: the combat damage
    assert of(envs, ev.CombatEnded) and p.state.combat is None


def test_M_8_5_a_defender_that_kills_the_attacker_does_not_move():
    p = Pos().phase("action")
    a = p.piece(1, "斥候", "c3")                  # HP 1
    d = p.piece(2, "重装兵", "c4")
    attack(p, a, "c4")
    envs = p.passes()
    assert of(envs, ev.PieceDestroyed)[0].event.card == a and of(envs, ev.CombatEnded)[0].clause == "M-8.5"
    assert p.state.piece(d).square == sq("c4")


def test_M_8_5_a_piece_that_cannot_reach_the_attacker_takes_damage_one_sidedly():
    p = Pos().phase("action")
    a = p.piece(1, "槍兵", "c3")
    p.piece(2, "石壁の番人", "c4")                # MOV 0
    attack(p, a, "c4")
    dmg = of(p.passes(), ev.CombatDamage)[0]
    assert not dmg.event.countered and dmg.event.taken == 0 and dmg.clause == "M-8.2"
    assert p.state.piece(a).damage == 0


def test_M_8_6_skills_during_combat_and_a_defender_destroyed_before_damage_completes_the_move():
    p = Pos().phase("action").mana(1, 1)
    a = p.piece(1, "剣士", "c3")
    mage = p.piece(1, "火の術士", "a1")
    d = p.piece(2, "斥候", "c4")
    attack(p, a, "c4")
    p.do(2, c.Pass())
    p.do(1, c.Activate(card=mage, target="c4"))   # the attacker's side holds priority now
    envs = p.passes()
    assert of(envs, ev.PieceDestroyed)[0].event.card == d
    envs = p.passes()
    done = of(envs, ev.MoveCompleted)[0]
    assert done.clause == "M-8.6" and p.state.piece(a).square == sq("c4") and not of(envs, ev.CombatDamage)


def test_M_8_6_an_attacker_destroyed_before_damage_ends_the_combat():
    p = Pos().phase("action").mana(2, 1)
    a = p.piece(1, "斥候", "c3")
    mage = p.piece(2, "火の術士", "e5")
    p.piece(2, "剣士", "c4")
    attack(p, a, "c4")
    p.do(2, c.Activate(card=mage, target="c3"))
    p.do(1, c.Pass())
    p.do(2, c.Pass())
    envs = p.passes()
    ended = of(envs, ev.CombatEnded)[0]
    assert ended.clause == "M-8.6" and p.state.combat is None


def test_M_5_2_an_attacker_is_tapped_once_its_move_completes_not_when_the_combat_begins():
    """移動(攻撃)を行ったピースはタップされます, and 実際にピースが破壊され移動が完了するまでは攻撃ピース
    は移動したことにはなりません: during its combat the attacker has not moved yet, so it is untapped
    and may pay its own tap-cost skill; the completed (or cancelled, M-8.4) move taps it."""
    p = Pos().phase("action").mana(1, 1)
    fire = p.piece(1, "火の術士", "c3")                 # ATK 1, its skill: (mana 1, tap) 1 damage
    scout = p.piece(2, "剣士", "c4")                   # HP 3
    attack(p, fire, "c4")
    assert not p.state.piece(fire).tapped
    p.do(2, c.Pass())                                   # the defender first (M-8.1)
    envs = p.do(1, c.Activate(card=fire, target="c4"))
    assert envs[0].event.tapped and p.state.piece(fire).tapped
    p.passes()                                          # the skill resolves: 1 damage
    envs = p.passes()                                   # the damage: 1 more, 剣士 survives and counters
    assert of(envs, ev.AttackStopped) or of(envs, ev.CombatEnded)
    assert p.state.piece(scout).damage == 2
    q = Pos().phase("action")
    a = q.piece(1, "剣士", "c3")
    q.piece(2, "石壁の番人", "c4")
    attack(q, a, "c4")
    assert not q.state.piece(a).tapped
    envs = q.passes()
    assert of(envs, ev.AttackStopped)[0].clause == "M-8.4" and q.state.piece(a).tapped
