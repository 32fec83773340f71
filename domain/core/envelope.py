"""The envelope every stored event travels in: position, kind, who, which clause, what caused it.

The payload is the ruleset's own tagged event; ``Envelope[E]`` is generic so each ruleset has
one decoder built once. ``digest`` (state after the event) is set at least on the last event of
every decision; ``received`` is when a decision arrived (stamped by whoever stores it, never by
``decide``: audit re-runs with the recorded stamp); ``chain`` hash-links the record so an edited
line (a changed time included) is caught at its seq.
"""
from __future__ import annotations

import hashlib
from typing import Any, Generic, Literal, TypeVar

import msgspec

E = TypeVar("E")

Kind = Literal["setup", "decision", "rule"]
SETUP: Kind = "setup"
DECISION: Kind = "decision"
RULE: Kind = "rule"


class Envelope(msgspec.Struct, Generic[E], frozen=True, kw_only=True, omit_defaults=True):
    seq: int
    kind: Kind
    event: E
    seat: int | None = None
    clause: str | None = None
    cause: int | None = None
    digest: str | None = None
    received: str | None = None    # when the service or CLI took the decision (ISO 8601 UTC); chained, not decided
    chain: str = ""


_encoder = msgspec.json.Encoder()


def canonical(obj: Any) -> bytes:
    """Canonical JSON bytes: field order is declaration order, defaults omitted."""
    return _encoder.encode(obj)


def link(previous: str, envelope: Envelope[Any]) -> str:
    """Chain hash of ``envelope`` given the previous link (the header's hash for seq 1)."""
    body = canonical(msgspec.structs.replace(envelope, chain="")) if envelope.chain else canonical(envelope)
    return hashlib.blake2b(previous.encode() + body, digest_size=16).hexdigest()


def genesis(header_bytes: bytes) -> str:
    """The link before seq 1: the hash of the record header, so a changed header breaks the chain."""
    return hashlib.blake2b(header_bytes, digest_size=16).hexdigest()


def state_digest(state: Any) -> str:
    """Short digest of a whole state: a changed fold shows up even when rulings agree.

    The hash of ``canonical(state)``. A state type may name, as ``DIGEST_FIXED``, leading fields
    that stay the same object through a match (WORLFARD: the card names, over half the bytes):
    their part of the JSON is encoded and hashed once per match, and each digest hashes on from
    a copy of that — the same bytes, so the same digest."""
    fixed = getattr(state, "DIGEST_FIXED", None)
    if not fixed:
        return hashlib.blake2b(canonical(state), digest_size=8).hexdigest()
    values = tuple(getattr(state, name) for name in fixed)
    found = _primed.get(tuple(map(id, values)))
    if found is None or any(a is not b for a, b in zip(found[0], values)):
        found = _prime(state, fixed, values)
    rest = canonical(msgspec.structs.replace(state, **dict.fromkeys(fixed)))
    hasher = found[1].copy()
    hasher.update(memoryview(rest)[found[2]:])
    return hasher.hexdigest()


# ids of a state's fixed values -> (the values, a hasher fed their JSON, length of the same JSON with nulls)
_primed: dict[tuple[int, ...], tuple[tuple[Any, ...], Any, int]] = {}


def _prime(state: Any, fixed: tuple[str, ...], values: tuple[Any, ...]) -> tuple[tuple[Any, ...], Any, int]:
    fields = msgspec.structs.fields(state)
    leading = fields[:len(fixed)]
    if tuple(f.name for f in leading) != tuple(fixed) or any(
            f.encode_name != f.name or f.default is not msgspec.NODEFAULT or f.default_factory is not msgspec.NODEFAULT
            for f in leading) or state.__struct_config__.tag is not None or state.__struct_config__.array_like:
        raise TypeError(f"{type(state).__name__}.DIGEST_FIXED must name its leading required fields, in order")
    head = b"{" + b",".join(b'"%s":%s' % (name.encode(), canonical(v)) for name, v in zip(fixed, values))
    nulls = b"{" + b",".join(b'"%s":null' % name.encode() for name in fixed)
    hasher = hashlib.blake2b(digest_size=8)
    hasher.update(head)
    if len(_primed) > 64:
        _primed.clear()
    found = _primed[tuple(map(id, values))] = (values, hasher, len(nulls))
    return found
