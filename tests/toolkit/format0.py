"""Writing a record in the legacy format 0, to test that Kifu still reads it (upcasting).

Format 0 is what Kifu wrote before format 1: the header said ``rules`` and ``engine`` where
format 1 says ``rules_version`` and ``engine_version``, and each envelope cited its clause as
``clause_id``. Its chain hashed the lines exactly as written. ``tests/toolkit/data/format0-*.kifu.jsonl``
was made by ``downcast`` (``python tests/toolkit/format0.py IN OUT``) and is kept as it is.
"""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import msgspec

_HEADER = {"rules_version": "rules", "engine_version": "engine"}
_ENVELOPE = {"clause": "clause_id"}


def _encode(line: dict[str, Any]) -> bytes:
    return msgspec.json.encode(line)


def _link(previous: str, line: dict[str, Any]) -> str:
    body = _encode({k: v for k, v in line.items() if k != "chain"})
    return hashlib.blake2b(previous.encode() + body, digest_size=16).hexdigest()


def downcast(record: bytes) -> bytes:
    """A format-1 record rewritten as format 0, its chain re-derived the format-0 way."""
    first, *rest = [msgspec.json.decode(line) for line in record.splitlines() if line.strip()]
    header = {_HEADER.get(k, k): v for k, v in first.items()}
    header["format"] = 0
    header_line = _encode(header)
    head = hashlib.blake2b(header_line, digest_size=16).hexdigest()
    out = [header_line]
    for env in rest:
        line = {_ENVELOPE.get(k, k): v for k, v in env.items() if k != "chain"}
        head = _link(head, line)
        line["chain"] = head
        out.append(_encode(line))
    return b"\n".join(out) + b"\n"


if __name__ == "__main__":
    Path(sys.argv[2]).write_bytes(downcast(Path(sys.argv[1]).read_bytes()))
