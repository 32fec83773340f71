"""What the audit and the standings read from events: the command a decision records, and the
card an event puts into play."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.declared import first_of, open_declaration, same_card

from . import commands as c
from . import events as ev
from .state import State


def command_of(event: Any) -> c.Command | None:
    match event:
        case ev.MulliganTaken():
            return c.Mulligan()
        case ev.HandKept():
            return c.Keep()
        case ev.CardBottomed(card=card):
            return c.Bottom(card=card)
        case ev.DrawChosen():
            return c.Draw()
        case ev.ChargeChosen():
            return c.Charge()
        case ev.ManaCharged(face_up=True, card=card):
            return c.ChargePiece(card=card)
        case ev.PriorityPassed():
            return c.Pass()
        case ev.MasterMoved(to=to):
            return c.MoveMaster(to=to)
        case ev.PieceSummoned(card=card, square=square):
            return c.Summon(card=card, square=square)
        case ev.SpellCast(card=card, at=at):
            return c.Cast(card=card, target=at)
        case ev.SkillActivated(card=card, at=at):
            return c.Activate(card=card, target=at)
        case ev.HandDiscarded(card=card):
            return c.Discard(card=card)
        case ev.PieceMoved(card=card, path=path) | ev.AttackMoved(card=card, path=path):
            return c.Move(piece=card, path=path)
    return None


def played(state: State, event: Any) -> str | None:
    match event:
        case ev.PieceSummoned(card=card) | ev.SpellCast(card=card):
            return state.name(card)
    return None


# why's second chain (M-2.2): a resolving stack entry answers the skill or spell that put it there,
# the last declared first; a combat's rulings answer the move that attacked (M-8.3)
declaration = first_of(
    same_card((ev.SkillActivated, ev.SpellCast), (ev.Resolved,), stacked=True),
    open_declaration((ev.AttackMoved,), (ev.MoveCompleted, ev.AttackStopped, ev.CombatEnded, ev.CombatAvoided),
                     (ev.CombatBegan, ev.CombatDamage, ev.CombatAvoided, ev.CombatEnded, ev.AttackStopped,
                      ev.MoveCompleted)))
