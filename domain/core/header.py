"""The record header: everything needed to re-run a match from nothing but its decisions."""
from __future__ import annotations

from typing import Any

import msgspec

from domain.version import ENGINE_VERSION, FORMAT_VERSION


class Header(msgspec.Struct, frozen=True, kw_only=True):
    """Always written in full: the magic "kifu" and the "format" must be on every record."""

    kifu: str = "match"
    format: int = FORMAT_VERSION
    match_id: str
    ruleset: str
    rules_version: str
    engine_version: str = ENGINE_VERSION
    card_set: str
    seed: int
    players: tuple[str, str]
    decks: tuple[Any, ...]
    forked_from: str | None = None
    forked_at: int | None = None
    start: Any = None
