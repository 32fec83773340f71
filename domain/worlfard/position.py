"""WORLFARD's position notation: its version and what makes a position impossible (W-3 areas)."""
from __future__ import annotations

from kifu.domain.core.notation import BadPosition, Notation, conserved, known_names

from .cards import catalog
from .state import State
from .vocabulary import LINES, card_id

VERSION = "worlfard-pos/1"


def check(state: State) -> None:
    """Every card of both decks (``names``: card id seat*1000+i) in exactly one area, every name
    one of the card set's, life and seats in range."""
    cards: list[int] = []
    for seat, side in enumerate(state.sides, 1):
        known_names(state.names[seat - 1], catalog(), f" (seat {seat}'s names)")
        cards += side.deck + side.hand + side.soul + side.grave + side.seal
        cards += [h.card for h in side.hearts]
        cards += [u.card for u in side.stage if u is not None]
        cards += [t.card for t in side.table if t is not None]
        cards += [c for tower in side.towers for c in tower.cards]
        if not len(side.stage) == len(side.table) == len(side.towers) == LINES:
            raise BadPosition(f"seat {seat}: stage, table and towers have {LINES} spots each (W-3.1)")
    known = {card_id(seat, i) for seat in (1, 2) for i in range(len(state.names[seat - 1]))}
    conserved(cards, known)
    for name, seat in (("turn_seat", state.turn_seat), ("first_seat", state.first_seat), ("chooser", state.chooser)):
        if seat not in (0, 1, 2):
            raise BadPosition(f"{name}:{seat} is no seat (0, 1 or 2)")


NOTATION = Notation(version=VERSION, check=check)
