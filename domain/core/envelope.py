"""The envelope every stored event travels in: position, kind, who, which clause, what caused it.

The payload is the ruleset's own tagged event; ``Envelope[E]`` is generic so each ruleset has
one decoder built once. ``digest`` (state after the event) is set on the last event of the setup
and of decisions: every decision in record format 1, the checkpoints in format 2
(``checkpoint``); ``received`` is when a decision arrived (stamped by whoever stores it, never by
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
_sorted = msgspec.json.Encoder(order="sorted")

COMPACT_FORMAT = 2            # the first record format whose rule events leave ``kind`` out
CHECKPOINT = 64               # format 2: a decision crossing a multiple of this many events is digested
RULE_KIND = b',"kind":"rule"'


def canonical(obj: Any) -> bytes:
    """Canonical JSON bytes: field order is declaration order, defaults omitted."""
    return _encoder.encode(obj)


def envelope_line(envelope: Envelope[Any], fmt: int) -> bytes:
    """The envelope's line in a record of format ``fmt``: its canonical JSON, and from format 2 on
    without ``"kind":"rule"`` (most events are the rules' own: the kind a line without one has).

    ``seq`` is an integer written first, so the first ``,"kind":"rule"`` is the envelope's own."""
    body = _encoder.encode(envelope)
    if fmt >= COMPACT_FORMAT and envelope.kind == RULE:
        return body.replace(RULE_KIND, b"", 1)
    return body


def link(previous: str, envelope: Envelope[Any], fmt: int = COMPACT_FORMAT) -> str:
    """Chain hash of ``envelope`` given the previous link (the header's hash for seq 1): of its line
    in a record of format ``fmt``, its chain left out."""
    body = envelope_line(msgspec.structs.replace(envelope, chain="") if envelope.chain else envelope, fmt)
    return _link_of(previous, body)


def chained(previous: str, envelopes: list[Envelope[Any]], fmt: int) -> list[Envelope[Any]]:
    """``envelopes`` (none chained yet: a decision's, fresh from its draft) each with its chain link,
    the first linked to ``previous``.

    ``link`` written out for a run: every event of every kept record comes through here, and the
    call, the check for a chain to leave out and the format test per event were a third of its cost."""
    encode, replace, compact = _encoder.encode, msgspec.structs.replace, fmt >= COMPACT_FORMAT
    out = []
    for env in envelopes:
        body = encode(env)
        if compact and env.kind == RULE:
            body = body.replace(RULE_KIND, b"", 1)
        previous = _link_of(previous, body)
        out.append(replace(env, chain=previous))
    return out


def genesis(header_bytes: bytes) -> str:
    """The link before seq 1: the hash of the record header, so a changed header breaks the chain."""
    return hashlib.blake2b(header_bytes, digest_size=16).hexdigest()


def state_digest(state: Any) -> str:
    """Format 1's short digest of a whole state: of the State struct's JSON in declaration order,
    so a reordered or renamed field changes it (format 2 digests ``sorted_state`` or the
    ruleset's own encoding: ``digest_of``)."""
    return _hashed(canonical(state), 8)


def sorted_state(state: Any) -> bytes:
    """The default canonical encoding of a state (``Decider.canonical_state``): JSON with every
    struct's fields and every dict's keys sorted by their wire names, defaults omitted where the
    struct says so. Independent of the declaration order and of the Python names of fields (a
    ``msgspec`` ``rename`` keeps the wire name)."""
    return _sorted.encode(state)


def digest_of(encoded: bytes) -> str:
    """Format 2's short state digest, of a state's canonical encoding."""
    return _hashed(encoded, 8)


def checkpoint(first: int, last: int, over: bool) -> bool:
    """Format 2: is the decision spanning seqs ``first``..``last`` digested? When it crosses a
    multiple of ``CHECKPOINT`` events, or ends the match (``over``); the setup always is."""
    return over or last // CHECKPOINT != (first - 1) // CHECKPOINT


def at_rest(envelopes: list[Envelope[Any]], seq: int) -> bool:
    """After ``seq`` the rules are at rest: it is the last event of the setup or of a decision (the
    next event is not a rule's consequence of it). Any format: digests no longer mark it."""
    if not 1 <= seq <= len(envelopes):
        return False
    return seq == len(envelopes) or envelopes[seq].kind not in (RULE, SETUP)


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


# A chain link's hasher copied from one made once: ``blake2b(digest_size=16)`` parses its eleven
# keyword parameters and fills its parameter block on every call, a tenth of a link's cost.
_LINK = hashlib.blake2b(digest_size=16)


def _link_of(previous: str, body: bytes) -> str:
    """The chain link after ``previous`` of an envelope whose line is ``body``."""
    data = previous.encode() + body
    if len(data) >= _PIECE:            # (a rare long line: in pieces, as ``_hashed`` feeds a state)
        return _hashed(data, 16)
    h = _LINK.copy()
    h.update(data)
    return h.hexdigest()
