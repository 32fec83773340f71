"""The command a decision event records (audit re-runs them) and the card an event puts into play."""
from __future__ import annotations

from typing import Any

from . import commands as c
from . import events as ev
from .state import State


def command_of(event: Any) -> c.Command | None:
    match event:
        case ev.MulliganDecided(redraw=redraw):
            return c.Mulligan(redraw=redraw)
        case ev.OpeningInfluence(card=0):
            return c.NoInfluence()
        case ev.OpeningInfluence(card=card) | ev.InfluencePlaced(card=card):
            return c.PlaceInfluence(card=card)
        case ev.InfluenceEnded():
            return c.EndInfluence()
        case ev.UnitPlaced(card=card, square=square):
            return c.PlaceUnit(card=card, square=square)
        case ev.SetPassed():
            return c.PassSet()
        case ev.WindowPassed():
            return c.Pass()
        case ev.GrimoireUsed(card=card, target=target, discard=discard):
            return c.UseGrimoire(card=card, target=target, discard=discard)
        case ev.ActorChosen(card=card):
            return c.ChooseActor(card=card)
        case ev.UnitWaited(card=card, forced=False):
            return c.Wait(card=card)
        case ev.UnitMoved(card=card, square=square):
            return c.Move(card=card, square=square)
        case ev.SkillUsed(card=card, target=target):
            return c.UseSkill(card=card, target=target)
        case ev.Attacked(card=card, target=target):
            return c.Attack(card=card, target=target)
        case ev.BattlefieldAttacked(card=card, square=square):
            return c.AttackBattlefield(card=card, square=square)
        case ev.DiscardedForSoul(card=card):
            return c.DiscardForSoul(card=card)
        case ev.DiscardsEnded():
            return c.EndDiscards()
        case ev.DiscardedToLimit(card=card):
            return c.DiscardToLimit(card=card)
        case ev.Conceded():
            return c.Concede()
    return None


def played(state: State, event: Any) -> str | None:
    """Cards put into play: units placed, influence placed, grimoires used, skills used."""
    match event:
        case ev.UnitPlaced(card=card) | ev.GrimoireUsed(card=card) | ev.InfluencePlaced(card=card) \
                | ev.OpeningInfluence(card=card) if card:
            return state.name(card)
    return None
