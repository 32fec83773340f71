"""Deck specs from the command line: a preset name or a deck file, with errors a user can act on.

The ruleset says what a legal deck is (``load_deck`` raises ``InvalidDeck`` naming the clause);
here a bad deck *file* becomes a malformed-input error (exit 2) that names the file, the line and
the field, and an unknown card name gets a "did you mean" from the ruleset's catalogue."""
from __future__ import annotations

import difflib
import re
import tomllib
from pathlib import Path
from typing import Any

from kifu.domain.core.decks import line_of, read_text
from kifu.domain.core.errors import InvalidDeck, Malformed
from kifu.domain.core.ruleset import Ruleset


def is_file(spec: str) -> bool:
    return spec.endswith(".toml") or Path(spec).is_file()


def load(rules: Ruleset[Any, Any, Any], spec: str) -> Any:
    """``rules.load_deck(spec)``; a bad deck file is reported as ``file:line: field: reason``."""
    try:
        return rules.content.load_deck(spec)
    except InvalidDeck as exc:
        if not is_file(spec):
            raise
        raise Malformed(_located(rules, spec, exc), spec) from None


def _located(rules: Ruleset[Any, Any, Any], path: str, exc: InvalidDeck) -> str:
    text = read_text(path)
    known = [row.name for row in rules.content.catalogue().rows]
    reason = f"invalid deck ({exc.clause}): {exc.reason}"
    for table, name in _named_cards(text):
        if known and name not in known:
            guess = difflib.get_close_matches(name, known, n=1, cutoff=0.4)
            hint = f"; did you mean {guess[0]!r}?" if guess else ""
            return f"line {line_of(text, name) or '?'}: {table}.{name}: no such card in {rules.name}{hint} ({reason})"
    for name in re.findall(r"'([^']+)'|\"([^\"]+)\"", exc.reason):
        word = next(n for n in name if n)
        at = line_of(text, word)
        if at is not None:
            return f"line {at}: {word}: {reason}"
    for number, line in enumerate(text.splitlines(), start=1):   # a count or size: the card table
        if line.strip().startswith("[") and not line.strip().startswith("[["):
            return f"line {number}: {line.strip()}: {reason}"
    return reason


def _named_cards(text: str) -> list[tuple[str, str]]:
    """(table, card name) for every key of the file's tables, and every name in a list field."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    out: list[tuple[str, str]] = []
    for key, value in raw.items():
        if isinstance(value, dict):
            out.extend((key, name) for name in value)
        elif isinstance(value, list):
            out.extend((key, name) for name in value if isinstance(name, str))
    return out
