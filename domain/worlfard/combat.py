"""Combat (W-12): declarations, defense, damage, end processing, and when combat stops early."""
from __future__ import annotations

from domain.core.errors import Illegal

from . import events as ev
from .checks import settle
from .draft import WDraft
from .geometry import distance, lines
from .state import Combat, State
from .stats import unit_stats
from .vocabulary import Phase, Status, other


def attack(draft: WDraft, seat: int, line: int) -> None:
    state = draft.state
    if state.phase != Phase.BATTLE:
        raise Illegal("W-12.1", f"attacks are declared in the battle phase, not in {state.phase.value}")
    if state.combat is not None:
        raise Illegal("W-12.1", "a combat is already under way")
    if line not in lines():
        raise Illegal("W-3.2", f"there is no line {line}")
    unit = state.side(seat).stage[line - 1]
    if unit is None:
        raise Illegal("W-12.1", f"there is no unit of seat {seat} on line {line}")
    if unit.broken:
        raise Illegal("W-12.1", "only a ready unit can attack")
    if unit.status == Status.SLEEP:
        raise Illegal("W-9.1", "a sleeping unit cannot attack")
    if unit_stats(state, seat, line).AGI < 1:
        raise Illegal("W-12.1", "a unit with AGI 0 cannot attack")
    declared = draft.decision(seat, ev.AttackDeclared(seat=seat, line=line, card=unit.card), clause="W-12.1")
    if not targets(draft.state):  # W-Q11: nothing in range any more (after on-attack effects)
        draft.rule("W-12.2", declared, ev.UnitBroken(seat=seat, line=line))
        draft.rule("W-12.2", declared, ev.CombatEnded(reason="no stage spot within the attacker's AGI (W-Q11)"))


def targets(state: State) -> list[tuple[int, int]]:
    """(line, distance) of every enemy stage spot within the attacker's AGI (W-12.2)."""
    combat = state.combat
    if combat is None:
        return []
    agi = unit_stats(state, state.turn_seat, combat.attacker).AGI
    out = []
    for target in lines():
        d = distance(combat.attacker, target, across=True)
        if d <= agi:
            out.append((target, d))
    return out


def target(draft: WDraft, seat: int, line: int) -> None:
    state = draft.state
    combat = state.combat
    if combat is None or combat.target is not None:
        raise Illegal("W-12.2", "a target is declared right after an attack declaration")
    if line not in lines():
        raise Illegal("W-3.2", f"there is no line {line}")
    agi = unit_stats(state, seat, combat.attacker).AGI
    d = distance(combat.attacker, line, across=True)
    if d > agi:
        raise Illegal("W-12.2", f"enemy spot {line} is at distance {d}, beyond the attacker's AGI {agi}")
    declared = draft.decision(seat, ev.TargetDeclared(seat=seat, line=line, distance=d, agi=agi), clause="W-12.2")
    draft.rule("W-12.2", declared, ev.UnitBroken(seat=seat, line=combat.attacker))


def blockers(state: State) -> list[tuple[int, int, int]]:
    """(line, distance, AGI) of every unit that may block (W-12.4(a))."""
    combat = state.combat
    if combat is None or combat.target is None:
        return []
    seat = other(state.turn_seat)
    out = []
    for index, unit in enumerate(state.side(seat).stage):
        if unit is None or unit.broken or unit.status == Status.SLEEP:
            continue
        line = index + 1
        agi = unit_stats(state, seat, line).AGI
        d = distance(line, combat.target, across=False)
        if agi >= 1 and d <= agi:
            out.append((line, d, agi))
    return out


def evader(state: State) -> tuple[int, int, int] | None:
    """(line, AGI, attacker AGI) if the unit on the target spot may evade (W-12.4(b))."""
    combat = state.combat
    if combat is None or combat.target is None:
        return None
    seat = other(state.turn_seat)
    unit = state.side(seat).stage[combat.target - 1]
    if unit is None or unit.broken or unit.status == Status.SLEEP:
        return None
    agi = unit_stats(state, seat, combat.target).AGI
    attacker_agi = unit_stats(state, state.turn_seat, combat.attacker).AGI if _on_field(state, state.turn_seat, combat.attacker_card) else 0
    return (combat.target, agi, attacker_agi) if agi >= attacker_agi else None


def _require_defense(state: State) -> Combat:
    combat = state.combat
    if combat is None or combat.target is None or combat.defended:
        raise Illegal("W-12.4", "there is no attack waiting for a defense declaration")
    return combat


def block(draft: WDraft, seat: int, line: int) -> None:
    combat = _require_defense(draft.state)
    match = next((b for b in blockers(draft.state) if b[0] == line), None)
    if match is None:
        unit = draft.state.side(seat).stage[line - 1] if line in lines() else None
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
    declared = draft.decision(seat, ev.BlockDeclared(seat=seat, line=line, distance=match[1], agi=match[2]),
                              clause="W-12.4")
    unit = draft.state.side(seat).stage[line - 1]
    assert unit is not None
    draft.rule("W-12.4", declared, ev.DefenseFixed(line=line, card=unit.card))
    _defender_breaks(draft, declared)


def evade(draft: WDraft, seat: int) -> None:
    combat = _require_defense(draft.state)
    ok = evader(draft.state)
    if ok is None:
        raise Illegal("W-12.4", f"no ready, awake unit on the target spot {combat.target} with AGI at least the "
                                "attacker's can evade")
    line, agi, attacker_agi = ok
    declared = draft.decision(seat, ev.EvadeDeclared(seat=seat, line=line, agi=agi, attacker_agi=attacker_agi),
                              clause="W-12.4")
    draft.rule("W-12.4", declared, ev.UnitBroken(seat=seat, line=line))
    draft.rule("W-12.4", declared, ev.DefenseFixed(on_player=True))
    resolve(draft, declared)


def no_defense(draft: WDraft, seat: int) -> None:
    combat = _require_defense(draft.state)
    declared = draft.decision(seat, ev.NoDefenseDeclared(seat=seat), clause="W-12.4")
    assert combat.target is not None
    unit = draft.state.side(seat).stage[combat.target - 1]
    if unit is not None:
        draft.rule("W-12.4", declared, ev.DefenseFixed(line=combat.target, card=unit.card))
        _defender_breaks(draft, declared)
    else:
        draft.rule("W-12.4", declared, ev.DefenseFixed(on_player=True))
        resolve(draft, declared)


def _defender_breaks(draft: WDraft, cause: int) -> None:
    combat = draft.state.combat
    assert combat is not None and combat.defender is not None
    seat = other(draft.state.turn_seat)
    unit = draft.state.side(seat).stage[combat.defender - 1]
    if unit is not None and not unit.broken:
        draft.rule("W-12.4", cause, ev.UnitBroken(seat=seat, line=combat.defender))
    resolve(draft, cause)


def _on_field(state: State, seat: int, card: int) -> int | None:
    """The line a combat unit stands on now, or None if it has left the field (W-12.7)."""
    for index, unit in enumerate(state.side(seat).stage):
        if unit is not None and unit.card == card:
            return index + 1
    return None


def resolve(draft: WDraft, cause: int) -> None:
    """W-12.6 damage and W-12.8 end processing, unless a combat unit has left (W-12.7)."""
    state = draft.state
    combat = state.combat
    assert combat is not None
    attacker_seat, defender_seat = state.turn_seat, other(state.turn_seat)
    a_line = _on_field(state, attacker_seat, combat.attacker_card)
    if a_line is None:
        draft.rule("W-12.7", cause, ev.CombatEnded(reason="the attacking unit left the field"))
        return
    if combat.on_player:
        a = unit_stats(state, attacker_seat, a_line)
        hit = draft.rule("W-12.6", cause, ev.PlayerAttacked(seat=defender_seat, STR=a.STR))
        damage_player(draft, defender_seat, a.STR, hit)
    else:
        assert combat.defender_card is not None
        d_line = _on_field(state, defender_seat, combat.defender_card)
        if d_line is None:
            draft.rule("W-12.7", cause, ev.CombatEnded(reason="the defending unit left the field"))
            return
        a = unit_stats(state, attacker_seat, a_line)
        d = unit_stats(state, defender_seat, d_line)
        to_defender = combat_damage(a.STR, d.DEF)
        to_attacker = combat_damage(d.STR, a.DEF)
        hit = draft.rule("W-12.6", cause, ev.CombatDamage(seat=defender_seat, line=d_line, card=combat.defender_card,
                                                           amount=to_defender, STR=a.STR, DEF=d.DEF))
        draft.rule("W-12.6", cause, ev.CombatDamage(seat=attacker_seat, line=a_line, card=combat.attacker_card,
                                                     amount=to_attacker, STR=d.STR, DEF=a.DEF))
        settle(draft, hit)
    if draft.state.outcome is None:
        draft.rule("W-12.8", cause, ev.CombatEnded(reason="combat resolved"))


def combat_damage(strength: int, defense: int) -> int:
    """W-12.6: STR reduced by DEF (a negative DEF increases it), never below 0."""
    return max(0, strength - defense)


def damage_player(draft: WDraft, seat: int, amount: int, cause: int) -> None:
    """W-11.2 with W-Q6: each ready heart absorbs 1 and breaks, from the bottom up; the rest is life."""
    if amount <= 0:
        return
    hearts = draft.state.side(seat).hearts
    ready = [i for i in range(len(hearts) - 1, -1, -1) if not hearts[i].broken]
    used = tuple(ready[:amount])
    if used:
        draft.rule("W-11.2", cause, ev.HeartsBroken(seat=seat, indexes=used))
    rest = amount - len(used)
    if rest > 0:
        life = draft.state.side(seat).life - rest
        lost = draft.rule("W-12.6", cause, ev.LifeLost(seat=seat, amount=rest, life=life))
        settle(draft, lost)
