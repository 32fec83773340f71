"""The end of a record: a last line that says how many events it holds and where its chain ends.

A finished match's record ends with ``{"kifu": "end", "match_id", "events": M, "chain": <link
of seq M>, "outcome"}``, signed when a key was at hand (``signer``, ``key``, ``signature``: see
``kifu.domain.core.signing``). The chain link of seq M already commits to the header and to every
event, so the mark pins the whole record: a record cut after a decision (its last events and
their chain gone, the mark kept) fails with "record ends at seq N of M"; a record whose mark is
gone too is no longer signed, and says so ("unsigned").
"""
from __future__ import annotations

import msgspec

from .errors import Malformed

END_PREFIX = b'{"kifu":"end"'


def is_end(line: bytes) -> bool:
    """Whether a record line is an end mark (a JSON object whose "kifu" is "end")."""
    if b'"end"' not in line[:200]:
        return False
    try:
        raw = msgspec.json.decode(line)
    except (msgspec.DecodeError, RecursionError):
        return False
    return isinstance(raw, dict) and raw.get("kifu") == "end"


class EndMark(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    kifu: str = "end"
    match_id: str
    events: int
    chain: str
    outcome: str = ""
    signer: str = ""
    key: str = ""             # the signer's Ed25519 public key, base64 (32 bytes)
    signature: str = ""       # Ed25519 over ``signed_bytes`` of this mark, base64

    def unsigned(self) -> EndMark:
        return msgspec.structs.replace(self, signature="")


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(EndMark)


def end_bytes(mark: EndMark) -> bytes:
    """The mark's line (canonical: declaration order, every field written)."""
    return _encoder.encode(mark)


def signed_bytes(mark: EndMark) -> bytes:
    """What the signature covers: a domain tag and the mark without its signature."""
    return b"kifu-end\n" + end_bytes(mark.unsigned())


def decode_end(line: bytes, where: str) -> EndMark:
    try:
        mark = _decoder.decode(line)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise Malformed(f"end mark: {exc}", where) from None
    if mark.kifu != "end" or mark.events < 0:
        raise Malformed("end mark: not a Kifu end mark", where)
    return mark
