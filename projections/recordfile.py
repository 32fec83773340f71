"""Reading and writing ``.kifu.jsonl`` files (the pure format lives in ``domain.core.record``)."""
from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import msgspec

from domain.core.envelope import Envelope
from domain.core.errors import Malformed
from domain.core.header import Header
from domain.core.record import decode_record, encode_record, source_format
from domain.core.ruleset import Ruleset

RECORD_SUFFIX = ".kifu.jsonl"


class Record(msgspec.Struct, frozen=True):
    header: Header
    envelopes: list[Envelope[Any]]
    ruleset: Any  # Ruleset
    source_format: int | None = None  # the format the file was written in (the header says the current one)

    @property
    def rules(self) -> Ruleset[Any, Any, Any]:
        return self.ruleset


def is_record(path: Path) -> bool:
    return path.name.endswith((RECORD_SUFFIX, RECORD_SUFFIX + ".gz"))


def find_records(paths: list[str] | tuple[str, ...]) -> list[Path]:
    """Files as given, and every record under a directory (sorted), each once."""
    found: list[Path] = []
    for name in paths:
        p = Path(name)
        found.extend(sorted(q for q in p.rglob("*.kifu.jsonl*") if is_record(q)) if p.is_dir() else [p])
    return list(dict.fromkeys(found))


def read_record(path: str | Path) -> Record:
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise Malformed("no such file", str(p)) from None
    except IsADirectoryError:
        raise Malformed("is a directory, not a record", str(p)) from None
    except OSError as exc:
        raise Malformed(f"cannot read ({exc.strerror})", str(p)) from None
    header, envelopes, ruleset = decode_record(data, str(p))
    return Record(header=header, envelopes=envelopes, ruleset=ruleset, source_format=source_format(data))


def write_record(path: str | Path, header: Header, envelopes: list[Envelope[Any]]) -> int:
    """Write atomically (temp file then rename) so a crash never leaves half a record.

    A ``.gz`` path is written gzip-compressed (deterministically: no name, no time stamp)."""
    p = Path(path)
    data = encode_record(header, envelopes)
    if p.name.endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(p)
    return len(data)
