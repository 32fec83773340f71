"""Deck lists (A-2.1): parsed from TOML, checked against the rules, and the presets we ship."""
from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.decks import DeckBook, card_table, normalize_pair
from kifu.domain.core.errors import InvalidDeck, Malformed

from .cards import catalog
from .vocabulary import COPIES_MAX, DECK_SIZE


class DeckList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A registered deck: ``cards`` is the full list of card names in order."""

    name: str
    cards: tuple[str, ...]


@implements("A-2.1")
def parse_deck(text: str, source: str) -> DeckList:
    """A deck file: ``name`` and a ``[cards]`` table of name = count."""
    deck_name, rows = card_table(text, source)
    known = catalog()
    cards: list[str] = []
    for name, count, where in rows:
        if name not in known:
            raise InvalidDeck("A-2.1", f"unknown card {name!r}", where)
        if count < 1:
            raise Malformed(f"cards.{name}: count must be at least 1, got {count}", where)
        if count > COPIES_MAX:
            raise InvalidDeck("A-2.1", f"{count} copies of {name} (card No. {known[name].number}); "
                                       f"at most {COPIES_MAX} of one card number", where)
        cards.extend([name] * count)
    return validate(DeckList(name=deck_name, cards=tuple(cards)), source)


@implements("A-2.1")
def validate(deck: DeckList, where: str | None = None) -> DeckList:
    """A-2.1: exactly 51 cards, at most 3 with the same card number."""
    known = catalog()
    unknown = sorted({n for n in deck.cards if n not in known})
    if unknown:
        raise InvalidDeck("A-2.1", f"deck {deck.name!r} names unknown cards: {', '.join(unknown)}", where)
    if len(deck.cards) != DECK_SIZE:
        raise InvalidDeck("A-2.1", f"deck {deck.name!r} has {len(deck.cards)} cards; a deck has exactly {DECK_SIZE}",
                          where)
    numbers = Counter(known[n].number for n in deck.cards)
    over = sorted(num for num, k in numbers.items() if k > COPIES_MAX)
    if over:
        raise InvalidDeck("A-2.1", f"deck {deck.name!r} has more than {COPIES_MAX} of card No. "
                                   f"{', '.join(map(str, over))}", where)
    return deck


BOOK = DeckBook("kifu.domain.alteil", parse_deck, "A-2.1")


def preset_names() -> list[str]:
    return BOOK.preset_names()


def preset(name: str) -> DeckList:
    return BOOK.preset(name)


def load(spec: str) -> DeckList:
    return BOOK.load(spec)


@implements("A-11.3")
def normalize(decks: list[Any]) -> list[DeckList]:
    """A-11: two players, two decks; each a preset name, a DeckList or its decoded dict, validated."""
    return normalize_pair([load(d) if isinstance(d, str) else d for d in decks], DeckList, validate, "A-11.3")
