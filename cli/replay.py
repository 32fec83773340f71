"""``kifu replay``: step a match forward and backward, event by event or decision by decision."""
from __future__ import annotations

from typing import Any

import click
from rich.text import Text

from domain.core.visibility import redact
from projections.timeline import Timeline

from . import render
from .context import Kifu, pass_kifu

KEYS = {
    "next event": ("n", "l", " ", "\x1b[C"),
    "previous event": ("p", "h", "\x1b[D"),
    "next decision": ("N", "]", "\x1b[B", "j"),
    "previous decision": ("P", "[", "\x1b[A", "k"),
    "first event": ("0", "g0"),
    "last event": ("$", "G"),
    "jump to seq": ("g", ":"),
    "quit": ("q", "\x1b", "\x03", "\x04"),
}
HELP = "n/→ next · p/← prev · N/] next decision · P/[ prev decision · g jump · 0 start · G end · q quit"


def _key_action(key: str) -> str | None:
    for action, keys in KEYS.items():
        if key in keys:
            return action
    return None


class Stepper:
    """Screen state of the stepper: a seq into a timeline, rendered for a seat or the judge."""

    def __init__(self, timeline: Timeline, seat: int | None) -> None:
        self.timeline = timeline
        self.seat = seat
        self.seq = 0

    def screen(self) -> Any:
        tl = self.timeline
        rules = tl.ruleset
        state = tl.state_at(self.seq)
        names = rules.card_names(state) if rules.card_names else None
        lines: list[Any] = [render.board(rules.layout(rules.view(state, self.seat)), tl.header.players)]
        for seq in range(max(1, self.seq - 4), self.seq + 1):
            env = tl.envelope(seq)
            if env is not None:
                line = render.event_line(redact(rules, env, self.seat), names)
                if seq == self.seq:
                    line.stylize("reverse")
                lines.append(line)
        env = tl.envelope(self.seq)
        if env is not None and env.clause:
            entry = rules.clauses().get(env.clause)
            if entry is not None:
                lines.append(Text(f"{env.clause} {entry.title}: {entry.text}", style="green"))
        who = "judge view" if self.seat is None else f"seat {self.seat}'s view"
        lines.append(Text(f"event {self.seq}/{tl.last_seq} · {who} · {HELP}", style="dim"))
        return render.Group(*lines)

    def apply(self, action: str, target: int | None = None) -> None:
        tl = self.timeline
        match action:
            case "next event":
                self.seq = min(tl.last_seq, self.seq + 1)
            case "previous event":
                self.seq = max(0, self.seq - 1)
            case "next decision":
                self.seq = tl.next_decision(self.seq)
            case "previous decision":
                self.seq = tl.prev_decision(self.seq)
            case "first event":
                self.seq = 0
            case "last event":
                self.seq = tl.last_seq
            case "jump to seq" if target is not None:
                self.seq = max(0, min(tl.last_seq, target))


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.option("--at", "at", type=int, default=None, help="Print the state after event SEQ and exit.")
@click.option("--seat", type=click.IntRange(1, 2), default=None, help="Show only what this seat could see.")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None, help="With --at: draw the board as SVG.")
@click.option("--png", "png_out", type=click.Path(dir_okay=False), default=None, help="With --at: draw the board as PNG.")
@pass_kifu
def replay(kifu: Kifu, source: str, at: int | None, seat: int | None, svg_out: str | None, png_out: str | None) -> None:
    """Step through a recorded match (a .kifu.jsonl file or a stored match id)."""
    if (svg_out or png_out) and at is None:
        raise click.BadParameter("a picture needs --at SEQ", param_hint="--svg/--png")
    ruleset, header, envelopes = kifu.load(source)
    timeline = Timeline(ruleset, header, envelopes)
    stepper = Stepper(timeline, seat)
    con = render.console()
    if at is not None:
        if not 0 <= at <= timeline.last_seq:
            raise click.BadParameter(f"seq {at} is outside 0..{timeline.last_seq}", param_hint="--at")
        stepper.seq = at
        if svg_out or png_out:
            from .web import draw_board

            return draw_board(timeline, at, seat, svg_out, png_out)
        con.print(stepper.screen())
        return
    interactive = con.is_terminal
    while True:
        if interactive:
            con.clear()
        con.print(stepper.screen())
        key = click.getchar()
        action = _key_action(key)
        if action == "quit":
            break
        if action == "jump to seq":
            target = click.prompt("jump to seq", type=click.IntRange(0, timeline.last_seq), err=True)
            stepper.apply(action, target)
        elif action is not None:
            stepper.apply(action)

