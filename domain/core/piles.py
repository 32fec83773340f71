"""A side's piles of cards (a deck, a hand, a grave…) as a fold changes them: tuples, or a run's lists.

A state keeps each pile as a tuple, and ``evolve`` makes a new one per event that changes it: on a
long record a draw copies a deck of hundreds of cards. Reading a record folds thousands of events
of which nobody sees the states in between, so a ruleset's ``evolve_run`` may keep its piles as
``Loose`` lists, private to the run, that these functions change in place, and make the tuples
once at the end. A run's deck is kept top last (``LooseDeck``), so that drawing from it, the
commonest change of all, takes cards off a list's end rather than moving the rest of the deck up.

Each function is the tuple operation on a tuple, and the same change made in place on a run's
list (which it returns): one set of handlers serves both paths without knowing which it holds
(alteil's and masters' folds; ``kifu.tools.fold_check`` holds a run to the plain fold).
"""
from __future__ import annotations

from typing import final

Cards = tuple[int, ...]


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


def loose_deck(deck: Cards) -> LooseDeck:
    """A run's copy of ``deck`` (its top last)."""
    return LooseDeck(reversed(deck))


def frozen_deck(deck: Deck) -> Cards:
    """The deck as the state keeps it (its top first)."""
    return tuple(reversed(deck)) if type(deck) is LooseDeck else deck


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


def at_bottom(deck: Deck, more: Cards) -> Deck:
    """With ``more`` under its bottom card (``more[-1]`` the new bottom)."""
    if type(deck) is LooseDeck:
        deck[:0] = reversed(more)
        return deck
    return deck + more


def renewed(deck: Deck, new: Cards) -> Deck:
    """All its cards replaced by ``new`` (a shuffle; the tuple is ``new`` itself when it is one)."""
    if type(deck) is LooseDeck:
        deck[:] = reversed(new)
        return deck
    return tuple(new)


def chopped(cards: Pile, n: int) -> Pile:
    """Without its last ``n`` cards."""
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
    """Without every copy of every card of ``gone``."""
    if type(cards) is Loose:
        cards[:] = [c for c in cards if c not in gone]
        return cards
    return tuple(c for c in cards if c not in gone)


def emptied(cards: Pile) -> Pile:
    """With no card left."""
    if type(cards) is Loose:
        cards.clear()
        return cards
    return ()
