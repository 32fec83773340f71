"""The command a decision event records: decisions are re-run from the record on audit."""
from __future__ import annotations

from typing import cast

from kifu.domain.core.declared import open_declaration

from . import commands as c
from . import events as ev
from .state import State


def command_of(event: ev.Event) -> c.Command | None:
    match event:
        case ev.OrderChosen(go_first=go_first):
            return c.ChooseOrder(go_first=go_first)
        case ev.MulliganTaken():
            return c.Mulligan(redraw=True)
        case ev.MulliganDeclined():
            return c.Mulligan(redraw=False)
        case ev.TowerSet(card=card, line=line):
            return c.SetTower(card=card, line=line)
        case ev.SummonDeclared(card=card, line=line, towers=towers, souls=souls, heart=heart, heart_soul=hs):
            return c.Summon(card=card, line=line, towers=towers, souls=souls, heart=heart, heart_soul=hs)
        case ev.SpellCast(card=card, line=line, towers=towers, souls=souls, targets=targets, heart=heart,
                          heart_soul=hs, free=False):
            return c.Cast(card=card, line=line, towers=towers, souls=souls, targets=targets, heart=heart,
                          heart_soul=hs)
        case ev.SkillActivated(card=card, skill=skill, towers=towers, souls=souls, targets=targets):
            return c.Activate(card=card, skill=skill, towers=towers, souls=souls, targets=targets)
        case ev.Passed():
            return c.Pass()
        case ev.TargetsChosen(targets=targets):
            return c.Choose(targets=targets)
        case ev.SkillDeclined():
            return c.Decline()
        case ev.UnitMoved(line=line, to=to):
            return c.Move(line=line, to=to)
        case ev.AttackDeclared(line=line):
            return c.Attack(line=line)
        case ev.TargetDeclared(line=line):
            return c.Target(line=line)
        case ev.BlockDeclared(line=line):
            return c.Block(line=line)
        case ev.EvadeDeclared():
            return c.Evade()
        case ev.NoDefenseDeclared():
            return c.NoDefense()
        case ev.PhaseLeft(to=to):
            return c.Proceed(to=cast(c.Step, to))   # (the event records the phase the command named)
    return None


def played(state: State, event: ev.Event) -> str | None:
    """The card an event puts into play (summoned or cast, from hand, heart or soul), for coverage."""
    match event:
        case ev.UnitSummoned(card=card) | ev.UnitSummonedFree(card=card) | ev.SpellPlaced(card=card):
            return state.name(card)
    return None


# why's second chain: the defence, the combat's steps, passes and damage answer the attack (W-12.1)
# until the combat ends
declaration = open_declaration(
    (ev.AttackDeclared,), (ev.CombatEnded, ev.TurnBegan),
    (ev.TargetDeclared, ev.NoDefenseDeclared, ev.BlockDeclared, ev.EvadeDeclared, ev.DefenseFixed, ev.CombatStep,
     ev.CombatDamage, ev.PlayerAttacked, ev.CombatEnded, ev.Passed))
