"""alteil's position notation: its version and what makes a position impossible (A-3 zones)."""
from __future__ import annotations

from kifu.domain.core.notation import BadPosition, Notation, conserved, known_names

from .cards import catalog
from .state import State
from .vocabulary import card_id

VERSION = "alteil-pos/1"


def check(state: State) -> None:
    """Every card of both decks (``names``: card id seat*1000+i, from 1) in exactly one zone, every
    name one of the card set's."""
    cards: list[int] = []
    for seat, side in enumerate(state.sides, 1):
        known_names(state.names[seat - 1], catalog(), f" (seat {seat}'s names)")
        cards += side.deck + side.hand + side.soul + side.influence + side.senka + side.cemetery
        cards += [c for c in side.squares if c]
        cards += [u.card for u in side.units]
    known = {card_id(seat, i) for seat in (1, 2) for i in range(1, len(state.names[seat - 1]) + 1)}
    conserved(cards, known)
    for pending in state.pending:      # a NEXT skill waiting names its card, wherever that card is (A-Q2)
        if pending.card not in known:
            raise BadPosition(f"unknown card {pending.card} (a pending NEXT skill)")


NOTATION = Notation(version=VERSION, check=check)
