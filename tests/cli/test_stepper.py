"""The full-screen stepper driven headless by Textual's pilot, at 80×24, on every ruleset."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.cli.tui.app import ReplayApp
from kifu.cli.tui.model import Position
from kifu.domain.core.ruleset import ruleset_names
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline


def _play(tmp: Path, ruleset: str, seed: int = 3) -> Path:
    out = tmp / f"{ruleset}.kifu.jsonl"
    result = CliRunner().invoke(cli, ["--db", "memory", "play", ruleset, "--seed", str(seed), "-q", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def worlfard(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _play(tmp_path_factory.mktemp("stepper"), "worlfard", 7)


def _app(path: Path, seat: int | None = None) -> ReplayApp:
    rec = read_record(path)
    return ReplayApp(Position(Timeline(rec.ruleset, rec.header, rec.envelopes), seat))


def run(app: ReplayApp, *keys: str, size: tuple[int, int] = (80, 24)) -> Any:
    """Press ``keys`` in a headless run of ``app``; returns what ``probe`` saw after them."""
    seen: dict[str, Any] = {}

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            seen["seq"] = app.position.seq
            seen["seat"] = app.position.seat
            seen["regions"] = {w.id: w.region for w in app.query("*") if w.id and w.display}
            seen["heights"] = {w.id: w.virtual_size.height for w in app.query("Static") if w.id}
            seen["screen"] = app.screen
            seen["info"] = str(app.query_one("#info-body").render())
            seen["status"] = str(app.query_one("#status").render())
            seen["banner"] = app.query_one("#banner").display
            seen["jump"] = app.query_one("#jump").display
            seen["size"] = app.size
            seen["running"] = app.is_running

    asyncio.run(go())
    return seen


def test_steps_by_event_decision_and_turn(worlfard: Path) -> None:
    seen = run(_app(worlfard), "n", "n", "n", "p")
    assert seen["seq"] == 2
    tl = _app(worlfard).position.timeline
    decisions = tl.decision_seqs()
    assert run(_app(worlfard), "N")["seq"] == decisions[0]
    assert run(_app(worlfard), "N", "N", "P")["seq"] == decisions[0]
    turn = run(_app(worlfard), "t", "t")
    pos = _app(worlfard).position
    assert pos.turn_of(turn["seq"]) == pos.turn_of(0) + 2 and pos.turn_of(turn["seq"] - 1) < pos.turn_of(turn["seq"])
    assert run(_app(worlfard), "G")["seq"] == tl.last_seq
    assert run(_app(worlfard), "G", "0")["seq"] == 0


def test_jump_goes_to_a_seq_and_escape_cancels_without_quitting(worlfard: Path) -> None:
    assert run(_app(worlfard), "g", "4", "0", "enter")["seq"] == 40
    cancelled = run(_app(worlfard), "n", "g", "4", "escape")
    assert cancelled["seq"] == 1 and cancelled["running"] and not cancelled["jump"]
    # ctrl+c inside the prompt cancels the prompt only; the next key steps again
    after = run(_app(worlfard), "g", "9", "ctrl+c", "n")
    assert after["seq"] == 1 and after["running"]


def test_fits_80x24_and_resizes(worlfard: Path) -> None:
    seen = run(_app(worlfard), "N", "N", "N")
    assert seen["heights"]["events-body"] <= 4          # one line per event, cut at the pane's width
    for name, region in seen["regions"].items():
        if name.endswith("-body") or name.startswith("board-"):     # inside a scrolling pane
            continue
        assert region.right <= 80 and region.bottom <= 24, (name, region)
    assert seen["regions"]["status"].y == 23                     # the status line is the last row
    assert seen["regions"]["board"].height >= 12                 # the board keeps most of the screen
    wide = run(_app(worlfard), "N", size=(160, 40))
    assert wide["regions"]["side"].x > 0 and wide["regions"]["board"].height > 30   # panes beside the board


def test_seat_toggle_card_text_and_why(worlfard: Path) -> None:
    assert run(_app(worlfard), "s")["seat"] == 1
    assert run(_app(worlfard), "s", "s", "s")["seat"] is None
    tl = _app(worlfard).position.timeline
    summon = next(e.seq for e in tl.envelopes if type(e.event).__name__ == "UnitSummoned")
    card = run(_app(worlfard), "g", *str(summon), "enter", "c")
    assert "no catalogue entry" not in card["info"] and "no card in focus" not in card["info"]
    why = run(_app(worlfard), "g", *str(summon), "enter", "w")
    assert f"#{summon}" in why["info"] and "decision" in why["info"]
    tabbed = run(_app(worlfard), "G", "tab", "tab")
    assert "(" in tabbed["info"] and "no card in focus" not in tabbed["info"]


def test_autoplay_advances_and_help_opens(worlfard: Path) -> None:
    async def go() -> tuple[int, str]:
        app = _app(worlfard)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("a", "plus", "plus", "plus")
            await pilot.pause(0.6)
            await pilot.press("a")
            moved = app.position.seq
            await pilot.press("question_mark")
            await pilot.pause()
            return moved, type(app.screen).__name__
    moved, screen = asyncio.run(go())
    assert moved > 0 and screen == "Help"


def test_edited_record_shows_a_red_banner(worlfard: Path, tmp_path: Path) -> None:
    lines = worlfard.read_text().splitlines()
    edited = json.loads(lines[30])
    edited["seat"] = 2 if edited.get("seat") == 1 else 1
    lines[30] = json.dumps(edited, ensure_ascii=False)
    bad = tmp_path / "edited.kifu.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    assert run(_app(bad))["banner"]
    assert not run(_app(worlfard))["banner"]
    printed = CliRunner().invoke(cli, ["replay", str(bad), "--at", "5"])
    assert printed.exit_code == 0 and "DOES NOT VERIFY" in printed.output and "seq 30" in printed.output


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_ruleset_steps_through_its_layout(tmp_path: Path, ruleset: str) -> None:
    path = _play(tmp_path, ruleset)
    seen = run(_app(path), "N", "N", "t", "s", "tab", "c", "w", "n", "s", "G", "p")
    assert seen["running"] and seen["seq"] == read_record(path).envelopes[-1].seq - 1
    for name, region in seen["regions"].items():
        assert name.startswith("board-") or name.endswith("-body") or (region.right <= 80 and region.bottom <= 24), \
            (name, region)


def test_replay_without_a_terminal_prints_the_last_state(worlfard: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "kifu.cli.main", "replay", str(worlfard)], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    last = len(read_record(worlfard).envelopes)
    assert done.returncode == 0 and "Traceback" not in done.stderr and f"event {last}/{last}" in done.stdout


def test_replay_at_json_for_scripts(worlfard: Path) -> None:
    result = CliRunner().invoke(cli, ["replay", str(worlfard), "--at", "40", "--json"])
    state = json.loads(result.output)
    assert state["seq"] == 40 and state["verified"] and state["envelope"]["seq"] == 40 and state["layout"]["seats"]


def test_replay_help_lists_every_key() -> None:
    from kifu.cli.tui.keys import KEYS
    text = CliRunner().invoke(cli, ["replay", "--help"]).output
    for _, shown, _, what in KEYS:
        assert shown in text and what.split(" (")[0] in text


def test_the_board_keeps_the_seat_of_the_event_in_view(worlfard: Path) -> None:
    """At 80×24 the whole WORLFARD board is taller than its pane: the panel of the seat the
    event concerns is scrolled into view (seat 1's is drawn last, below seat 2's)."""
    tl = _app(worlfard).position.timeline
    seat1 = next(e.seq for e in tl.envelopes if type(e.event).__name__ == "CombatDamage" and e.event.seat == 1)

    async def go() -> tuple[float, bool]:
        app = _app(worlfard)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("g", *str(seat1), "enter")
            await pilot.pause(0.2)
            board = app.query_one("#board")
            parts = [w for w in app.query(".part") if w.display]
            bottom = parts[-1]           # seat 1's panel
            visible = bottom.region.y < board.region.bottom and bottom.region.bottom > board.region.y
            return board.scroll_offset.y, visible
    scrolled, visible = asyncio.run(go())
    assert scrolled > 0 and visible


@pytest.mark.parametrize("seat", [1, 2])
def test_a_seat_in_the_stepper_and_replay_json_sees_what_the_service_sends_that_seat(worlfard: Path, seat: int) -> None:
    """The stepper (and ``replay --seat N --json``) shows a seat each event and board with the core's
    scrub, exactly as /events, /stream and the web viewer send them: no card the seat may not see."""
    from kifu.cli.replay import state_json
    from kifu.domain.core.visibility import redacted, seat_view

    rec = read_record(worlfard)
    rules = rec.ruleset
    sent = redacted(rules, rules.decider.initial_state(rec.header), rec.envelopes, seat)
    position = Position(Timeline(rules, rec.header, rec.envelopes), seat)
    for seq in range(1, len(rec.envelopes) + 1, 5):
        position.seq = seq
        shown = state_json(position)
        assert shown["envelope"] == msgspec.to_builtins(sent[seq - 1]), seq
        board = rules.presentation.layout(seat_view(rules, position.timeline.state_at(seq), seat))
        assert shown["layout"] == msgspec.to_builtins(board), seq
