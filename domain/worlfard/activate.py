"""Activated skills (!, W-2.5): the controller's own main phase, a ready source, paid costs."""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import events as ev
from .cards import definition
from .draft import WDraft
from .field import all_negated
from .main_phase import pay
from .ops import Context, apply_skill
from .payment import canonical_payment, check_payment
from .skills import Skill
from .state import State
from .targets import options
from .vocabulary import Phase, Status


def source_of(state: State, seat: int, card: int) -> tuple[str, int] | None:
    """("stage" | "table", line) where ``seat`` controls ``card``, or None."""
    side = state.side(seat)
    for i, unit in enumerate(side.stage):
        if unit is not None and unit.card == card:
            return "stage", i + 1
    for i, spell in enumerate(side.table):
        if spell is not None and spell.card == card and not spell.waiting:
            return "table", i + 1
    return None


@implements("W-2.5", "W-3.5", "W-9.1", "W-9.4", "W-9.5")
def why_not(state: State, seat: int, card: int, index: int) -> tuple[str, str] | None:
    """(clause, reason) if ``seat`` may not activate skill ``index`` of ``card`` now."""
    if state.phase not in (Phase.MAIN1, Phase.MAIN2) or state.turn_seat != seat or state.choice is not None:
        return "W-2.5", "activated skills are used in your own main phase"
    where = source_of(state, seat, card)
    if where is None:
        return "W-3.5", f"seat {seat} controls no card {card} on the stage or table"
    skills = definition(state, card).skill
    if not 0 <= index < len(skills) or skills[index].mark != "!":
        return "W-2.5", f"skill {index} of {state.name(card)} is not an activated (!) skill"
    zone, line = where
    if zone == "stage":
        unit = state.side(seat).stage[line - 1]
        assert unit is not None
        if unit.broken:
            return "W-2.5", "a broken card cannot activate skills"
        if unit.status == Status.SLEEP:
            return "W-9.1", "a sleeping unit cannot activate skills"
        if unit.status == Status.RAGE:
            return "W-9.5", "a raging unit cannot activate skills"
        if all_negated(state, seat, line):
            return "W-9.4", "this unit's skills are negated"
    else:
        spell = state.side(seat).table[line - 1]
        assert spell is not None
        if spell.broken:
            return "W-2.5", "a broken card cannot activate skills"
    return None


@implements("W-2.4", "W-2.5", "W-10.4")
def activate(draft: WDraft, seat: int, card: int, index: int, towers: tuple[int, ...], souls: tuple[int, ...],
             targets: tuple[int, ...]) -> None:
    state = draft.state
    problem = why_not(state, seat, card, index)
    if problem is not None:
        raise Illegal(*problem)
    skill: Skill = definition(state, card).skill[index]
    if skill.target is not None:
        valid = options(state, skill, seat, card)
        if not valid:
            raise Illegal("W-10.4", "the skill needs a target and none can be chosen")
        if len(targets) != skill.target.count or any(t not in valid for t in targets):
            raise Illegal("W-10.4", f"{list(targets)} is not a correct target; correct: {valid[:12]}")
    elif targets:
        raise Illegal("W-10.4", "this skill takes no target")
    towers, souls = canonical_payment(towers, souls)
    check_payment(state, seat, skill.cost, towers, souls)
    zone, line = source_of(state, seat, card) or ("stage", 0)
    used = draft.decision(seat, ev.SkillActivated(seat=seat, card=card, skill=index, towers=towers, souls=souls,
                                                  targets=targets), clause="W-2.5")
    if skill.cost:
        pay(draft, seat, skill.cost, towers, souls, used)
    if skill.cost_break:
        draft.rule("W-2.4", used, ev.UnitBroken(seat=seat, line=line) if zone == "stage"
                   else ev.SpellBroken(seat=seat, line=line))
    apply_skill(draft, Context(seat=seat, card=card, skill=skill, skill_index=index, targets=targets, line=line,
                               clause="W-2.5"), used)
    if draft.state.outcome is None:
        draft.rule("W-2.5", used, ev.SkillResolved(seat=seat, card=card, skill=index, targets=targets))
