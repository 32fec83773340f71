"""``kifu annotate`` and ``kifu notes``: notes on a record (kept beside it, outside its chain) and
the forks of a match shown as variations of the position they leave."""
from __future__ import annotations

import getpass
import gzip
import json
import os
from pathlib import Path
from typing import Any

import click
import msgspec
from rich.text import Text

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import KifuError, Malformed
from kifu.domain.core.header import Header
from kifu.domain.core.notes import GLYPHS, Note, for_role, make, matching, note_bytes
from kifu.domain.core.signing import check_note, sign_note
from kifu.projections.annotations import Variation, headers_beside, note_line, variations
from kifu.projections.recordfile import read_record, write_file
from kifu.store.clock import utc_now

from . import render
from .context import Kifu, pass_kifu
from .tui.notes import Annotations

AUTHOR_VAR = "KIFU_AUTHOR"


def is_file(source: str) -> bool:
    return Path(source).exists() or source.endswith((".jsonl", ".gz"))


class Annotated(msgspec.Struct, frozen=True):
    """A record with its notes, from a file or the store."""

    header: Header
    envelopes: list[Envelope[Any]]
    notes: list[Note]
    ruleset: Any
    file: str | None = None


def load_annotated(kifu: Kifu, source: str) -> Annotated:
    if is_file(source):
        record = read_record(source)
        return Annotated(record.header, record.envelopes, list(record.notes), record.ruleset, source)
    match = kifu.existing.load(kifu.resolve(source))
    return Annotated(match.header, match.envelopes, kifu.notes.notes(match.header.match_id), match.ruleset)


def stored_headers(kifu: Kifu) -> list[tuple[str, Header]]:
    return [("store", kifu.store.header(row.match_id)) for row in kifu.existing.list_matches()]


def variations_of(kifu: Kifu, record: Annotated) -> list[Variation]:
    """Forks of the record's match: in the store (a stored match), or in the file's folder."""
    candidates = headers_beside(record.file) if record.file else stored_headers(kifu)
    return variations(record.header, record.envelopes, candidates, record.notes)


def annotations_for(kifu: Kifu, source: str, seat: int | None) -> Annotations:
    """The notes (as ``seat`` may see them: a seat its own and the public ones) and variations of a
    record, for the stepper's notes line; none when they cannot be read (the stepper still runs)."""
    try:
        record = load_annotated(kifu, source)
        found = variations_of(kifu, record)
    except (KifuError, OSError):
        return Annotations()
    shown = for_role(record.notes, None if seat is None else f"seat{seat}")
    return Annotations(tuple(shown), tuple(found))


def append_to_file(path: str, note: Note) -> None:
    """The note as the record file's next line, the bytes before it untouched (a ``.gz`` record
    gets one more gzip member, which every reader of records reads on)."""
    data = Path(path).read_bytes()
    line = note_bytes(note) + b"\n"
    if path.endswith(".gz"):
        write_file(path, data + gzip.compress(line, mtime=0))
        return
    write_file(path, data + (b"" if not data or data.endswith(b"\n") else b"\n") + line)


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.argument("seq", type=click.IntRange(0))
@click.argument("text", required=False, default="")
@click.option("--glyph", type=click.Choice(GLYPHS), default=None, help="A move glyph: ! ? !? ?! !! ??")
@click.option("--arrow", "arrows", multiple=True, metavar="A-B|A",
              help="An arrow between two cards or places (card ids or place names), or one to highlight; repeatable.")
@click.option("--variation", default="", metavar="MATCH_ID", help="Link a fork of this match as a variation here.")
@click.option("--author", default=None, help=f"Who writes it (default: ${AUTHOR_VAR}, else the login name).")
@click.option("--public", is_flag=True, help="Let the seats see it too (served matches; default: the judge only).")
@pass_kifu
def annotate(kifu: Kifu, source: str, seq: int, text: str, glyph: str | None, arrows: tuple[str, ...], variation: str,
             author: str | None, public: bool) -> None:
    """Add a note on event SEQ (0: the match as a whole) of a record file or a stored match: a
    comment, a glyph, arrows, a linked variation. The events, their chain and the end mark (its
    signature) stay as they were: a file gets the note after its end mark, a stored match in its
    own append-only stream. Signed with $KIFU_SIGNING_KEY when it is set."""
    record = load_annotated(kifu, source)
    if variation and record.file is None:       # a stored match's variation: a stored fork of it, as the service asks
        fork = kifu.store.header(kifu.resolve(variation))
        if fork.forked_from != record.header.match_id:
            raise Malformed(f"match {fork.match_id} was not forked from {record.header.match_id}", "--variation")
        variation = fork.match_id
    name = author or os.environ.get(AUTHOR_VAR) or getpass.getuser()
    note = make(record.header, record.envelopes, seq, author=name, at=utc_now(), text=text, glyph=glyph or "",
                arrows=arrows, variation=variation, public=public)
    signer = kifu.signer
    if signer is not None:
        note = sign_note(note, signer)
    if record.file is not None:
        note = msgspec.structs.replace(note, number=len(record.notes) + 1)
        append_to_file(record.file, note)
        where = record.file
    else:
        note = kifu.notes.add(note)
        where = f"match {record.header.match_id}"
    click.echo(f"note {note.number} on {where}: {note_line(note)}")


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.option("--grep", "needle", default=None, metavar="TEXT",
              help="Only notes whose text, glyph, author, arrows or variation contain TEXT (any case).")
@click.option("--seq", "seq", type=click.IntRange(0), default=None, help="Only the notes on this event.")
@click.option("--json", "as_json", is_flag=True, help="The notes and variations as JSON.")
@pass_kifu
def notes(kifu: Kifu, source: str, needle: str | None, seq: int | None, as_json: bool) -> None:
    """List a record's notes (a file's notes section, or a stored match's notes) and its
    variations: the matches forked from it (in the store, or in the file's folder), each at the
    position it leaves."""
    record = load_annotated(kifu, source)
    shown = record.notes if needle is None else matching(record.notes, needle)
    if seq is not None:
        shown = [n for n in shown if n.seq == seq]
    found = variations_of(kifu, record)
    if as_json:
        click.echo(json.dumps({"match_id": record.header.match_id,
                               "notes": [msgspec.to_builtins(n) for n in shown],
                               "variations": [msgspec.to_builtins(v) for v in found]}, ensure_ascii=False))
        return
    con = render.console()
    con.print(f"match {record.header.match_id}: {render.plural(len(record.notes), 'note')}"
              + (f", {len(shown)} shown" if len(shown) != len(record.notes) else "")
              + f", {render.plural(len(found), 'variation')}", highlight=False)
    for note in shown:
        verdict = check_note(note)
        sig = "" if verdict.text == "unsigned" else f"  [{verdict.text}]"
        con.print(Text(f"{note.number:>3}. ", style="dim") + Text(note_line(note))
                  + Text(f"  {note.at}{sig}", style="dim" if verdict.ok else "bold red"))
    for v in found:
        point = f"after #{v.at}" if v.at is not None else "from a position given as text"
        origin = {True: "", False: " (left an edited copy of this record: its chain link differs)",
                  None: ""}[v.same]
        how = "linked by a note" if v.noted else f"forked {point}"
        con.print(f"  ⑂ variation {point if v.noted else ''}".rstrip() + f": match {v.match_id} ({how}"
                  + (f", {v.where}" if v.where and v.where != "store" else "") + f"){origin}", highlight=False)
