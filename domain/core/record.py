"""The portable record ``.kifu.jsonl``: a header line, then one chained envelope per line.

Pure bytes in, structs out: file handling belongs to the callers. Gzip-compressed records are
read transparently. Errors name the line and field, never a traceback.
"""
from __future__ import annotations

import gzip
from typing import Any, Iterable

import msgspec

from domain.version import FORMAT_VERSION

from .envelope import Envelope, canonical, genesis, link
from .errors import Malformed
from .header import Header
from .ruleset import Ruleset, find_ruleset

_header_decoder = msgspec.json.Decoder(Header)
_raw_decoder = msgspec.json.Decoder()


def encode_record(header: Header, envelopes: Iterable[Envelope[Any]]) -> bytes:
    lines = [canonical(header)]
    lines.extend(canonical(env) for env in envelopes)
    return b"\n".join(lines) + b"\n"


def _lines(data: bytes) -> list[bytes]:
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise Malformed(f"not a readable gzip file ({exc})") from None
    return [line for line in data.split(b"\n") if line.strip()]


def decode_header(line: bytes, where: str = "line 1") -> Header:
    try:
        raw = _raw_decoder.decode(line)
    except msgspec.DecodeError as exc:
        raise Malformed(f"header is not JSON ({exc})", where) from None
    if not isinstance(raw, dict) or raw.get("kifu") != "match":
        raise Malformed('not a Kifu record (the header has no "kifu": "match")', where)
    fmt = raw.get("format")
    if not isinstance(fmt, int) or fmt > FORMAT_VERSION or fmt < 1:
        raise Malformed(f"record format {fmt!r} is not one this Kifu reads (it reads 1..{FORMAT_VERSION});"
                        " a newer Kifu wrote it", where)
    try:
        return msgspec.convert(raw, Header)
    except msgspec.ValidationError as exc:
        raise Malformed(f"header: {exc}", where) from None


def decode_record(data: bytes, source: str = "record") -> tuple[Header, list[Envelope[Any]], Ruleset[Any, Any, Any]]:
    """Parse a whole record; raises ``Malformed`` naming the line of the first bad envelope."""
    lines = _lines(data)
    if not lines:
        raise Malformed("empty file", source)
    header = decode_header(lines[0], f"{source}: line 1")
    ruleset = find_ruleset(header.ruleset)
    decoder = ruleset.envelope_decoder()
    envelopes: list[Envelope[Any]] = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            env = decoder.decode(line)
        except msgspec.ValidationError as exc:
            raise Malformed(f"event does not match the {ruleset.name} schema: {exc}", f"{source}: line {number}") from None
        except msgspec.DecodeError as exc:
            raise Malformed(f"not JSON ({exc})", f"{source}: line {number}") from None
        expected = len(envelopes) + 1
        if env.seq != expected:
            raise Malformed(f"seq {env.seq} where seq {expected} was expected", f"{source}: line {number}")
        envelopes.append(env)
    return header, envelopes, ruleset


def first_broken_link(header: Header, envelopes: list[Envelope[Any]]) -> int | None:
    """The seq of the first envelope whose chain hash does not match, or None if intact."""
    head = genesis(canonical(header))
    for env in envelopes:
        head = link(head, env)
        if env.chain != head:
            return env.seq
    return None
