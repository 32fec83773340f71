"""Firing triggered skills (W-2.5): a ・ skill whose timing comes is queued, in order of
occurrence, as a ``SkillTriggered`` event; ``triggers`` resolves the queue later.

Apart from ``triggers`` because the skill interpreter (``ops``) fires summon skills itself while
``triggers`` resolves skills through the interpreter: queuing sits below both.
"""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.memo import Memo

from . import events as ev
from .cards import CardDef, definition
from .draft import WDraft
from .field import all_negated
from .state import State, Trigger
from .targets import unit_line

TRIGGER_CLAUSE = {
    "summon": "W-2.5", "attack": "W-12.1", "defend": "W-12.4", "after_combat": "W-12.8",
    "after_combat_survived": "W-12.8", "start_phase": "W-11.5",
}


@implements("W-9.4", "W-14.6")
def unit_skill_active(state: State, card: int) -> bool:
    """A cursed unit's skills are all negated (W-9.4, W-14.6)."""
    where = unit_line(state, card)
    if where is None:
        return True   # fired as it left (after combat): its text still resolves
    return not all_negated(state, *where)


@implements("W-2.5", "W-Q8")
def fire(draft: WDraft, seat: int, card: int, when: str, cause: int, line: int = 0, other: int = 0,
         zone: str = "stage") -> None:
    """Queue every ``when`` skill of ``card`` (controlled by ``seat``)."""
    state = draft.state
    firing = _firing(definition(state, card), when, zone)
    if not firing or (zone == "stage" and not unit_skill_active(state, card)):
        return
    for index in firing:
        if True:
            draft.rule(TRIGGER_CLAUSE.get(when, "W-2.5"), cause, ev.SkillTriggered(
                trigger=Trigger(seat=seat, card=card, skill=index, line=line, other=other), when=when))


def _firing(d: CardDef, when: str, zone: str) -> tuple[int, ...]:
    """The indexes of ``d``'s triggered (・) skills that fire ``when``, from ``zone`` (per card,
    by zone then timing: nested lookups, no key tuple built on every call)."""
    by_zone = _FIRING.get(d.name)
    if by_zone is None:
        by_zone = {}
        for i, skill in enumerate(d.skill):
            if skill.mark == "・":
                by_when = by_zone.setdefault(skill.zone, {})
                by_when[skill.when] = by_when.get(skill.when, ()) + (i,)
        _FIRING.put(d.name, by_zone)     # whole: another thread never reads it half-built
    in_zone = by_zone.get(zone)
    return () if in_zone is None else in_zone.get(when, ())


_FIRING: Memo[str, dict[str, dict[str | None, tuple[int, ...]]]] = Memo("worlfard.firing", bound=4096)


def fire_summon(draft: WDraft, seat: int, line: int, cause: int) -> None:
    unit = draft.state.sides[seat - 1].stage[line - 1]
    if unit is not None:
        fire(draft, seat, unit.card, "summon", cause, line=line)
