"""Notes on a record: comments, glyphs, arrows and variations, outside the hash chain.

A note says something about one event of a match (``seq``; 0 is the match as a whole) without
touching it: the events, their chain and the end mark (and so its signature) stay as they were.
Notes live beside the match (the store's ``kifu_notes`` table, append-only, numbered per match)
and, in a record file, as a notes section after the end mark: one ``{"kifu": "note", …}`` line
each. ``chain`` is the link of the event noted (the header's genesis for seq 0), so a note stays
pinned to the exact event it was written on; a note may be signed (``kifu.domain.core.signing``'s
``sign_note``/``check_note``: Ed25519 over ``signed_bytes``, the same keys as end marks).

Who sees a note (``visible_to``): the judge and the holder of a whole record see every note;
a seat sees its own notes and the notes a judge (or the store's holder) made public. A seat
never sees the other seat's notes: a seat writes about its own hand, which the other may not see.

Pure: the time stamp is given by the caller (``kifu.store.clock``).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from .envelope import Envelope, genesis
from .errors import Malformed
from .header import Header, header_bytes

GLYPHS = ("!", "?", "!?", "?!", "!!", "??")
NOTE_MARK = b'"kifu":"note"'
MAX_TEXT = 4000
MAX_AUTHOR = 80
MAX_ARROWS = 16
MAX_PLACE = 40
ROLES = ("", "judge", "seat1", "seat2")   # "" the holder of the store or the file (a local note)


class Note(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    kifu: str = "note"
    match_id: str
    number: int = 0            # its place in the match's notes, from 1; 0 until stored
    seq: int                   # the event noted; 0 the match as a whole
    chain: str = ""            # that event's chain link (the header's genesis for seq 0)
    author: str
    role: str = ""             # who wrote it: "judge", "seat1", "seat2", or "" (the store's or file's holder)
    at: str                    # when (ISO 8601, UTC)
    text: str = ""
    glyph: str = ""            # one of GLYPHS, or ""
    arrows: tuple[str, ...] = ()   # "A-B" an arrow from a card or place to another, "A" a highlight
    variation: str = ""        # a match forked from this one: a variation of the position at ``seq``
    public: bool = False       # a judge's or holder's note the seats may see
    signer: str = ""
    key: str = ""              # Ed25519 public key, base64
    signature: str = ""        # over ``signed_bytes``, base64


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Note)


def note_bytes(note: Note) -> bytes:
    """The note's line in a record file (canonical: declaration order, every field written)."""
    return _encoder.encode(note)


def signed_bytes(note: Note) -> bytes:
    """What a note's signature covers: a domain tag and the note without its number (given when
    it is stored, after signing) and without its signature."""
    return b"kifu-note\n" + _encoder.encode(msgspec.structs.replace(note, number=0, signature=""))


def is_note(line: bytes) -> bool:
    return NOTE_MARK in line[:40]


def decode_note(line: bytes, where: str) -> Note:
    try:
        note = _decoder.decode(line)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise Malformed(f"note: {exc}", where) from None
    return checked(note, where)


def split_notes(lines: list[bytes]) -> tuple[list[bytes], list[bytes]]:
    """A record's lines without its notes section (the note lines at its end), and those lines."""
    end = len(lines)
    while end > 1 and is_note(lines[end - 1]):
        end -= 1
    return lines[:end], lines[end:]


def parse_arrow(text: str, where: str = "--arrow") -> str:
    """``A-B`` (from a card or place to another) or ``A`` (a highlight), each part a card id or a
    place name: letters, digits and ``#:._/`` (no spaces), at most ``MAX_PLACE`` characters."""
    parts = text.strip().split("-")
    if not 1 <= len(parts) <= 2 or not all(_place(p) for p in parts):
        raise Malformed(f"arrow {text[:40]!r} is not 'A-B' or 'A' (card ids or places, e.g. 12-30 or c3)", where)
    return "-".join(p.strip() for p in parts)


def _place(part: str) -> bool:
    part = part.strip()
    return 0 < len(part) <= MAX_PLACE and all(ch.isalnum() or ch in "#:._/" for ch in part)


def checked(note: Note, where: str = "note") -> Note:
    """``note`` if its fields are in bounds; else ``Malformed`` naming the first that is not."""
    if note.kifu != "note":
        raise Malformed("not a Kifu note", where)
    if note.seq < 0 or note.number < 0:
        raise Malformed(f"note: seq {note.seq} is not an event's seq (0 is the match as a whole)", where)
    if note.glyph not in ("", *GLYPHS):
        raise Malformed(f"glyph {note.glyph[:8]!r} is not one of {' '.join(GLYPHS)}", where)
    if not note.author.strip() or len(note.author) > MAX_AUTHOR:
        raise Malformed(f"a note's author is 1..{MAX_AUTHOR} characters", where)
    if note.role not in ROLES:
        raise Malformed(f"role {note.role[:12]!r} is not one of judge, seat1, seat2 or empty", where)
    if len(note.text) > MAX_TEXT:
        raise Malformed(f"a note's text is at most {MAX_TEXT} characters", where)
    if len(note.arrows) > MAX_ARROWS:
        raise Malformed(f"a note has at most {MAX_ARROWS} arrows", where)
    for arrow in note.arrows:
        parse_arrow(arrow, where)
    if len(note.variation) > 80:
        raise Malformed("a variation is a match id", where)
    if not (note.text.strip() or note.glyph or note.arrows or note.variation):
        raise Malformed("an empty note: give a text, a glyph, an arrow or a variation", where)
    return note


def anchor(header_link: str, envelopes: Sequence[Envelope[Any]], seq: int, where: str = "SEQ") -> str:
    """The chain link a note on ``seq`` is pinned to; ``Malformed`` if the record has no such event."""
    if not 0 <= seq <= len(envelopes):
        raise Malformed(f"seq {seq} is outside the record (0..{len(envelopes)}; 0 notes the match as a whole)", where)
    return header_link if seq == 0 else envelopes[seq - 1].chain


def make(header: Header, envelopes: Sequence[Envelope[Any]], seq: int, *, author: str, at: str, text: str = "",
         glyph: str = "", arrows: Iterable[str] = (), variation: str = "", role: str = "",
         public: bool = False) -> Note:
    """A new, checked note on event ``seq`` of the match, pinned to that event's chain link."""
    chain = anchor(genesis(header_bytes(header)), envelopes, seq)
    return checked(Note(match_id=header.match_id, seq=seq, chain=chain, author=author.strip(), role=role, at=at,
                        text=text, glyph=glyph, arrows=tuple(parse_arrow(a) for a in arrows),
                        variation=variation.strip(), public=public))


def header_link(header: Header) -> str:
    """The link a note on seq 0 (the match as a whole) is pinned to: the header's genesis."""
    return genesis(header_bytes(header))


def stale(note: Note, header_link: str, envelopes: Sequence[Envelope[Any]]) -> bool:
    """Whether a note's ``chain`` is not the link of the event it notes in this record."""
    if not note.chain:
        return False
    if note.seq > len(envelopes):
        return True
    return note.chain != (header_link if note.seq == 0 else envelopes[note.seq - 1].chain)


def visible_to(note: Note, role: str | None) -> bool:
    """Whether ``role`` ("judge", "seat1", "seat2"; None the holder of the whole record) sees ``note``."""
    if role is None or role == "judge":
        return True
    return note.role == role or (note.public and note.role in ("", "judge"))


def for_role(notes: Iterable[Note], role: str | None) -> list[Note]:
    return [n for n in notes if visible_to(n, role)]


def matching(notes: Iterable[Note], needle: str) -> list[Note]:
    """The notes whose text, glyph, author, arrows or variation contain ``needle`` (case-insensitive)."""
    low = needle.lower()
    return [n for n in notes
            if low in " ".join((n.text, n.glyph, n.author, n.variation, *n.arrows)).lower()]
