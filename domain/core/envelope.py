"""The envelope every stored event travels in: position, kind, who, which clause, what caused it.

The payload is the ruleset's own tagged event; ``Envelope[E]`` is generic so each ruleset has
one decoder built once. ``digest`` (state after the event) is set at least on the last event of
every decision; ``received`` is when a decision arrived (stamped by whoever stores it, never by
``decide``: audit re-runs with the recorded stamp), ``by`` who took it when that is not who
the header seats there (a takeover); ``chain`` hash-links the record so an edited
line (a changed time included) is caught at its seq. The clock itself is read outside the rules
(``kifu.store.clock``).
"""
from __future__ import annotations

import hashlib
from typing import Any, Generic, Literal, TypeVar

import msgspec

E = TypeVar("E")

Kind = Literal["setup", "decision", "rule", "judge"]
SETUP: Kind = "setup"
DECISION: Kind = "decision"
RULE: Kind = "rule"
JUDGE: Kind = "judge"          # a judge's act (``judging.py``): a call, ruling, backup, penalty, extension, result


# gc=False: an envelope is a frozen tree of numbers, strings and an event that never points back
# at it, so it can never be in a reference cycle; untracked, the thousands a match holds cost the
# cyclic collector nothing (self-play ran 119 young collections per 20 matches, now 22).
class Envelope(msgspec.Struct, Generic[E], frozen=True, omit_defaults=True, gc=False):
    seq: int
    kind: Kind
    event: E
    seat: int | None = None
    clause: str | None = None
    cause: int | None = None
    digest: str | None = None
    received: str | None = None    # when the service or CLI took the decision (ISO 8601 UTC); chained, not decided
    by: str | None = None          # who took a decision when not the seat's kind in the header (a bot standing
                                   # in for a human after ``kifu play --resume``); chained, not decided
    chain: str = ""


_encoder = msgspec.json.Encoder()


def canonical(obj: Any) -> bytes:
    """Canonical JSON bytes: field order is declaration order, defaults omitted."""
    return _encoder.encode(obj)


def link(previous: str, envelope: Envelope[Any]) -> str:
    """Chain hash of ``envelope`` given the previous link (the header's hash for seq 1)."""
    body = canonical(msgspec.structs.replace(envelope, chain="")) if envelope.chain else canonical(envelope)
    return _hashed(previous.encode() + body, 16)


def genesis(header_bytes: bytes) -> str:
    """The link before seq 1: the hash of the record header, so a changed header breaks the chain."""
    return hashlib.blake2b(header_bytes, digest_size=16).hexdigest()


def state_digest(state: Any) -> str:
    """Short digest of a whole state: a changed fold shows up even when rulings agree."""
    return _hashed(canonical(state), 8)


# hashlib lets go of the interpreter lock while it hashes 2,048 bytes or more in one call; a state
# is several KB, hashed in a few microseconds, and in the threaded service letting go hands the
# lock to another thread (a context switch) and waits to get it back. Fed in pieces under that
# size it keeps the lock: the same digest, without the round trip.
_PIECE = 2000


def _hashed(data: bytes, size: int) -> str:
    h = hashlib.blake2b(digest_size=size)
    for start in range(0, len(data), _PIECE):
        h.update(data[start:start + _PIECE])
    return h.hexdigest()
