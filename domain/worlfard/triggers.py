"""Triggered skills: queued in order of occurrence, resolved one by one (W-2.5, W-13.2, W-Q8).

A trigger whose skill has a target, or is optional (できる), waits for its controller's choice;
one with no correct target does nothing (W-Q18).
"""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import events as ev
from .cards import definition
from .draft import WDraft
from .firing import TRIGGER_CLAUSE
from .ops import Context, apply_skill, resolve_spell
from .skills import Skill
from .state import Choice, State, Trigger
from .targets import options, still_correct


def _skills(state: State, card: int) -> tuple[Skill, ...]:
    return definition(state, card).skill


@implements("W-2.4", "W-10.3", "W-13.2", "W-Q8", "W-Q18")
def process_next(draft: WDraft, cause: int) -> None:
    """Resolve the oldest waiting trigger, or stop to wait for its controller's choice."""
    state = draft.state
    trigger = state.queue[0]
    skill = _skills(state, trigger.card)[trigger.skill]
    if not _condition_holds(state, trigger, skill):
        draft.rule("W-2.4", cause, ev.SkillFizzled(seat=trigger.seat, card=trigger.card, skill=trigger.skill,
                                                    reason="its condition does not hold", queued=True))
        return
    if skill.target is not None:
        opts = tuple(options(state, skill, trigger.seat, trigger.card))
        if not opts:
            draft.rule("W-Q18", cause, ev.SkillFizzled(seat=trigger.seat, card=trigger.card, skill=trigger.skill,
                                                        reason="no correct target", queued=True))
            if trigger.spell_line:   # an instant cast that found no target leaves the table (W-10.4)
                draft.rule("W-10.3", cause, ev.CardMoved(card=trigger.card, src="table", dst="grave",
                                                         seat=trigger.seat, line=trigger.spell_line))
            return
        draft.rule("W-2.4", cause, ev.ChoiceAwaited(choice=Choice(seat=trigger.seat, trigger=trigger, options=opts,
                                                                  optional=skill.optional)))
        return
    if skill.optional:
        draft.rule("W-2.5", cause, ev.ChoiceAwaited(choice=Choice(seat=trigger.seat, trigger=trigger, optional=True)))
        return
    started = draft.rule(TRIGGER_CLAUSE.get(skill.when or "", "W-2.5"), cause, ev.TriggerResolves(trigger=trigger))
    resolve_trigger(draft, trigger, (), started)


def _condition_holds(state: State, trigger: Trigger, skill: Skill) -> bool:
    cond = skill.condition
    if cond is None:
        return True
    if cond.souls_at_least is not None and len(state.side(trigger.seat).soul) < cond.souls_at_least:
        return False
    return True


def resolve_trigger(draft: WDraft, trigger: Trigger, targets: tuple[int, ...], cause: int) -> None:
    if trigger.spell_line:   # an instantly cast spell (W-10.5) resolves from its table spot
        resolve_spell(draft, trigger.seat, trigger.spell_line, cause, targets)
        return
    skill = _skills(draft.state, trigger.card)[trigger.skill]
    ctx = Context(seat=trigger.seat, card=trigger.card, skill=skill, skill_index=trigger.skill, targets=targets,
                  line=trigger.line, other=trigger.other, clause=TRIGGER_CLAUSE.get(skill.when or "", "W-2.5"))
    apply_skill(draft, ctx, cause)
    if draft.state.outcome is None:
        draft.rule(ctx.clause, cause, ev.SkillResolved(seat=trigger.seat, card=trigger.card, skill=trigger.skill,
                                                       targets=targets))


@implements("W-2.4", "W-10.4")
def choose(draft: WDraft, seat: int, targets: tuple[int, ...]) -> None:
    """The controller's answer to a waiting choice: targets (or, for できる with no target, yes)."""
    choice = draft.state.choice
    if choice is None:
        raise Illegal("W-2.4", "no skill is waiting for a choice")
    if choice.options:
        if len(targets) != 1 or targets[0] not in choice.options:
            raise Illegal("W-10.4", f"{list(targets)} is not a correct target; choose one of {list(choice.options)}")
    elif targets:
        raise Illegal("W-2.5", "this skill takes no target: choose with no targets to use it")
    chosen = draft.decision(seat, ev.TargetsChosen(seat=seat, targets=targets), clause="W-2.4")
    skill = _skills(draft.state, choice.trigger.card)[choice.trigger.skill]
    if not still_correct(draft.state, skill, seat, choice.trigger.card, targets) and skill.target is not None:
        draft.rule("W-10.4", chosen, ev.SkillFizzled(seat=seat, card=choice.trigger.card, skill=choice.trigger.skill,
                                                      reason="its target is no longer correct"))
        return
    resolve_trigger(draft, choice.trigger, targets, chosen)


def decline(draft: WDraft, seat: int) -> None:
    choice = draft.state.choice
    if choice is None or not choice.optional:
        raise Illegal("W-2.5", "only an optional skill (できる) can be declined")
    draft.decision(seat, ev.SkillDeclined(seat=seat), clause="W-2.5")
