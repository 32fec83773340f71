"""novel's position notation: its version and what makes a position impossible (N-3 zones)."""
from __future__ import annotations

from kifu.domain.core.notation import BadPosition, Notation, known_names

from .cards import catalog
from .state import State

VERSION = "novel-pos/1"


def check(state: State) -> None:
    """Cards numbered 1..n in order, each named from the card set, and every card a side lists on
    its front, back or magic row is one of its own in that zone."""
    for i, card in enumerate(state.cards, 1):
        if card.id != i:
            raise BadPosition(f"card {card.id} stands at place {i} of the cards (they are numbered 1..n)")
        if card.owner not in (1, 2):
            raise BadPosition(f"card {card.id}'s owner {card.owner} is no seat")
    known_names((c.name for c in state.cards), catalog())
    for seat, side in enumerate(state.sides, 1):
        for zone in ("front", "back", "magic"):
            for cid in getattr(side, zone):
                if not 1 <= cid <= len(state.cards):
                    raise BadPosition(f"unknown card {cid} (seat {seat}'s {zone})")
                card = state.cards[cid - 1]
                if card.owner != seat or card.zone != zone:
                    raise BadPosition(f"cards not conserved: card {cid} is listed on seat {seat}'s {zone} "
                                      f"but is seat {card.owner}'s, in its {card.zone}")


NOTATION = Notation(version=VERSION, check=check)
