"""Hearts (W-11). Heart cast (W-11.4): the face-up top heart is cast for its cost plus one
same-element soul."""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import events as ev
from .card_facts import match_facts
from .cards import definition
from .draft import WDraft
from .state import State


def top_heart(state: State, seat: int) -> int | None:
    hearts = state.side(seat).hearts
    return hearts[0].card if hearts and hearts[0].face_up else None


def heart_souls(state: State, seat: int, card: int) -> list[int]:
    """Souls that can pay the heart-cast extra: they share an element with the cast card."""
    facts = match_facts(state.names)
    elements = facts[card].elements
    return [s for s in state.side(seat).soul if not elements.isdisjoint(facts[s].elements)]


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
