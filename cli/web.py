"""``kifu export … --html``: a match and the web viewer in one HTML file (no server, no network)."""
from __future__ import annotations

from pathlib import Path

import click

from domain.service.viewer import page
from projections.viewdata import ViewSource, viewer_name

from .context import Kifu


def export_html(kifu: Kifu, source: str, path: str, seat: int | None) -> None:
    """Every frame of the match is computed now and inlined, so the page steps with no server."""
    ruleset, header, envelopes = kifu.load(source)
    bundle = ViewSource(ruleset, header, envelopes, seat).bundle()
    body = page(bundle).encode()
    Path(path).write_bytes(body)
    click.echo(f"{path}: {len(envelopes)} events as the {viewer_name(seat)} saw them, {len(body)} bytes; "
               "open it in a browser (it needs no server and loads nothing)")
