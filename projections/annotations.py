"""Notes and variations as the front ends show them: one line a note, forks found beside a record.

A variation is a match forked from this one (its header's ``forked_from``): it leaves the
position after ``forked_at``; its ``forked_chain`` (the origin's link there) says whether it
left this very record (``same``), an edited copy of it (``False``), or cannot tell (``None``:
a fork made before the header kept the link, or from ``--position``).
"""
from __future__ import annotations

import gzip
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import KifuError
from kifu.domain.core.header import Header
from kifu.domain.core.notes import Note
from kifu.domain.core.record import decode_header

from .recordfile import is_record


class Variation(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    at: int | None                 # the origin's seq it leaves (None: forked from a position given as text)
    same: bool | None = None       # its forked_chain is this record's link at ``at`` (None: not recorded)
    where: str = ""                # "store", or the file it was found in
    noted: bool = False            # linked by a note (``variation``) rather than found


def variation(origin: Sequence[Envelope[Any]], fork: Header, where: str) -> Variation:
    at = fork.forked_at
    same = None
    if fork.forked_chain is not None and at is not None:
        same = 1 <= at <= len(origin) and origin[at - 1].chain == fork.forked_chain
    return Variation(match_id=fork.match_id, at=at, same=same, where=where)


def variations(header: Header, envelopes: Sequence[Envelope[Any]], candidates: Iterable[tuple[str, Header]],
               notes: Iterable[Note] = ()) -> list[Variation]:
    """The forks of ``header``'s match among ``candidates`` (where each was found, its header),
    then the matches notes link as variations that were not found, by the seq they leave."""
    found = {h.match_id: variation(envelopes, h, where) for where, h in candidates
             if h.forked_from == header.match_id and h.match_id != header.match_id}
    for note in notes:
        if note.variation and note.variation not in found:
            found[note.variation] = Variation(match_id=note.variation, at=note.seq, noted=True)
    return sorted(found.values(), key=lambda v: (v.at if v.at is not None else -1, v.match_id))


def read_header(path: Path) -> Header | None:
    """A record file's header alone (its first line), or None if it is no readable record."""
    try:
        opener: Any = gzip.open if path.name.endswith(".gz") else open
        with opener(path, "rb") as f:
            first = f.readline(1 << 20)
        return decode_header(first.rstrip(b"\n"), str(path))
    except (OSError, EOFError, KifuError):
        return None


def headers_beside(path: str | Path) -> list[tuple[str, Header]]:
    """The headers of the record files in the folder of ``path`` (itself left out; not below it)."""
    here = Path(path).resolve()
    out = []
    for other in sorted(q for q in here.parent.glob("*.kifu.jsonl*") if is_record(q)):
        if other.resolve() != here:
            h = read_header(other)
            if h is not None:
                out.append((str(other), h))
    return out


def note_line(note: Note) -> str:
    """One note as a line: ``#12 ?! ann (judge): text → 12-30 ⑂ <match>``."""
    who = note.author + (f" ({note.role})" if note.role else "")
    parts = [f"#{note.seq}" if note.seq else "match", note.glyph, f"{who}:", note.text]
    if note.arrows:
        parts.append("→ " + ", ".join(note.arrows))
    if note.variation:
        parts.append(f"⑂ {note.variation}")
    if note.public:
        parts.append("[public]")
    return " ".join(p for p in parts if p)


def near(notes: Iterable[Note], seq: int, span: int = 0) -> list[Note]:
    """The notes on events ``seq - span`` .. ``seq + span``."""
    return [n for n in notes if abs(n.seq - seq) <= span]


def viewer_meta(notes: Iterable[Note], found: Iterable[Variation]) -> dict[str, Any]:
    """What the web viewer's meta gets: each note as its seq and line, each variation as its id
    and the seq it leaves (the notes already those the page's viewer may see)."""
    return {"notes": [{"seq": n.seq, "number": n.number, "line": note_line(n)} for n in notes],
            "variations": [{"match_id": v.match_id, "at": v.at} for v in found]}
