"""Reading and writing ``.kifu.jsonl`` files (the pure format lives in ``kifu.domain.core.record``)."""
from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import Any, cast

import msgspec

from kifu.domain.core.endmark import EndMark
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Malformed
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.record import READ_CHUNK, Limits, decode_lines, encode_record, record_lines, source_format
from kifu.domain.core.ruleset import Ruleset
from kifu.domain.core.signing import Signer, closing_mark

RECORD_SUFFIX = ".kifu.jsonl"


class Record(msgspec.Struct, frozen=True):
    header: Header
    envelopes: list[Envelope[Any]]
    ruleset: Any  # Ruleset
    source_format: int | None = None  # the format the file was written in (the header says the current one)
    end: EndMark | None = None        # the end mark (a finished match's record, signed or not)

    @property
    def rules(self) -> Ruleset[Any, Any, Any]:
        return cast("Ruleset[Any, Any, Any]", self.ruleset)


def is_record(path: Path) -> bool:
    return path.name.endswith((RECORD_SUFFIX, RECORD_SUFFIX + ".gz"))


def find_records(paths: list[str] | tuple[str, ...]) -> list[Path]:
    """Files as given, and every record under a directory (sorted), each once."""
    found: list[Path] = []
    for name in paths:
        p = Path(name)
        found.extend(sorted(q for q in p.rglob("*.kifu.jsonl*") if is_record(q)) if p.is_dir() else [p])
    return list(dict.fromkeys(found))


def read_record(path: str | Path, limits: Limits | None = None) -> Record:
    """Read a record streaming, within ``limits`` (line length, decompressed size, JSON depth:
    ``Limits.from_env(os.environ)`` by default): a hostile file is a ``Malformed`` naming what is
    wrong, found before it costs more than the limits allow."""
    p = Path(path)
    limits = limits or Limits.from_env(os.environ)
    try:
        with p.open("rb") as f:
            lines = record_lines(iter(lambda: f.read(READ_CHUNK), b""), str(p), limits)
    except FileNotFoundError:
        raise Malformed("no such file", str(p)) from None
    except IsADirectoryError:
        raise Malformed("is a directory, not a record", str(p)) from None
    except OSError as exc:
        raise Malformed(f"cannot read ({exc.strerror or exc})", str(p)) from None
    header, envelopes, ruleset, end = decode_lines(lines, str(p))
    return Record(header=header, envelopes=envelopes, ruleset=ruleset,
                  source_format=source_format(lines[0]) if lines else None, end=end)


def write_record(path: str | Path, header: Header, envelopes: list[Envelope[Any]], end: EndMark | None = None) -> int:
    """Write atomically (temp file then rename) so a crash never leaves half a record.

    A ``.gz`` path is written gzip-compressed (deterministically: no name, no time stamp)."""
    p = Path(path)
    data = encode_record(header, envelopes, end)
    if p.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(p)
    return len(data)


def write_match(path: str | Path, match: Match, signer: Signer | None = None) -> int:
    """Write a match's record as every local writer must (export, play --out, fork, selfplay):
    a finished match ends with its end mark and event count, signed when ``signer`` is given, so
    a copy cut at a decision boundary fails ``verify`` instead of passing as "unsigned"."""
    return write_record(path, match.header, match.envelopes,
                        closing_mark(match.header, match.envelopes, match.outcome, signer))
