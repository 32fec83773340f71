"""What a record's events mean to the audit and the statistics: which command each decision event
records (audit and re-record re-run them), the card an event puts into play."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.declared import open_declaration

from . import commands as c
from . import events as e
from .decide import card_of
from .state import State


def command_of(event: Any) -> Any:
    kind = type(event)
    if kind is e.HandReturned:
        return c.Mulligan(redraw=True)
    if kind is e.HandKept:
        return c.Mulligan()
    if kind is e.Moved:
        return c.Move(source=event.source, to=event.to)
    if kind is e.Played:
        return c.Play(card=event.card, place=event.place)
    if kind is e.SpellCast:
        return c.Cast(card=event.card, pay=event.pay, flip=event.flip, target_seat=event.target_seat,
                      target=event.target, to=event.to)
    if kind is e.AttackDeclared:
        return c.Attack(attacker=event.attacker_place, target=event.target_place)
    if kind is e.Guarded and event.source == "hand":
        return c.Guard(card=event.card)
    if kind is e.Nullified:
        return c.Guard(card=event.card)
    if kind is e.Burst:
        return c.GuardWith(place=event.place)
    if kind is e.Discarded and event.source == "hand":
        return c.Discard(card=event.cards[0])
    if kind is e.PhaseBegan:
        return c.Proceed()
    return None


def played(state: State, event: Any) -> str | None:
    """The card an event puts into play (coverage): characters, spells, leaders, 霊撃 used."""
    kind = type(event)
    if kind in (e.Played, e.SpellCast, e.LeaderPlaced, e.Nullified, e.ReigekiCharged):
        return card_of(state, event.card).key or None
    return None


# why's second chain: a battle's guards, bursts, steps and result answer its attack until
# the battle ends
declaration = open_declaration(
    (e.AttackDeclared,), (e.BattleEnded, e.TurnBegan),
    (e.Guarded, e.Burst, e.Nullified, e.BattleResolved, e.BattleEnded, e.PhaseBegan, e.StepBegan))
