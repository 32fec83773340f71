"""Deck lists (N-2): a ``[cards]`` table of name = copies, checked against N-2.1 .. N-2.3."""
from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.decks import DeckBook, line_of, normalize_pair, parse_toml
from kifu.domain.core.errors import InvalidDeck, Malformed

from .cards import catalog

COST_LIMIT = 200       # N-2.1
NAMED_KINDS = 3        # N-2.2
NORMAL_KINDS = 6       # N-2.3


class Deck(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A registered deck: ``cards`` lists every copy (N-Q12: each copy is a card of its own)."""

    name: str
    cards: tuple[str, ...]


class _DeckFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    cards: dict[str, int]


def _line(text: str, name: str) -> str:
    number = line_of(text, name)
    return f"line {number}: " if number else ""


@implements("N-2")
def parse(text: str, source: str) -> Deck:
    raw = parse_toml(text, source)
    try:
        f = msgspec.convert(raw, _DeckFile)
    except msgspec.ValidationError as exc:
        raise Malformed(f"deck file: {exc}", source) from None
    cards: list[str] = []
    for name, count in f.cards.items():
        if count < 1:
            raise Malformed(f"{_line(text, name)}cards.{name}: count must be at least 1, got {count}", source)
        cards.extend([name] * count)
    try:
        return validate(Deck(name=f.name, cards=tuple(cards)))
    except InvalidDeck as exc:
        bad = next((n for n in f.cards if n in exc.reason), None)
        where = f"{source} {_line(text, bad).rstrip(': ')}".strip() if bad else source
        raise InvalidDeck(exc.clause, exc.reason, where) from None


@implements("N-2", "N-2.1", "N-2.2", "N-2.3", "N-Q12")
def validate(deck: Deck, where: str | None = None) -> Deck:
    known = catalog()
    unknown = sorted({n for n in deck.cards if n not in known})
    if unknown:
        raise InvalidDeck("N-2", f"deck {deck.name!r} names unknown cards: {', '.join(unknown)}", where)
    counts = Counter(deck.cards)
    total = sum(known[n].cost for n in deck.cards)
    if total > COST_LIMIT:
        raise InvalidDeck("N-2.1", f"deck {deck.name!r} costs {total}; the limit is {COST_LIMIT}", where)
    if not any(known[n].kind == "character" for n in counts):
        raise InvalidDeck("N-2.1", f"deck {deck.name!r} has no character card", where)
    named = [n for n in counts if known[n].named]
    doubled = [n for n in named if counts[n] > 1]
    if doubled:
        raise InvalidDeck("N-2.2", f"deck {deck.name!r}: a named card goes in once only: {', '.join(doubled)}", where)
    if len(named) > NAMED_KINDS:
        raise InvalidDeck("N-2.2", f"deck {deck.name!r} has {len(named)} named kinds; at most {NAMED_KINDS}", where)
    normal = [n for n in counts if not known[n].named]
    if len(normal) > NORMAL_KINDS:
        raise InvalidDeck("N-2.3", f"deck {deck.name!r} has {len(normal)} normal kinds; at most {NORMAL_KINDS}", where)
    return deck


BOOK: DeckBook[Deck] = DeckBook("kifu.domain.novel", parse, "N-2")


def load(spec: str) -> Deck:
    return BOOK.load(spec)


@implements("N-C9")
def preset_names() -> list[str]:
    return BOOK.preset_names()


def normalize(decks: list[Any]) -> list[Deck]:
    """A match's two decks (deck structs, a header's dicts, or preset names), each checked (N-2)."""
    return normalize_pair([load(d) if isinstance(d, str) else d for d in decks], Deck, validate, "N-2")
