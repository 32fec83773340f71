"""Combat (W-12): declarations, defense, damage, end processing, and when combat stops early.

A combat moves through steps — attack, target, react1, defend, defended, react2, damage, after —
and ``flow.advance`` carries it through the automatic ones; a step that needs a player stops.
"""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import events as ev
from .checks import settle
from .draft import WDraft
from .field import all_negated, has, keywords
from .firing import fire
from .geometry import distance, lines
from .ops import damage_player
from .skills import assault_bonus
from .state import Combat, Effect, State
from .stats import definition, unit_stat, unit_stats
from .targets import unit_line
from .vocabulary import Phase, Status, other

DEFENSE = "防衛"


@implements("W-3.2", "W-9.1", "W-12.1")
def attack(draft: WDraft, seat: int, line: int) -> None:
    state = draft.state
    if state.phase != Phase.BATTLE:
        raise Illegal("W-12.1", f"attacks are declared in the battle phase, not in {state.phase}")
    if state.combat is not None:
        raise Illegal("W-12.1", "a combat is already under way")
    if line not in lines():
        raise Illegal("W-3.2", f"there is no line {line}")
    unit = state.sides[seat - 1].stage[line - 1]
    if unit is None:
        raise Illegal("W-12.1", f"there is no unit of seat {seat} on line {line}")
    if unit.broken:
        raise Illegal("W-12.1", "only a ready unit can attack")
    if unit.status == Status.SLEEP:
        raise Illegal("W-9.1", "a sleeping unit cannot attack")
    if unit_stat(state, seat, line, "AGI") < 1:
        raise Illegal("W-12.1", "a unit with AGI 0 cannot attack")
    bonus = assault_bonus(keywords(state, seat, line))
    declared = draft.decision(seat, ev.AttackDeclared(seat=seat, line=line, card=unit.card), clause="W-12.1")
    if bonus:   # W-Q4 強襲:N, distinct parameters stacking (W-2.7)
        draft.rule("W-2.7", declared, ev.EffectAdded(effect=Effect(
            id=draft.next_seq, target=unit.card, op="add", stat="STR", value=bonus, until="combat",
            skill="強襲", source=unit.card)))
    fire(draft, seat, unit.card, "attack", declared, line=line)


def attacker_line(state: State) -> int | None:
    combat = state.combat
    if combat is None:
        return None
    where = unit_line(state, combat.attacker_card)
    return where[1] if where is not None and where[0] == state.turn_seat else None


@implements("W-12.2")
def targets(state: State) -> list[tuple[int, int]]:
    """(line, distance) of every enemy stage spot within the attacker's AGI (W-12.2)."""
    a_line = attacker_line(state)
    if a_line is None:
        return []
    agi = unit_stat(state, state.turn_seat, a_line, "AGI")
    return [(t, d) for t in lines() if (d := distance(a_line, t, across=True)) <= agi]


@implements("W-3.2", "W-12.2", "W-12.3")
def target(draft: WDraft, seat: int, line: int) -> None:
    state = draft.state
    combat = state.combat
    if combat is None or combat.step != "target":
        raise Illegal("W-12.2", "a target is declared right after an attack declaration")
    if line not in lines():
        raise Illegal("W-3.2", f"there is no line {line}")
    a_line = attacker_line(state)
    assert a_line is not None
    agi = unit_stat(state, seat, a_line, "AGI")
    d = distance(a_line, line, across=True)
    if d > agi:
        raise Illegal("W-12.2", f"enemy spot {line} is at distance {d}, beyond the attacker's AGI {agi}")
    declared = draft.decision(seat, ev.TargetDeclared(seat=seat, line=line, distance=d, agi=agi), clause="W-12.2")
    draft.rule("W-12.2", declared, ev.UnitBroken(seat=seat, line=a_line))
    draft.rule("W-12.3", declared, ev.CombatStep(step="react1"))


@implements("W-12.4", "W-Q4")
def blockers(state: State) -> list[tuple[int, int, int]]:
    """(line, distance, AGI) of every unit that may block (W-12.4(a); 防衛 per W-Q4)."""
    combat = state.combat
    if combat is None or combat.step != "defend" or combat.target is None:
        return []
    seat = other(state.turn_seat)
    out = []
    for index, unit in enumerate(state.side(seat).stage):
        if unit is None or unit.broken or unit.status == Status.SLEEP:
            continue
        line = index + 1
        agi = unit_stat(state, seat, line, "AGI")
        d = distance(line, combat.target, across=False)
        # its skills only when the AGI alone does not reach the target spot
        if (agi >= 1 and d <= agi) or has(state, seat, line, DEFENSE):
            out.append((line, d, agi))
    return out


@implements("W-12.4")
def evader(state: State) -> tuple[int, int, int] | None:
    """(line, AGI, attacker AGI) if the unit on the target spot may evade (W-12.4(b))."""
    combat = state.combat
    if combat is None or combat.step != "defend" or combat.target is None:
        return None
    seat = other(state.turn_seat)
    unit = state.side(seat).stage[combat.target - 1]
    if unit is None or unit.broken or unit.status in (Status.SLEEP, Status.RAGE):
        return None
    agi = unit_stat(state, seat, combat.target, "AGI")
    a_line = attacker_line(state)
    attacker_agi = unit_stat(state, state.turn_seat, a_line, "AGI") if a_line is not None else 0
    return (combat.target, agi, attacker_agi) if agi >= attacker_agi else None


@implements("W-12.4")
def _require_defense(state: State) -> Combat:
    combat = state.combat
    if combat is None or combat.step != "defend":
        raise Illegal("W-12.4", "there is no attack waiting for a defense declaration")
    return combat


@implements("W-9.1", "W-12.4")
def block(draft: WDraft, seat: int, line: int) -> None:
    combat = _require_defense(draft.state)
    found = next((b for b in blockers(draft.state) if b[0] == line), None)
    if found is None:
        unit = draft.state.sides[seat - 1].stage[line - 1] if line in lines() else None
        if unit is None:
            raise Illegal("W-12.4", f"there is no unit of seat {seat} on line {line}")
        if unit.status == Status.SLEEP:
            raise Illegal("W-9.1", "a sleeping unit cannot block")
        if unit.broken:
            raise Illegal("W-12.4", "only a ready unit can block")
        agi = unit_stats(draft.state, seat, line).AGI
        d = distance(line, combat.target or 0, across=False)
        raise Illegal("W-12.4", f"the unit on line {line} has AGI {agi}; the target spot {combat.target} is at "
                                f"distance {d}" + (" and AGI 0 cannot block" if agi == 0 else ""))
    declared = draft.decision(seat, ev.BlockDeclared(seat=seat, line=line, distance=found[1], agi=found[2]),
                              clause="W-12.4")
    unit = draft.state.sides[seat - 1].stage[line - 1]
    assert unit is not None
    _fix_defender(draft, declared, line, unit.card, combat.attacker_card)


@implements("W-9.1", "W-9.5", "W-12.4")
def evade(draft: WDraft, seat: int) -> None:
    combat = _require_defense(draft.state)
    assert combat.target is not None
    occupant = draft.state.sides[seat - 1].stage[combat.target - 1]
    if occupant is not None and occupant.status == Status.SLEEP:
        raise Illegal("W-9.1", "a sleeping unit cannot evade")
    if occupant is not None and occupant.status == Status.RAGE:
        raise Illegal("W-9.5", "a raging unit cannot evade")
    ok = evader(draft.state)
    if ok is None:
        raise Illegal("W-12.4", f"no ready, awake unit on the target spot {combat.target} with AGI at least the "
                                "attacker's can evade")
    line, agi, attacker_agi = ok
    declared = draft.decision(seat, ev.EvadeDeclared(seat=seat, line=line, agi=agi, attacker_agi=attacker_agi),
                              clause="W-12.4")
    draft.rule("W-12.4", declared, ev.UnitBroken(seat=seat, line=line))
    draft.rule("W-12.4", declared, ev.DefenseFixed(on_player=True, decision=declared))
    draft.rule("W-12.4", declared, ev.CombatStep(step="defended"))


def no_defense(draft: WDraft, seat: int) -> None:
    combat = _require_defense(draft.state)
    declared = draft.decision(seat, ev.NoDefenseDeclared(seat=seat), clause="W-12.4")
    assert combat.target is not None
    unit = draft.state.sides[seat - 1].stage[combat.target - 1]
    if unit is not None:
        _fix_defender(draft, declared, combat.target, unit.card, combat.attacker_card)
    else:
        draft.rule("W-12.4", declared, ev.DefenseFixed(on_player=True, decision=declared))
        draft.rule("W-12.4", declared, ev.CombatStep(step="defended"))


def _fix_defender(draft: WDraft, cause: int, line: int, card: int, attacker: int) -> None:
    draft.rule("W-12.4", cause, ev.DefenseFixed(line=line, card=card, decision=cause))
    fire(draft, other(draft.state.turn_seat), card, "defend", cause, line=line, other=attacker)
    draft.rule("W-12.4", cause, ev.CombatStep(step="defended"))


@implements("W-12.4", "W-12.5")
def defender_breaks(draft: WDraft, cause: int) -> None:
    """W-12.4: after on-defense skills, the defending unit breaks; then reaction window 2."""
    combat = draft.state.combat
    assert combat is not None
    if combat.defender_card is not None:
        where = unit_line(draft.state, combat.defender_card)
        if where is not None:
            unit = draft.state.side(where[0]).stage[where[1] - 1]
            if unit is not None and not unit.broken:
                draft.rule("W-12.4", cause, ev.UnitBroken(seat=where[0], line=where[1]))
    draft.rule("W-12.5", cause, ev.CombatStep(step="react2"))


@implements("W-12.7")
def left_field(state: State) -> str | None:
    """W-12.7: the combat stops if a combat unit is no longer on the field."""
    combat = state.combat
    if combat is None:
        return None
    if unit_line(state, combat.attacker_card) is None:
        return "the attacking unit left the field"
    if combat.defender_card is not None and unit_line(state, combat.defender_card) is None:
        return "the defending unit left the field"
    return None


@implements("W-12.6", "W-12.7", "W-12.8")
def resolve(draft: WDraft, cause: int) -> None:
    """W-12.6 damage, then W-12.8 end processing: destruction, then after-combat skills."""
    state = draft.state
    combat = state.combat
    assert combat is not None
    reason = left_field(state)
    if reason is not None:
        end_combat(draft, cause, reason, clause="W-12.7")
        return
    a_seat, a_line = unit_line(state, combat.attacker_card) or (state.turn_seat, combat.attacker)
    a_str = unit_stat(state, a_seat, a_line, "STR")
    if combat.on_player:
        hit = draft.rule("W-12.6", cause, ev.PlayerAttacked(seat=other(state.turn_seat), STR=a_str))
        damage_player(draft, other(state.turn_seat), a_str, hit)
    else:
        assert combat.defender_card is not None
        d_seat, d_line = unit_line(state, combat.defender_card) or (other(state.turn_seat), combat.defender or 0)
        d_str, d_def, a_def = (unit_stat(state, d_seat, d_line, "STR"), unit_stat(state, d_seat, d_line, "DEF"),
                               unit_stat(state, a_seat, a_line, "DEF"))
        # both amounts are fixed before either is dealt: the damage is simultaneous (W-12.6)
        blows = [(d_seat, d_line, a_str, d_def, _prevented(state, d_seat, d_line, a_seat, a_line)),
                 (a_seat, a_line, d_str, a_def, _prevented(state, a_seat, a_line, d_seat, d_line))]
        hits = []
        for seat, line, strength, defense, prevented in blows:
            card = _card_on(state, seat, line)
            if prevented is not None:
                hits.append(draft.rule("W-1.2", cause, ev.DamagePrevented(seat=seat, line=line, card=card,
                                                                          reason=prevented)))
            else:
                hits.append(draft.rule("W-12.6", cause, ev.CombatDamage(
                    seat=seat, line=line, card=card, amount=combat_damage(strength, defense), STR=strength,
                    DEF=defense)))
        settle(draft, hits[0])
    if draft.state.outcome is not None:
        return
    # W-12.8: "after combat" skills; "after combat ends" only for a unit that survived
    for fighter, opponent, seat in ((combat.attacker_card, combat.defender_card, state.turn_seat),
                                    (combat.defender_card, combat.attacker_card, other(state.turn_seat))):
        if fighter is None:
            continue
        fire(draft, seat, fighter, "after_combat", cause, other=opponent or 0)
        if unit_line(draft.state, fighter) is not None:
            fire(draft, seat, fighter, "after_combat_survived", cause, other=opponent or 0)
    draft.rule("W-12.8", cause, ev.CombatStep(step="after"))


def _card_on(state: State, seat: int, line: int) -> int:
    unit = state.sides[seat - 1].stage[line - 1]
    assert unit is not None, f"no unit of seat {seat} on line {line}"
    return unit.card


@implements("W-1.2")
def _prevented(state: State, seat: int, line: int, dealer_seat: int, dealer_line: int) -> str | None:
    """W-1.2: "戦闘によるダメージを受けない" of the unit on (seat, line) when its condition holds
    against the dealer's unit; `*` matches any value (W-2.6)."""
    if all_negated(state, seat, line):
        return None
    for skill in definition(state, _card_on(state, seat, line)).skill:
        cond = skill.condition
        if any(op.op == "no_combat_damage" for op in skill.ops) and cond is not None and cond.opponent_has:
            if has(state, dealer_seat, dealer_line, cond.opponent_has):
                return f"the opponent's combat unit has 『{cond.opponent_has}』"
    return None


@implements("W-12.6")
def combat_damage(strength: int, defense: int) -> int:
    """W-12.6: STR reduced by DEF (a negative DEF increases it), never below 0."""
    return max(0, strength - defense)


@implements("W-9.5", "W-12.8", "W-14.1", "W-Q9")
def end_combat(draft: WDraft, cause: int, reason: str, clause: str = "W-12.8") -> None:
    """The combat ends: "until end of combat" effects end; rage on a combat unit ends (W-Q9)."""
    state = draft.state
    combat = state.combat
    assert combat is not None
    ended = draft.rule(clause, cause, ev.CombatEnded(reason=reason))
    ids = tuple(e.id for e in draft.state.effects if e.until == "combat")
    if ids:
        draft.rule("W-14.1", ended, ev.EffectsEnded(ids=ids, reason="end of combat"))
    for card in (combat.attacker_card, combat.defender_card):
        if card is None:
            continue
        where = unit_line(draft.state, card)
        if where is not None:
            unit = draft.state.side(where[0]).stage[where[1] - 1]
            if unit is not None and unit.status == Status.RAGE:
                draft.rule("W-9.5", ended, ev.StatusRemoved(seat=where[0], line=where[1], status=Status.RAGE))
