"""alteil's piles of cards (deck, hand, soul pile, influence, 戦禍, cemetery) loosened for a run and frozen after it.

The state keeps each pile as a tuple, and ``evolve`` makes a new one per event that changes it:
on the benchmark's long record (2,000-card decks) a soul gain copies a deck of ~1,000 cards and a
soul pile of ~800, every turn, twice. Reading a record folds thousands of events of which nobody
sees the states in between, so ``evolve_run`` keeps the piles as ``Loose`` lists, private to the
run, that these functions change in place, and makes the tuples once at the end (``frozen``).
A run's deck is kept top last (``LooseDeck``), so that drawing from it, the commonest change of
all, takes cards off a list's end rather than moving the rest of the deck up.

The operations on a pile, each the tuple operation on a tuple and the same change in place on a
run's list, are the core's (``kifu.domain.core.piles``), shared with masters' fold.
"""
from __future__ import annotations

from msgspec.structs import replace

from kifu.domain.core.piles import Loose, LooseDeck

from .state import Side, State

PILES = ("deck", "hand", "soul", "influence", "senka", "cemetery")   # the Side fields a run loosens


def _side_loosened(side: Side) -> Side:
    return replace(side, deck=LooseDeck(reversed(side.deck)), hand=Loose(side.hand), soul=Loose(side.soul),
                   influence=Loose(side.influence), senka=Loose(side.senka), cemetery=Loose(side.cemetery))


def _side_frozen(side: Side) -> Side:
    return replace(side, deck=tuple(reversed(side.deck)), hand=tuple(side.hand), soul=tuple(side.soul),
                   influence=tuple(side.influence), senka=tuple(side.senka), cemetery=tuple(side.cemetery))


def loosened(state: State) -> State:
    """``state`` with its sides' piles as new ``Loose`` lists (``state`` itself untouched)."""
    a, b = state.sides
    return replace(state, sides=(_side_loosened(a), _side_loosened(b)))


def frozen(state: State) -> State:
    """``state`` with its sides' piles made tuples again: the state the plain fold makes."""
    a, b = state.sides
    return replace(state, sides=(_side_frozen(a), _side_frozen(b)))
