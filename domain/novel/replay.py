"""What a record's events mean to the audit and the statistics: the decision an event records,
the card an event puts into play."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.declared import same_card

from .commands import Act, Command, Done, Pick, Reveal
from .events import (
    Acted,
    Equipped,
    MagicFizzled,
    MagicFlipped,
    MagicResolved,
    MagicSet,
    Picked,
    RevealChosen,
    SelectDone,
    Summoned,
)
from .state import State


def command_of(event: Any) -> Command | None:
    """The command a decision event records (all of them are opened sealed choices)."""
    match event:
        case Picked():
            return Pick(card=event.card, target=event.target, face_down=event.face_down)
        case RevealChosen():
            return Reveal(card=event.card, target=event.target)
        case SelectDone():
            return Done()
        case Acted():
            return Act(card=event.card, target=event.target)
    return None


def played(state: State, event: Any) -> str | None:
    """The card an event puts into play: a summon, an equipping, a magic set on the field."""
    if isinstance(event, (Summoned, Equipped, MagicSet)):
        return state.card(event.card).name if event.card else None
    return None


# why's second chain: a card summoned, equipped, set, flipped or resolved answers the secret pick
# that chose it (N-5.2.1), whose reveal and seal follow it in the chain
declaration = same_card((Picked,), (Summoned, Equipped, MagicSet, MagicFlipped, MagicResolved, MagicFizzled))
