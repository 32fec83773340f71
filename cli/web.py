"""The viewer outside the service: ``kifu export … --html`` (a match and the web viewer in one HTML
file, no server, no network) and ``kifu replay … --at SEQ --svg/--png`` (one board as a picture)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from kifu.projections.annotations import viewer_meta
from kifu.projections.picture import picture_of, png
from kifu.projections.recordfile import read_record
from kifu.projections.viewdata import ViewSource, verification, viewer_name
from kifu.service.viewer import page

from . import output
from .context import Kifu
from .render import plural


def export_html(kifu: Kifu, source: str, path: str, seat: int | None) -> None:
    """Every frame of the match is computed now and inlined, so the page steps with no server.
    The judge's page holds each seat's view too (its seat/judge toggle); a seat's page its own only."""
    is_file = Path(source).exists() or source.endswith((".jsonl", ".gz"))
    end: Any = None
    if is_file:
        record = read_record(source)      # a file: its own end mark and signature
        ruleset, header, envelopes, end = record.ruleset, record.header, record.envelopes, record.end
    else:
        ruleset, header, envelopes = kifu.load(source)
    judge = ViewSource(ruleset, header, envelopes, seat)
    if is_file and (end is not None or judge.outcome is not None):
        badge = verification(header, envelopes, end, finished=True, file=True)   # finished, no end mark: refused
    else:                                 # a stored match: as the record this kifu would export is signed
        signer = kifu.signer if not is_file else None
        badge = verification(header, envelopes, signer=signer.name if signer else None,
                             finished=judge.outcome is not None)
    views = {"judge" if seat is None else str(seat): judge.bundle()}
    if seat is None:
        for other in (1, 2):
            views[str(other)] = ViewSource(ruleset, header, envelopes, other, timeline=judge.timeline,
                                           turns=judge.turns).bundle()
    for view in views.values():
        view["meta"]["verified"] = badge
    add_annotations(kifu, source, views)
    body = page(views).encode()
    output.write_out(path, body)
    shown = viewer_name(seat) + (" and each seat" if seat is None else "")
    output.quiet_echo(path, f"{path}: {plural(len(envelopes), 'event')} as the {shown} saw them, {len(body)} bytes; "
               "open it in a browser (it needs no server and loads nothing)")


def add_annotations(kifu: Kifu, source: str, views: dict[str, Any]) -> None:
    """Each view's meta gets the notes its viewer may see and the record's variations (cli/notes)."""
    from .notes import annotations_for

    for key, bundle in views.items():
        found = annotations_for(kifu, source, None if key == "judge" else int(key))
        bundle["meta"].update(viewer_meta(found.notes, found.variations))


def draw_board(timeline: Any, seq: int, seat: int | None, svg_out: str | None, png_out: str | None) -> None:
    """The board after ``seq`` as SVG and/or PNG (``kifu.projections.picture``)."""
    text = picture_of(timeline, seq, seat)
    for path, raster in ((svg_out, False), (png_out, True)):
        if path:
            try:
                body = png(text) if raster else text.encode()
            except RuntimeError as exc:   # no CairoSVG or libcairo2: say so in one line
                raise click.ClickException(str(exc)) from None
            output.write_out(path, body)
            output.quiet_echo(path, f"{path}: the board after #{seq}")
