"""``kifu replay``: the full-screen stepper on a terminal; the state at a seq anywhere else.

On a terminal (stdin and stdout both) it runs the Textual stepper (``cli/tui``). Without one —
a pipe, a script, CI — it prints the state as ``--at`` does (at the last event unless ``--at``
says otherwise) and never asks for a key; ``--json`` prints that state for scripts.
"""
from __future__ import annotations

import sys
from typing import Any

import click
import msgspec
from rich.console import Group
from rich.text import Text

from kifu.projections.timeline import Timeline

from . import render
from .context import Kifu, pass_kifu
from .output import OutPath
from .tui.keys import help_lines
from .tui.model import Position

KEYS_HELP = "\b\nKeys on a terminal:\n" + "\n".join("  " + line for line in help_lines())


def screen(position: Position) -> Any:
    """What ``--at`` prints: the warning if the record does not verify, board, events, clause, status."""
    parts: list[Any] = []
    if position.warning:
        parts.append(Text(position.warning, style="bold white on red"))
    parts.append(position.board())
    parts.extend(position.event_lines())
    clause = position.clause()
    if clause:
        parts.append(clause)
    parts.append(Text(f"event {position.seq}/{position.last} · {position.who()}", style="dim"))
    if summary := position.clock_summary():
        parts.append(Text(f"clock: {summary}", style="dim"))
    return Group(*parts)


def state_json(position: Position) -> dict[str, Any]:
    """The state after ``position.seq`` for scripts: the layout, the event, its clause, the warning."""
    tl = position.timeline
    env = tl.envelope(position.seq)
    shown = position.shown(env) if env is not None else None
    entry = tl.ruleset.content.clauses().get(env.clause or "") if env is not None else None
    return {
        "match_id": tl.header.match_id, "ruleset": tl.header.ruleset, "seq": position.seq, "last": position.last,
        "seat": position.seat, "verified": not position.warning, "warning": position.warning or None,
        "turn": position.turn_of(position.seq),
        "envelope": msgspec.to_builtins(shown) if shown is not None else None,
        "clause": {"id": entry.id, "title": entry.title, "text": entry.text} if entry is not None else None,
        "layout": msgspec.to_builtins(position.layout()),
    }


def on_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


@click.command(epilog=KEYS_HELP)
@click.argument("source", metavar="FILE|MATCH_ID")
@click.option("--at", "at", type=int, default=None, help="Print the state after event SEQ and exit.")
@click.option("--seat", type=click.IntRange(1, 2), default=None, help="Show only what this seat could see.")
@click.option("--json", "as_json", is_flag=True, help="With or without --at: print that state as JSON and exit.")
@click.option("--svg", "svg_out", type=OutPath(), default=None, help="With --at: draw the board as SVG (- for stdout).")
@click.option("--png", "png_out", type=OutPath(), default=None, help="With --at: draw the board as PNG (- for stdout).")
@pass_kifu
def replay(kifu: Kifu, source: str, at: int | None, seat: int | None, as_json: bool,
           svg_out: str | None, png_out: str | None) -> None:
    """Step through a recorded match (a .kifu.jsonl file or a stored match id).

    On a terminal: the full-screen stepper (keys below; ? shows them). Without a terminal, or
    with --at: the state after SEQ (default the last event) is printed and the command exits."""
    if (svg_out or png_out) and at is None:
        raise click.BadParameter("a picture needs --at SEQ", param_hint="--svg/--png")
    ruleset, header, envelopes = kifu.load(source)
    timeline = Timeline(ruleset, header, envelopes)
    position = Position(timeline, seat)
    if at is not None and not 0 <= at <= timeline.last_seq:
        raise click.BadParameter(f"seq {at} is outside 0..{timeline.last_seq}", param_hint="--at")
    if at is None and not as_json and on_terminal():
        from .notes import annotations_for
        from .tui.app import ReplayApp  # Textual only where it is drawn

        ReplayApp(position, annotations_for(kifu, source, seat)).run()
        return
    position.go(timeline.last_seq if at is None else at)
    if at is not None and (svg_out or png_out):
        from .web import draw_board

        return draw_board(timeline, at, seat, svg_out, png_out)
    if as_json:
        click.echo(msgspec.json.encode(state_json(position)).decode())
        return
    render.console().print(screen(position))
