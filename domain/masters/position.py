"""masters' position notation: its version and what makes a position impossible."""
from __future__ import annotations

from kifu.domain.core.notation import BadPosition, Notation, conserved, known_names

from .cards import catalog
from .state import State
from .vocabulary import card_id

VERSION = "masters-pos/1"


def check(state: State) -> None:
    """Every card of both decks (``names``: card id seat*100+i) in exactly one zone (deck, hand,
    graveyard, mana, the board, a spell on the stack), every name one of the card set's."""
    cards: list[int] = []
    for seat, side in enumerate(state.sides, 1):
        known_names(state.names[seat - 1], catalog(), f" (seat {seat}'s names)")
        cards += side.deck + side.hand + side.grave
        cards += [m.card for m in side.mana]
    cards += [p.card for p in state.pieces]
    cards += [item.card for item in state.stack if item.kind == "spell"]
    known = {card_id(seat, i) for seat in (1, 2) for i in range(len(state.names[seat - 1]))}
    conserved(cards, known)
    squares = [p.square for p in state.pieces] + [side.master for side in state.sides if side.master]
    if len(set(squares)) != len(squares):
        raise BadPosition("two pieces or masters on one square")


NOTATION = Notation(version=VERSION, check=check)
