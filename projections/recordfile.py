"""Reading and writing ``.kifu.jsonl`` files (the pure format lives in ``domain.core.record``)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.core.envelope import Envelope
from domain.core.errors import Malformed
from domain.core.header import Header
from domain.core.record import decode_record, encode_record
from domain.core.ruleset import Ruleset


class Record(msgspec.Struct, frozen=True):
    header: Header
    envelopes: list[Envelope[Any]]
    ruleset: Any  # Ruleset

    @property
    def rules(self) -> Ruleset[Any, Any, Any]:
        return self.ruleset


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
    return Record(header=header, envelopes=envelopes, ruleset=ruleset)


def write_record(path: str | Path, header: Header, envelopes: list[Envelope[Any]]) -> int:
    """Write atomically (temp file then rename) so a crash never leaves half a record."""
    p = Path(path)
    data = encode_record(header, envelopes)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(p)
    return len(data)
