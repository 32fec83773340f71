"""Deck lists (M-1.1): 40 cards, at most COPIES_MAX of a name, every name in the card set.

A deck file is TOML: ``name = "..."`` and a ``[cards]`` table of ``"card name" = count``.
Errors name the clause and, where a card line is at fault, the line of the file.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.decks import DeckBook, card_table, normalize_pair
from kifu.domain.core.errors import InvalidDeck

from .cards import catalog
from .vocabulary import COPIES_MAX, DECK_SIZE


class DeckList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A registered deck: ``cards`` is the full list in order (card ids follow this order)."""

    name: str
    cards: tuple[str, ...]


@implements("M-1.1")
def parse_deck(text: str, source: str) -> DeckList:
    deck_name, rows = card_table(text, source)
    known = catalog()
    cards: list[str] = []
    for name, count, where in rows:
        if name not in known:
            raise InvalidDeck("M-1.1", f"unknown card {name!r}", where)
        if count < 1:
            raise InvalidDeck("M-1.1", f"{name}: a count is at least 1, got {count}", where)
        if count > COPIES_MAX:
            raise InvalidDeck("M-1.1", f"{name}: at most {COPIES_MAX} copies of a name, got {count}", where)
        cards.extend([name] * count)
    return validate(DeckList(name=deck_name, cards=tuple(cards)), source)


@implements("M-1.1")
def validate(deck: DeckList, where: str | None = None) -> DeckList:
    """M-1.1: exactly DECK_SIZE cards, every one known, at most COPIES_MAX of a name."""
    known = catalog()
    unknown = sorted({n for n in deck.cards if n not in known})
    if unknown:
        raise InvalidDeck("M-1.1", f"deck {deck.name!r} names unknown cards: {', '.join(unknown)}", where)
    if len(deck.cards) != DECK_SIZE:
        raise InvalidDeck("M-1.1", f"deck {deck.name!r} has {len(deck.cards)} cards; a deck has {DECK_SIZE}", where)
    over = sorted(n for n, k in Counter(deck.cards).items() if k > COPIES_MAX)
    if over:
        raise InvalidDeck("M-1.1", f"deck {deck.name!r} has more than {COPIES_MAX} copies of: {', '.join(over)}", where)
    return deck


BOOK: DeckBook[DeckList] = DeckBook("kifu.domain.masters", parse_deck, "M-1.1")


def preset_names() -> list[str]:
    return BOOK.preset_names()


def preset(name: str) -> DeckList:
    return BOOK.preset(name)


def load(spec: str) -> DeckList:
    return BOOK.load(spec)


def as_deck(raw: Any) -> DeckList:
    return raw if isinstance(raw, DeckList) else msgspec.convert(raw, DeckList)


def normalize(decks: list[Any]) -> list[DeckList]:
    """Two masters, two decks (M-1.1): each a DeckList or its decoded dict, validated."""
    return normalize_pair(decks, DeckList, validate, "M-1.1")
