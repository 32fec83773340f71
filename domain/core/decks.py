"""Deck files and preset decks, for any ruleset: text, encodings, presets shipped as data.

A ruleset keeps its own deck rules (what a legal deck is); this module does the rest once:
decodes a deck file's bytes as UTF-8 with or without a BOM (naming the encoding problem
otherwise), parses TOML with errors that name the file, and finds the presets in
``<package>.data.decks``. The rules read no file but their package data: whoever was given a
deck file's path (the CLI) reads its bytes and hands over the text with the file's name.
"""
from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable
from importlib import resources
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from .errors import InvalidDeck, Malformed

D = TypeVar("D")


def decode_text(data: bytes, source: str) -> str:
    """A deck file's bytes as UTF-8 text (a BOM is dropped); another encoding is a clear Malformed
    error naming ``source`` (the file)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Malformed(f"not UTF-8 text (byte {exc.start}); save the deck file as UTF-8", source) from None


def parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Malformed(f"not valid TOML ({exc})", source) from None


class LoadDeck(Protocol):
    """A ruleset's decks: a preset by name, or with ``text`` a deck file's (``spec`` names the file)."""

    def __call__(self, spec: str, text: str | None = None) -> Any: ...


def as_given(spec: str, text: str | None = None) -> Any:
    """The decks of a ruleset without deck files: a deck is what the caller gave."""
    return spec


class DeckBook(Generic[D]):
    """The presets of one ruleset and how a preset name, or a deck file's text, becomes a deck.

    ``parse(text, source)`` is the ruleset's: it turns a deck file into its deck struct, raising
    Malformed or InvalidDeck (with the clause) for a bad one."""

    def __init__(self, package: str, parse: Callable[[str, str], D], clause: str) -> None:
        self.package = package
        self.parse = parse
        self.clause = clause

    def _folder(self) -> Any:
        return resources.files(f"{self.package}.data").joinpath("decks")

    def preset_names(self) -> list[str]:
        return sorted(p.name.removesuffix(".toml") for p in self._folder().iterdir() if p.name.endswith(".toml"))

    def preset(self, name: str) -> D:
        path = self._folder().joinpath(f"{name}.toml")
        if not path.is_file():
            names = self.preset_names()
            close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InvalidDeck(self.clause, f"no preset deck {name!r}{hint}; presets: {', '.join(names)}")
        return self.parse(path.read_text("utf-8"), f"{name}.toml")

    def load(self, spec: str, text: str | None = None) -> D:
        """A preset's deck (``spec`` one of ``preset_names``), or with ``text`` a deck file's: its
        text as read by the caller, ``spec`` the file's name for the errors."""
        if text is not None:
            return self.parse(text, spec)
        return self.preset(spec)


def line_of(text: str, key: str) -> int | None:
    """The line of a deck file where ``key`` is written (quoted or bare), to name it in an error."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith((f'"{key}"', f"{key} ", f"{key}=")):
            return number
    return None


def normalize_pair(decks: list[Any], deck_type: type[D], validate: Callable[[D, str], D], clause: str) -> list[D]:
    """A match's two decks, as deck structs or their decoded dicts (a record header), each validated."""
    if len(decks) != 2:
        raise InvalidDeck(clause, f"a match has two players and so two decks, got {len(decks)}")
    out = []
    for seat, deck in enumerate(decks, start=1):
        if not isinstance(deck, deck_type):
            try:
                deck = msgspec.convert(deck, deck_type)
            except msgspec.ValidationError as exc:
                raise Malformed(f"deck of seat {seat}: {exc}") from None
        out.append(validate(deck, f"seat {seat}"))
    return out


class _CardTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    cards: dict[str, int]


def card_table(text: str, source: str) -> tuple[str, list[tuple[str, int, str]]]:
    """A deck file of ``name`` and a ``[cards]`` table of card name = count: the deck's name and,
    per card, (name, count, where: the file and its line), for the ruleset's own checks."""
    try:
        deck = msgspec.convert(parse_toml(text, source), _CardTable)
    except msgspec.ValidationError as exc:
        raise Malformed(f"deck file: {exc}", source) from None
    rows = []
    for name, count in deck.cards.items():
        number = line_of(text, name)
        rows.append((name, count, f"{source}, line {number}" if number else source))
    return deck.name, rows
