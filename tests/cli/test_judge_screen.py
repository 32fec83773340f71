"""The stepper as a judge's screen (issue 29), driven headless by Textual's pilot: panes that split
a wide terminal and redraw on resize, why with the ruling's values, every zone on ``z``, owners
and the event's cards on the board, labels that follow the phase, a clock line."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from kifu.cli import render
from kifu.cli.main import cli
from kifu.cli.tui.app import ReplayApp
from kifu.cli.tui.model import Position
from kifu.domain.core.layout import Face
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
MASTERS = REPLAYS / "masters" / "bot-arcane-court-vs-last-hour-s1.kifu.jsonl"
NOVEL = REPLAYS / "novel" / "bot-earth-wind-vs-earth-wind-s1.kifu.jsonl"


def position(path: Path, seat: int | None = None) -> Position:
    rec = read_record(path)
    return Position(Timeline(rec.ruleset, rec.header, rec.envelopes), seat)


def screen(path: Path, seq: int, *keys: str, size: tuple[int, int] = (80, 24),
           resize: tuple[int, int] | None = None) -> dict[str, Any]:
    """The screen's text (and pane regions) at ``seq`` after ``keys`` (then a resize, if given)."""
    app = ReplayApp(position(path))
    seen: dict[str, Any] = {}

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.press("g", *str(seq), "enter")
            for key in keys:
                await pilot.press(key)
            if resize is not None:
                await pilot.resize_terminal(*resize)
            await pilot.pause(0.2)
            seen["text"] = "\n".join("".join(seg.text for seg in strip).rstrip()
                                     for strip in app.screen._compositor.render_strips())
            seen["regions"] = {w.id: w.region for w in app.query("*") if w.id and w.display}
            seen["info"] = str(app.query_one("#info-body").render())

    asyncio.run(go())
    return seen


def plain(renderable: Any, width: int = 160) -> str:
    con = Console(width=width, record=True, file=open("/dev/null", "w"))   # noqa: SIM115 - closed with the console
    con.print(renderable)
    return con.export_text()


def test_a_wide_terminal_splits_the_panes_and_the_events_column_grows() -> None:
    seen = screen(MASTERS, 320, size=(200, 50))
    side, board = seen["regions"]["side"], seen["regions"]["board"]
    assert side.width >= 90 and board.width <= 110 and side.x >= board.right - 1
    assert "#300" in seen["text"]                   # 20 events back, each whole


def test_a_resize_redraws_the_panes_without_a_key() -> None:
    seen = screen(MASTERS, 320, size=(80, 24), resize=(200, 50))
    assert seen["regions"]["side"].width >= 90
    assert "#305" in seen["text"]                   # the wide pane's longer history, drawn on the resize


def test_why_shows_the_values_of_each_ruling_as_the_cli_does() -> None:
    seen = screen(MASTERS, 351, "w", size=(200, 50))
    assert "ruling:" in seen["info"] and "after #350:" in seen["info"]
    cli_why = CliRunner().invoke(cli, ["why", str(MASTERS), "351"])
    for line in seen["info"].splitlines():
        if "ruling:" in line:
            assert line.strip() in cli_why.output


def test_z_shows_every_zone_whole_and_the_80x24_screen_shows_the_board_first() -> None:
    first = screen(MASTERS, 320)
    assert "master 1" in first["text"] and "deck (25)" not in first["text"]      # the grid, not the deck list
    assert "deck 25" in first["text"]                                           # counted on the seat's line
    pos = position(MASTERS)
    pos.go(320)
    compact = plain(pos.board())
    pos.toggle_zones()
    every = plain(pos.board())
    deck = pos.layout().panel(1).parts
    names = [f"{f.name}#{f.id}" for z in deck if getattr(z, "id", "") == "deck" for f in z.cards]
    assert len(names) == 25 and all(n in every for n in names) and not all(n in compact for n in names)
    assert "discard (2): 補給#118, 補給#119" in every or "discard (2):" in every and "(top)" not in every


def test_owners_are_tagged_and_coloured_and_the_events_cards_marked() -> None:
    pos = position(MASTERS)
    pos.go(319)                                    # PieceMoved 騎兵#214 (seat 2's) on the shared board
    text = plain(pos.board())
    assert "▸騎兵[2]" in text and "癒し手[1]" in text
    face = render.face_text(Face(id=5, name="重装兵", owner=2), look=render.Look(marked=frozenset({5})))
    assert any("bright_red" in str(span.style) for span in face.spans)
    assert any("reverse" in str(span.style) for span in face.spans)


def test_the_current_event_is_wrapped_whole_at_80_columns() -> None:
    rec = REPLAYS / "worlfard" / "bot-dawn-dusk-vs-dawn-dusk-s1.kifu.jsonl"
    seen = screen(rec, 63)
    flat = " ".join(line.strip() for line in seen["text"].splitlines())
    assert "options=[封じの巫女#1008])" in flat.replace(" ", "")      # its end, on the lines below: not cut


def test_novels_label_follows_the_summon_and_magic_phases() -> None:
    rec = read_record(NOVEL)
    pos = position(NOVEL)
    begun = {env.seq: env.event.phase for env in rec.envelopes if type(env.event).__name__ == "PhaseBegun"}
    for seq, phase in begun.items():
        for at in (seq, seq + 1):
            if at > pos.last or at in begun and at != seq:
                continue
            pos.go(at)
            assert pos.layout().step.startswith(phase), (at, phase, pos.layout().step)
    assert {"summon", "magic"} <= set(begun.values())


@pytest.mark.parametrize(("ruleset", "first"), [("reigeki", "start"), ("alteil", "preparation")])
def test_turn_began_says_the_new_turns_first_step_not_the_last_one(ruleset: str, first: str) -> None:
    """reigeki's #11 TurnBegan said "mulligan", alteil's "opening" (and each later turn the last
    turn's step): the label lagged one event."""
    path = sorted((REPLAYS / ruleset).glob("bot-*.kifu.jsonl"))[0]
    rec = read_record(path)
    pos = position(path)
    turns = [env.seq for env in rec.envelopes if type(env.event).__name__ == "TurnBegan"]
    for seq in turns[:4]:
        pos.go(seq)
        assert pos.layout().step == first, (seq, pos.layout().step)


def test_the_clock_line_shows_each_seats_decision_times(tmp_path: Path) -> None:
    out = tmp_path / "m.kifu.jsonl"
    played = CliRunner().invoke(cli, ["--db", "memory", "play", "masters", "--seed", "3", "-q", "--out", str(out)])
    assert played.exit_code == 0, played.output
    pos = position(out)
    pos.go(pos.last)
    clock = pos.clock().plain
    assert clock.startswith("clock seat 1 ") and " · seat 2 " in clock and "decisions" in clock
    seen = screen(out, pos.last)
    assert "events · clock seat 1" in seen["text"]
    unstamped = position(MASTERS)
    unstamped.go(10)
    assert "no decision times recorded" in unstamped.clock().plain
