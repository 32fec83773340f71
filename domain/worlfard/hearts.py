"""Hearts (W-11). Heart cast (W-11.4): the face-up top heart is cast for its cost plus one
same-element soul."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal
from kifu.domain.core.memo import Slot

from . import events as ev
from .card_facts import match_facts
from .cards import definition
from .draft import WDraft
from .state import State


def top_heart(state: State, seat: int) -> int | None:
    hearts = state.sides[seat - 1].hearts
    return hearts[0].card if hearts and hearts[0].face_up else None


def heart_souls(state: State, seat: int, card: int) -> tuple[int, ...]:
    """Souls that can pay the heart-cast extra: they share an element with the cast card. The
    main phase's decision lists ask at each decision, of a soul that changes far less often:
    the last answer is kept per seat with the soul, the card and the match it is about."""
    soul, names = state.sides[seat - 1].soul, state.names
    slot = _souls[seat - 1]
    last = slot.value
    if last[0] is soul and last[1] == card and last[2] is names:
        found: tuple[int, ...] = last[3]
        return found
    facts = match_facts(names)
    elements = facts[card].elements
    found = tuple([s for s in soul if not elements.isdisjoint(facts[s].elements)])
    slot.value = (soul, card, names, found)
    return found


# per seat: (the soul, the heart card, the match's names) last asked about, and the answer
_NO_SOULS: tuple[Any, ...] = (None, 0, None, ())
_souls = (Slot("worlfard.heart_souls.1", _NO_SOULS), Slot("worlfard.heart_souls.2", _NO_SOULS))


@implements("W-11.4")
def check_heart_cast(state: State, seat: int, card: int, soul: int | None, paying: tuple[int, ...]) -> None:
    if top_heart(state, seat) != card:
        raise Illegal("W-11.4", f"card {card} is not seat {seat}'s face-up top heart")
    if soul is None or soul not in state.side(seat).soul:
        raise Illegal("W-11.4", "a heart cast also pays one soul of the cast card's element (heart_soul)")
    if soul in paying:
        raise Illegal("W-11.4", "the heart-cast soul is paid on top of the cost, not as part of it")
    if soul not in heart_souls(state, seat, card):
        raise Illegal("W-11.4", f"soul {definition(state, soul).name} does not share an element with "
                                f"{definition(state, card).name}")


def check_source(state: State, seat: int, card: int, heart: bool, soul: int | None, paying: tuple[int, ...],
                 clause: str) -> None:
    """A cast card comes from the hand — or, for a heart cast, is the face-up top heart (W-11.4)."""
    if heart:
        check_heart_cast(state, seat, card, soul, paying)
    elif card not in state.side(seat).hand:
        raise Illegal(clause, f"card {card} is not in seat {seat}'s hand")


@implements("W-11.4")
def heart_cast(draft: WDraft, seat: int, card: int, soul: int, cause: int) -> None:
    draft.rule("W-11.4", cause, ev.HeartCast(seat=seat, card=card, soul=soul))


@implements("W-11.4")
def reveal_next(draft: WDraft, seat: int, cause: int) -> None:
    """W-11.4: after the top heart leaves, the next one turns face-up."""
    hearts = draft.state.side(seat).hearts
    if hearts and not hearts[0].face_up:
        draft.rule("W-11.4", cause, ev.HeartRevealed(seat=seat, card=hearts[0].card))
