"""``kifu fork`` and ``kifu diff``: what if a decision had been different, and where two records part."""
from __future__ import annotations

import json
import uuid
from typing import Any

import click
import msgspec
from rich.text import Text

from kifu.domain.core.errors import Illegal, Malformed
from kifu.domain.core.match import Match
from kifu.projections.diff import Side
from kifu.projections.diff import diff as compare
from kifu.projections.fork import fork as fork_match
from kifu.projections.timeline import Timeline

from . import render
from .context import Kifu, pass_kifu
from .output import STDOUT, OutPath
from .play import DEFAULT_SEAT, make_seats, run_match, seat_option, write_record_of
from .position import position_option, read_position
from .render import plural


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.option("--at", "at", type=int, default=None, help="Start from the state after event SEQ.")
@position_option()
@click.option("--then", "then", metavar="JSON", default=None,
              help="The next decision, as a command in JSON, e.g. '{\"type\":\"Attack\",\"line\":2}'.")
@seat_option(1)
@seat_option(2)
@click.option("--seed", type=int, default=None, help="Seed of the new match (default: the origin's).")
@click.option("--stop", is_flag=True, help="Stop after --then: leave the new match open in the store.")
@click.option("--out", type=OutPath(), default=None,
              help="Also write the new match's record to this .kifu.jsonl file (- for stdout).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
@pass_kifu
def fork(kifu: Kifu, source: str, at: int | None, position_text: str | None, then: str | None, p1: str | None,
         p2: str | None,
         seed: int | None, stop: bool, out: str | None, quiet: bool) -> None:
    """Start a new match from the state after event SEQ of a recorded one (--at), or from a
    position of its game written as text (--position TEXT or @FILE, as ``kifu position`` prints
    it: edit it to ask "what if"), and play it on with the record's decks and players."""
    if (at is None) == (position_text is None):
        raise click.UsageError("give one of --at SEQ and --position TEXT")
    ruleset, header, envelopes = kifu.load(source)
    if position_text is not None:
        start, text = read_position(ruleset, position_text)
        match = Match.create(ruleset, match_id=str(uuid.uuid4()), seed=header.seed if seed is None else seed,
                             decks=list(header.decks), players=header.players, start=start, position=text,
                             forked_from=header.match_id)
    else:
        assert at is not None
        timeline = Timeline(ruleset, header, envelopes)
        match = fork_match(ruleset, header, envelopes, at, match_id=str(uuid.uuid4()), seed=seed, timeline=timeline)
    con = render.console(err=out == STDOUT)
    seats = make_seats(ruleset, p1 or DEFAULT_SEAT, p2 or DEFAULT_SEAT, match.header.seed, con,
                       match.header.players, match)
    if then is not None:
        command = decode_command(ruleset, then)
        awaited = sorted(match.awaiting)
        if len(awaited) != 1:
            raise click.UsageError(f"--then needs one awaited seat; there the rules await "
                                   f"{' and '.join(f'seat {s}' for s in awaited) or 'nobody'}")
        seat = awaited[0]
        try:
            envelopes_then, state = match.decide(seat, command)
        except Illegal as exc:
            raise Illegal(exc.clause, f"--then {then} for seat {seat}: {exc.reason}") from None
    kifu.store.create(match)
    if not quiet:
        origin = f"at #{at}" if at is not None else "from the position given"
        con.print(f"match [bold]{match.header.match_id}[/] forked from {header.match_id} {origin} "
                  f"(turn {ruleset.presentation.turn(match.state)}, {_awaited(match)} to decide)")
    if then is not None:
        kifu.store.append(match.header.match_id, match.seq, envelopes_then, outcome=ruleset.decider.outcome(state))
        match.accept(envelopes_then, state)
        if not quiet:
            names = ruleset.presentation.card_names(match.state) if ruleset.presentation.card_names else None
            for env in envelopes_then:
                con.print(render.event_line(env, names))
    if stop:
        outcome = match.outcome
        con.print(f"{outcome.describe() if outcome else 'in progress'}: stored as match "
                  f"{match.header.match_id} in {kifu.store.where}")
        if out:
            write_record_of(con, kifu, match, out, kifu.signer)
        return
    run_match(con, kifu, match, seats, quiet=quiet, out=out)


def decode_command(ruleset: Any, text: str) -> Any:
    try:
        return ruleset.command_decoder().decode(text)
    except msgspec.ValidationError as exc:
        raise Malformed(f"not a {ruleset.name} command: {exc}", "--then") from None
    except msgspec.DecodeError as exc:
        raise Malformed(f"not JSON ({exc})", "--then") from None


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--all", "show_all", is_flag=True, help="Show every row of the end state, not only those that differ.")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@pass_kifu
def diff(kifu: Kifu, a: str, b: str, show_all: bool, as_json: bool) -> None:
    """Where two records (files or stored match ids) part, and how their outcomes differ.

    Exit 0 if they are the same, 1 if they differ (like diff)."""
    sides = []
    for name in (a, b):
        ruleset, header, envelopes = kifu.load(name)
        sides.append(Side(name, ruleset, header, envelopes))
    if sides[0].ruleset.name != sides[1].ruleset.name:
        raise click.UsageError(f"A is a {sides[0].ruleset.name} match and B a {sides[1].ruleset.name} one: "
                               "diff compares two records of one ruleset")
    result = compare(sides[0], sides[1])
    if as_json:
        out = msgspec.to_builtins(result)
        out["same"] = result.same
        click.echo(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        _print_diff(result, sides, show_all)
    if not result.same:
        raise SystemExit(1)


ALWAYS_SHOWN = ("winner", "ended by")


def _print_diff(result: Any, sides: list[Side], show_all: bool) -> None:
    con = render.console()
    for label, src in (("A", result.a), ("B", result.b)):
        origin = f", forked from {src.forked_from} at #{src.forked_at}" if src.forked_from else ""
        con.print(f"[bold]{label}[/] {src.name}: match {src.match_id}{origin} · seed {src.seed} · "
                  f"{src.events} events, {src.decisions} decisions · {src.outcome}")
    con.print(result.relation + (f"; compared from A #{result.a_from} / B #{result.b_from}"
                                 if (result.a_from, result.b_from) != (1, 1) else ""))
    part = result.parting
    if part is None:
        con.print(f"[green]no event differs[/] ({result.common} compared)")
    else:
        con.print(f"{result.common} events agree, then they part at "
                  f"[bold]A #{part.a_seq} / B #{part.b_seq}[/] ({', '.join(part.differ)} differ):")
        for label, raw, side in (("A", part.a, sides[0]), ("B", part.b, sides[1])):
            if raw is None:
                con.print(f"  {label}: (its record has ended)")
                continue
            env = side.envelopes[(part.a_seq if label == "A" else part.b_seq) - 1]
            card_names = side.ruleset.presentation.card_names
            names = card_names(side.ruleset.decider.initial_state(side.header)) if card_names else None
            con.print(Text(f"  {label}: ") + render.event_line(env, names))
    rows = []
    hidden = 0
    for row in result.outcome:
        if not (show_all or row.differs or row.what in ALWAYS_SHOWN):
            hidden += 1
            continue
        style = "bold yellow" if row.differs else "dim"
        rows.append((Text(row.what, style=style), _cell(row.a), _cell(row.b)))
    render.show_table(con, ("at the end", "A", "B"), rows)
    if hidden:
        con.print(f"{plural(hidden, 'more row')} {'is' if hidden == 1 else 'are'} the same in both (--all shows them)",
                  style="dim")


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def _awaited(match: Any) -> str:
    return " and ".join(f"seat {s}" for s in sorted(match.awaiting)) or "nobody"
