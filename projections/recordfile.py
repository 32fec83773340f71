"""Reading and writing ``.kifu.jsonl`` files (the pure format lives in ``kifu.domain.core.record``)."""
from __future__ import annotations

import errno
import gzip
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import msgspec

from kifu.domain.core.endmark import EndMark
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Malformed
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.notes import Note, is_note
from kifu.domain.core.record import (
    READ_CHUNK,
    Limits,
    decode_lines,
    decode_notes,
    encode_record,
    record_lines,
    source_format,
)
from kifu.domain.core.ruleset import Ruleset
from kifu.domain.core.signing import Signer, closing_mark

RECORD_SUFFIX = ".kifu.jsonl"


class Record(msgspec.Struct, frozen=True):
    header: Header
    envelopes: list[Envelope[Any]]
    ruleset: Any  # Ruleset
    source_format: int | None = None  # the format the file was written in (the header says the current one)
    end: EndMark | None = None        # the end mark (a finished match's record, signed or not)
    notes: tuple[Note, ...] = ()      # its notes section (after the end mark, outside the chain)

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


def stray_files(paths: list[str] | tuple[str, ...]) -> list[Path]:
    """``*.jsonl`` files under the directories given that ``find_records`` passes over (not named
    ``*.kifu.jsonl``): said, so a folder import or audit never skips a file silently."""
    return sorted(q for name in paths if Path(name).is_dir()
                  for q in Path(name).rglob("*.jsonl*") if not is_record(q) and q.is_file())


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
    notes = decode_notes(lines, str(p)) if lines and is_note(lines[-1]) else []
    return Record(header=header, envelopes=envelopes, ruleset=ruleset,
                  source_format=source_format(lines[0]) if lines else None, end=end, notes=tuple(notes))


def record_bytes(path: str | Path, header: Header, envelopes: list[Envelope[Any]], end: EndMark | None = None,
                 notes: Sequence[Note] = ()) -> bytes:
    """A record's bytes as ``path`` wants them: a ``.gz`` name gzip-compressed (deterministically:
    no name, no time stamp), any other name (or ``-``) plain; ``notes`` after the end mark."""
    data = encode_record(header, envelopes, end, notes)
    return gzip.compress(data, mtime=0) if str(path).endswith(".gz") else data


def write_file(path: str | Path, data: bytes) -> None:
    """Put ``data`` at ``path`` without ever replacing what is not a regular file there.

    A regular file (or a new name) is written atomically: a temp file in the same folder, then
    a rename over it, so a crash never leaves half a record and the old mode is kept. A symlink
    is followed (its target is written, the link stays); a device or a fifo (``/dev/null``, a
    pipe) is written through as it is, never replaced by a regular file."""
    target = Path(os.path.realpath(path))
    try:
        mode: int | None = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "wb") as f:
            f.write(data)
        return
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_record(path: str | Path, header: Header, envelopes: list[Envelope[Any]], end: EndMark | None = None,
                 notes: Sequence[Note] = ()) -> int:
    """Write a record as ``write_file`` writes (atomically, never over a device); returns its size."""
    data = record_bytes(path, header, envelopes, end, notes)
    write_file(path, data)
    return len(data)


def match_bytes(path: str | Path, match: Match, signer: Signer | None = None, notes: Sequence[Note] = ()) -> bytes:
    """A match's record as every local writer must make it (export, play --out, fork, selfplay):
    a finished match ends with its end mark and event count, signed when ``signer`` is given, so
    a copy cut at a decision boundary fails ``verify`` instead of passing as "unsigned"."""
    return record_bytes(path, match.header, match.envelopes,
                        closing_mark(match.header, match.envelopes, match.outcome, signer), notes)


def write_match(path: str | Path, match: Match, signer: Signer | None = None) -> int:
    """``match_bytes`` written as ``write_file`` writes; returns the size."""
    data = match_bytes(path, match, signer)
    write_file(path, data)
    return len(data)
