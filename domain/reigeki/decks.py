"""Deck lists (R-4): a leader, a 50-card deck (45 characters + 5 霊撃) and a 20-spell Ex deck."""
from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.decks import DeckBook, line_of, normalize_pair, parse_toml
from kifu.domain.core.errors import InvalidDeck, Malformed

from .cards import COPIES_MAX, SPELL_COPIES_MAX, catalog

CHARACTERS = 45
REIGEKI_COUNT = 5
EX_SIZE = 20


class DeckList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    leader: str
    deck: tuple[str, ...]
    ex: tuple[str, ...]


class _DeckFile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    leader: str
    deck: dict[str, int]
    ex: dict[str, int]


def _line_of(text: str, key: str) -> str:
    number = line_of(text, key)
    return f" (line {number})" if number else ""


def parse_deck(text: str, source: str) -> DeckList:
    """A deck file: ``name``, ``leader``, a ``[deck]`` table and an ``[ex]`` table of key = count."""
    raw = parse_toml(text, source)
    try:
        f = msgspec.convert(raw, _DeckFile)
    except msgspec.ValidationError as exc:
        raise Malformed(f"deck file: {exc}", source) from None
    for table in (f.deck, f.ex):
        for key, count in table.items():
            if not isinstance(count, int) or count < 1:
                raise Malformed(f"{key}: count must be at least 1, got {count}{_line_of(text, key)}", source)
    deck = DeckList(name=f.name, leader=f.leader, deck=tuple(k for k, n in f.deck.items() for _ in range(n)),
                    ex=tuple(k for k, n in f.ex.items() for _ in range(n)))
    try:
        return validate(deck)
    except InvalidDeck as exc:
        culprit = next((k for k in (*f.deck, *f.ex, f.leader) if k in exc.reason), "")
        raise InvalidDeck(exc.clause, exc.reason + (_line_of(text, culprit) if culprit else ""), source) from None


@implements("R-3.1", "R-4.1", "R-4.2", "R-Q16", "R-C11")
def validate(deck: DeckList, where: str | None = None) -> DeckList:
    """R-4.1: 45 characters + 5 霊撃, at most 3 of a printed name unless the card says otherwise
    (R-Q16, R-C11); R-4.2: 20 spells, at most 2 of a name; one leader."""
    known = catalog()
    unknown = sorted({k for k in (*deck.deck, *deck.ex, deck.leader) if k not in known})
    if unknown:
        raise InvalidDeck("R-4.1", f"deck {deck.name!r} names unknown cards: {', '.join(unknown)}", where)
    if known[deck.leader].type != "leader":
        raise InvalidDeck("R-3.1", f"deck {deck.name!r}: {deck.leader} is not a leader card", where)
    kinds = Counter(known[k].type for k in deck.deck)
    wrong = sorted({k for k in deck.deck if known[k].type not in ("character", "reigeki")})
    if wrong:
        raise InvalidDeck("R-4.1", f"the deck holds characters and 霊撃 only, not: {', '.join(wrong)}", where)
    if kinds["character"] != CHARACTERS or kinds["reigeki"] != REIGEKI_COUNT:
        raise InvalidDeck("R-4.1", f"deck {deck.name!r} has {kinds['character']} characters and "
                                   f"{kinds['reigeki']} 霊撃; it needs {CHARACTERS} and {REIGEKI_COUNT}", where)
    names = Counter(known[k].printed_name for k in deck.deck if known[k].type == "character")
    for name, n in names.items():
        cap = max((known[k].max_copies for k in deck.deck if known[k].printed_name == name), default=0) \
            or COPIES_MAX
        if n > cap:
            raise InvalidDeck("R-4.1", f"deck {deck.name!r} has {n} cards named {name}; at most {cap}", where)
    wrong = sorted({k for k in deck.ex if known[k].type != "spell"})
    if wrong:
        raise InvalidDeck("R-4.2", f"the Ex deck holds spells only, not: {', '.join(wrong)}", where)
    if len(deck.ex) != EX_SIZE:
        raise InvalidDeck("R-4.2", f"deck {deck.name!r} has {len(deck.ex)} spells in its Ex deck; it needs {EX_SIZE}",
                          where)
    for name, n in Counter(known[k].printed_name for k in deck.ex).items():
        if n > SPELL_COPIES_MAX:
            raise InvalidDeck("R-4.2", f"deck {deck.name!r} has {n} copies of {name} in its Ex deck; at most "
                                       f"{SPELL_COPIES_MAX}", where)
    return deck


BOOK = DeckBook("kifu.domain.reigeki", parse_deck, "R-4.1")


def normalize(decks: list[Any]) -> list[DeckList]:
    return normalize_pair(decks, DeckList, validate, "R-4.1")
