"""The record header: everything needed to re-run a match from nothing but its decisions."""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.version import ENGINE_VERSION, FORMAT_VERSION


class Header(msgspec.Struct, frozen=True, kw_only=True):
    """Always written in full (the magic "kifu" and the "format" are on every record), except the
    optional fields of ``OPTIONAL``, which are left out while unset so that records written before
    they existed keep their bytes (and so their chain)."""

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
    seed_commitment: str | None = None     # BLAKE2b(seed, nonce): a served match commits before play
    seed_nonce: str | None = None          # judge only until the SeedRevealed event at the end
    event: str | None = None               # tournament metadata: the event's name,
    round: str | None = None               # the round, the table,
    table: str | None = None
    date: str | None = None                # and when the match was created (ISO 8601, UTC), by the CLI or service
    position: str | None = None            # the text of the start position a match was started from
    #   (``kifu play --position``, ``kifu fork --position``), in its ruleset's notation
    seats: tuple[str, str] | None = None   # who decides at each seat: "human" or a bot's name (kifu play);
                                           # a decision taken by someone else says so in its envelope's ``by``
    forked_chain: str | None = None        # a fork's origin's chain link at ``forked_at``: which record, to the byte,
                                           # the fork leaves (a variation of that position)


OPTIONAL = ("seed_commitment", "seed_nonce", "event", "round", "table", "date", "position", "seats", "forked_chain")
TOURNAMENT = ("event", "round", "table", "date")

_encoder = msgspec.json.Encoder()


def header_bytes(header: Header) -> bytes:
    """The header's canonical line: declaration order, the unset optional fields left out."""
    return _encoder.encode({k: v for k, v in msgspec.to_builtins(header).items()
                            if not (k in OPTIONAL and v is None)})


def for_seat(header: Header) -> Header:
    """The header as a seat may see it: the seed and its nonce stay with the judge until the end."""
    return msgspec.structs.replace(header, seed=0, seed_nonce=None)
