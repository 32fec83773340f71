"""A side's rows of cards (deck, hand, grave), changed as a fold changes them.

The state keeps each row as a tuple, and ``evolve`` makes a new one per event that changes it: on
the benchmark's long record (decks of ~200 cards, graves of ~50) a draw copies the deck and the
hand, a face-down charge the deck again, each turn. Reading a record folds thousands of events of
which nobody sees the states in between, so ``evolve.evolve_run`` keeps the rows as ``Loose``
lists, private to the run, that these functions change in place, and makes the tuples once at the
end (``frozen``). A run's deck is kept top last (``LooseDeck``), so that drawing from it takes cards
off a list's end rather than moving the rest of the deck up. (The mana rows: ``mana.LooseRow``.)

Each function is the old tuple operation on a tuple, and the same change made in place on a run's
list (which it returns): one set of handlers serves both, without knowing which they hold.
"""
from __future__ import annotations

from typing import final

Cards = tuple[int, ...]


@final   # (so ``type(cards) is Loose`` tells a type checker both ways which one ``cards`` is)
class Loose(list[int]):
    """A hand or a grave while a run of events is folded: private to that run, so changed in place."""
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


def at_bottom(deck: Deck, more: Cards) -> Deck:
    """With ``more`` under its bottom card (``more[-1]`` the new bottom)."""
    if type(deck) is LooseDeck:
        deck[:0] = reversed(more)
        return deck
    return deck + more


def renewed(deck: Deck, new: Cards) -> Deck:
    """All its cards replaced by ``new`` (a shuffle: the tuple is ``new`` itself)."""
    if type(deck) is LooseDeck:
        deck[:] = reversed(new)
        return deck
    return new


def plus(cards: Pile, more: Cards) -> Pile:
    """With ``more`` after its last card."""
    if type(cards) is Loose:
        cards.extend(more)
        return cards
    return cards + more


def without(cards: Pile, card: int) -> Pile:
    """Without any copy of ``card``."""
    if type(cards) is Loose:
        cards[:] = [c for c in cards if c != card]
        return cards
    return tuple(c for c in cards if c != card)


def emptied(cards: Pile) -> Pile:
    """With no card left."""
    if type(cards) is Loose:
        cards.clear()
        return cards
    return ()


def loose_deck(deck: Cards) -> LooseDeck:
    return LooseDeck(reversed(deck))


def frozen_deck(deck: Deck) -> Cards:
    return tuple(reversed(deck)) if type(deck) is LooseDeck else deck
