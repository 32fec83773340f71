"""The state before the first phase: every copy of both decks becomes a card (N-Q12), ids 1..N."""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.clauses import implements

from .cards import card
from .decks import Deck
from .state import Card, State


@implements("N-Q12")
def initial_state(header: Any) -> State:
    cards: list[Card] = []
    for seat, raw in enumerate(header.decks, start=1):
        deck = raw if isinstance(raw, Deck) else msgspec.convert(raw, Deck)
        for name in deck.cards:
            d = card(name)
            cards.append(Card(id=len(cards) + 1, owner=seat, name=name, hp=d.hp, max_hp=d.hp, atk=d.atk,
                              def_=d.def_, agi=d.agi, rng=d.rng))
    return State(cards=tuple(cards))
