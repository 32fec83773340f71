"""Deck lists (W-4.1): parsed from TOML, checked against the rules, and the presets we ship."""
from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.decks import DeckBook, normalize_pair, parse_toml
from kifu.domain.core.errors import InvalidDeck, Malformed

from .cards import catalog
from .vocabulary import COPIES_MAX, DECK_MAX, DECK_MIN, HEART_COUNT


class DeckList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A registered deck: ``cards`` is the full list in order (hearts included, W-4.2)."""

    name: str
    hearts: tuple[str, ...]
    cards: tuple[str, ...]


class _DeckFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    hearts: tuple[str, ...]
    cards: dict[str, int]


def parse_deck(text: str, source: str) -> DeckList:
    """A deck file: ``name``, ``hearts = [3 names]`` and a ``[cards]`` table of name = count."""
    raw = parse_toml(text, source)
    try:
        deck = msgspec.convert(raw, _DeckFile)
    except msgspec.ValidationError as exc:
        raise Malformed(f"deck file: {exc}", source) from None
    cards: list[str] = []
    for name, count in deck.cards.items():
        if count < 1:
            raise Malformed(f"cards.{name}: count must be at least 1, got {count}", source)
        cards.extend([name] * count)
    return validate(DeckList(name=deck.name, hearts=deck.hearts, cards=tuple(cards)), source)


@implements("W-4.1", "W-4.2")
def validate(deck: DeckList, where: str | None = None) -> DeckList:
    """W-4.1: 40–60 cards, at most 3 of a name, exactly 3 hearts of different names, all in the deck."""
    known = catalog()
    unknown = sorted({name for name in deck.cards if name not in known})
    if unknown:
        raise InvalidDeck("W-4.1", f"deck {deck.name!r} names unknown cards: {', '.join(unknown)}", where)
    if not DECK_MIN <= len(deck.cards) <= DECK_MAX:
        raise InvalidDeck("W-4.1", f"deck {deck.name!r} has {len(deck.cards)} cards; a deck has {DECK_MIN}–{DECK_MAX}",
                          where)
    over = sorted(name for name, n in Counter(deck.cards).items() if n > COPIES_MAX)
    if over:
        raise InvalidDeck("W-4.1", f"deck {deck.name!r} has more than {COPIES_MAX} copies of: {', '.join(over)}", where)
    if len(deck.hearts) != HEART_COUNT or len(set(deck.hearts)) != HEART_COUNT:
        raise InvalidDeck("W-4.1", f"deck {deck.name!r} must designate exactly {HEART_COUNT} hearts of different "
                                   f"names, got {list(deck.hearts)}", where)
    missing = [h for h in deck.hearts if h not in deck.cards]
    if missing:
        raise InvalidDeck("W-4.2", f"deck {deck.name!r}: hearts are taken from the deck, but it holds no "
                                   f"{', '.join(missing)}", where)
    return deck


BOOK = DeckBook("kifu.domain.worlfard", parse_deck, "W-4.1")
preset_names = BOOK.preset_names
preset = BOOK.preset
load = BOOK.load


@implements("W-1.1")
def normalize(decks: list[Any]) -> list[DeckList]:
    """W-1.1: two decks, each a DeckList or its decoded dict (a record header), validated (W-4.1)."""
    return normalize_pair(decks, DeckList, validate, "W-1.1")
