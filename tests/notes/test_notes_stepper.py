"""The stepper's notes line: shown at an event with notes or forks leaving it, hidden elsewhere."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.cli.tui.app import ReplayApp
from kifu.cli.tui.model import Position
from kifu.cli.tui.notes import Annotations, annotation_line
from kifu.domain.core.notes import make
from kifu.projections.annotations import Variation
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline


def shown(app: ReplayApp, *keys: str) -> dict[str, Any]:
    seen: dict[str, Any] = {}

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            widget = app.query_one("#notes")
            seen["display"] = widget.display
            seen["text"] = str(widget.render())
            seen["seq"] = app.position.seq

    asyncio.run(go())
    return seen


def test_the_notes_line_shows_the_notes_and_variations_of_the_current_event(tmp_path: Path) -> None:
    path = tmp_path / "n.kifu.jsonl"
    result = CliRunner().invoke(cli, ["--db", "memory", "play", "novel", "--seed", "1", "-q", "--out", str(path)])
    assert result.exit_code == 0, result.output
    rec = read_record(path)
    note = make(rec.header, rec.envelopes, 1, author="ann", at="t", text="opening looks odd", glyph="?!")
    fork = Variation(match_id="1234abcd-0000-4000-8000-000000000000", at=1)
    annotations = Annotations((note,), (fork,))
    line = annotation_line(annotations, 1).plain
    assert line == "✎ #1 ?! ann: opening looks odd · ⑂ variation 1234abcd"
    assert annotation_line(annotations, 2).plain == ""
    app = ReplayApp(Position(Timeline(rec.ruleset, rec.header, rec.envelopes)), annotations)
    at_start = shown(app)
    assert at_start["seq"] == 0 and not at_start["display"]
    app = ReplayApp(Position(Timeline(rec.ruleset, rec.header, rec.envelopes)), annotations)
    stepped = shown(app, "right")
    assert stepped["seq"] == 1 and stepped["display"]
    assert "opening looks odd" in stepped["text"] and "variation 1234abcd" in stepped["text"]
