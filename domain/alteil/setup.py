"""Game start (A-4): the state before setup, then shuffles and opening hands (A-4.1).

The rest of the setup follows the mulligans in the seed's order (A-Q11, ``decide._after_mulligans``).
"""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.draft import Draft

from . import events as ev
from .decks import DeckList
from .state import Side, State
from .vocabulary import HAND_START, card_id


def as_deck(raw: Any) -> DeckList:
    return raw if isinstance(raw, DeckList) else msgspec.convert(raw, DeckList)


def initial_state(header: Any) -> State:
    """Each deck in registered order; card id = seat*1000 + position (1-based)."""
    decks = [as_deck(d) for d in header.decks]
    one, two = (Side(deck=tuple(card_id(seat, i + 1) for i in range(len(decks[seat - 1].cards)))) for seat in (1, 2))
    return State(names=(decks[0].cards, decks[1].cards), sides=(one, two))


@implements("A-4.1")
def begin(header: Any, state: State, draft: Draft[State, ev.Event]) -> None:
    """A-4.1: shuffle each deck and draw 6; then each player decides its one mulligan (seat 1 first)."""
    for seat in (1, 2):
        order = draft.rng.shuffled(draft.state.side(seat).deck)
        draft.setup("A-4.1", ev.DeckShuffled(seat=seat, order=order), seat=seat)
        draft.setup("A-4.1", ev.CardsDrawn(seat=seat, cards=order[:HAND_START]), seat=seat)
