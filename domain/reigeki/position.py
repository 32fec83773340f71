"""reigeki's position notation: its version and what makes a position impossible (R-2 zones)."""
from __future__ import annotations

from kifu.domain.core.notation import BadPosition, Notation, conserved, known_names

from .cards import catalog
from .state import State

VERSION = "reigeki-pos/1"


def check(state: State) -> None:
    """Every card of a seat's ``keys`` (card id seat*100+index, index 0 unused) in exactly one of
    its zones (but for the leader while the setup deals), every key one of the card set's, six
    stage places (R-2.1)."""
    for seat, side in enumerate(state.sides, 1):
        where = f" (seat {seat})"
        known_names(side.keys, catalog(), where)
        if len(side.stage) != 6:
            raise BadPosition(f"seat {seat}'s stage has {len(side.stage)} places, not 6 (R-2.1)")
        cards = list(side.deck + side.hand + side.discard + side.exdeck + side.exdiscard + side.reiryoku
                     + side.damage)
        for unit in side.stage:
            if unit is not None:
                cards += [unit.card] + ([unit.under] if unit.under else [])
        conserved(cards, {seat * 100 + i for i in range(1, len(side.keys))}, where,
                  complete=state.phase != "setup")   # the setup places the leader after the shuffle
        if not set(side.flipped) <= set(side.damage):
            raise BadPosition(f"seat {seat}: a flipped card is not in its damage zone (R-7.3)")


NOTATION = Notation(version=VERSION, check=check)
