"""A side's piles of cards (deck, hand, soul pile, influence, 戦禍, cemetery), changed as a fold changes them.

The state keeps each pile as a tuple, and ``evolve`` makes a new one per event that changes it:
on the benchmark's long record (2,000-card decks) a soul gain copies a deck of ~1,000 cards and a
soul pile of ~800, every turn, twice. Reading a record folds thousands of events of which nobody
sees the states in between, so ``evolve_run`` keeps the piles as ``Loose`` lists, private to the
run, that these functions change in place, and makes the tuples once at the end (``frozen``).
A run's deck is kept top last (``LooseDeck``), so that drawing from it, the commonest change of
all, takes cards off a list's end rather than moving the rest of the deck up.

Each function is the tuple operation on a tuple, and the same change made in place on a ``Loose``
list (which it returns): the handlers call them without knowing which they hold.
"""
from __future__ import annotations

from typing import final

from msgspec.structs import replace

from .state import Side, State

Cards = tuple[int, ...]
PILES = ("deck", "hand", "soul", "influence", "senka", "cemetery")   # the Side fields a run loosens


@final   # (so ``type(cards) is Loose`` tells a type checker both ways which one ``cards`` is)
class Loose(list[int]):
    """A pile while a run of events is folded: private to that run, so changed in place."""
    __slots__ = ()


@final
class LooseDeck(list[int]):
    """A deck while a run of events is folded: private to that run, and its top is its LAST item."""
    __slots__ = ()


Pile = Cards | Loose
Deck = Cards | LooseDeck


def dropped(deck: Deck, n: int) -> Deck:
    """Without its top ``n`` cards."""
    if type(deck) is LooseDeck:
        if n:
            del deck[-n:]
        return deck
    return deck[n:]


def under(more: Cards, deck: Deck) -> Deck:
    """With ``more`` on its top (``more[0]`` the top card)."""
    if type(deck) is LooseDeck:
        deck.extend(reversed(more))
        return deck
    return more + deck


def renewed(deck: Deck, new: Cards) -> Deck:
    """All its cards replaced by ``new`` (a shuffle)."""
    if type(deck) is LooseDeck:
        deck[:] = reversed(new)
        return deck
    return tuple(new)


def chopped(cards: Pile, n: int) -> Pile:
    """Without its last ``n`` cards (the soul pile's top)."""
    if type(cards) is Loose:
        del cards[len(cards) - n:]
        return cards
    return cards[:len(cards) - n]


def plus(cards: Pile, more: Cards) -> Pile:
    """With ``more`` after its last card."""
    if type(cards) is Loose:
        cards.extend(more)
        return cards
    return cards + more


def without(cards: Pile, card: int) -> Pile:
    """Without the first copy of ``card`` (which it holds)."""
    if type(cards) is Loose:
        cards.remove(card)
        return cards
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def without_any(cards: Pile, gone: Cards) -> Pile:
    """Without every card of ``gone``."""
    if type(cards) is Loose:
        cards[:] = [c for c in cards if c not in gone]
        return cards
    return tuple(c for c in cards if c not in gone)


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
