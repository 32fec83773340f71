"""``kifu legal``, ``kifu fork`` and ``kifu diff``: what else could have been decided at a point,
what if it had been, and where two records part."""
from __future__ import annotations

import json
import uuid
from typing import Any

import click
import msgspec
from rich.text import Text

from kifu.domain.core.errors import Illegal, Malformed
from kifu.domain.core.layout import faces
from kifu.domain.core.match import Match
from kifu.projections.diff import Side
from kifu.projections.diff import diff as compare
from kifu.projections.fork import fork as fork_match
from kifu.projections.fork import legal_at
from kifu.projections.timeline import Timeline

from . import render
from .context import Kifu, pass_kifu
from .human import HumanSeat
from .output import STDOUT, OutPath
from .play import make_seats, run_match, write_record_of
from .position import position_option, read_position
from .render import plural

SEAT = click.IntRange(1, 2)


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.option("--at", "at", type=int, required=True, help="The state after event SEQ (a point a fork may start from).")
@click.option("--seat", type=SEAT, default=None, help="Only this seat's decisions (default: every awaited seat).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the decisions as JSON (each command as fork --then takes it).")
@pass_kifu
def legal(kifu: Kifu, source: str, at: int, seat: int | None, as_json: bool) -> None:
    """List every legal decision after event SEQ, numbered as `kifu fork --then INDEX` takes them."""
    ruleset, header, envelopes = kifu.load(source)
    timeline = Timeline(ruleset, header, envelopes)
    options = legal_at(ruleset, header, envelopes, at, seat, timeline)
    rows = [{"seat": s, "index": i, "label": label, "command": msgspec.to_builtins(command)}
            for s, commands in options.items()
            for (i, command), label in zip(enumerate(commands, start=1), _labels(ruleset, header, timeline, at, s,
                                                                                  commands), strict=True)]
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    con = render.console()
    sealed = ruleset.decider.sealed(timeline.state_at(at))
    for s, commands in options.items():
        con.print(f"[bold]seat {s}[/] after #{at}: {len(commands)} legal decision{'s' if len(commands) != 1 else ''}"
                  + (" (sealed: both seats decide in secret)" if sealed else ""))
    for row in rows:
        con.print(Text(f"  {row['seat']}:{row['index']:<4} ", style="cyan") + Text(row["label"])
                  + Text("  " + json.dumps(row["command"], ensure_ascii=False), style="dim"))


def _labels(ruleset: Any, header: Any, timeline: Timeline, at: int, seat: int, commands: list[Any]) -> list[str]:
    """Each decision as the human prompt shows it, cards named as ``seat`` sees them."""
    state = timeline.state_at(at)
    layout = ruleset.presentation.layout(ruleset.decider.view(state, seat))
    shown = {face.id: face.name for _, face in faces(layout) if face.id and face.name}
    names = ruleset.presentation.card_names(state) if ruleset.presentation.card_names else None
    labeller = HumanSeat(ruleset, header.players, None, names)
    labels = [labeller.label(command, shown) for command in commands]
    twice = {label for label in labels if labels.count(label) > 1}
    if twice:            # two cards of one name (two 火の衛兵): these labels name each card by its id too
        ids = {card: f"{name}#{card}" for card, name in shown.items()}
        labels = [labeller.label(c, ids) if label in twice else label
                  for c, label in zip(commands, labels, strict=True)]
    return labels


def origin_bots(ruleset: Any, players: tuple[str, str], p1: str | None, p2: str | None) -> tuple[str, str]:
    """Who plays on in a fork: as given, else the origin's player where its header names a bot of
    the ruleset (``kifu play``'s default names), else the random bot."""
    def who(given: str | None, name: str) -> str:
        return given if given is not None else (name if name in ruleset.content.bots else "random")

    return who(p1, players[0]), who(p2, players[1])


@click.command()
@click.argument("source", metavar="FILE|MATCH_ID")
@click.option("--at", "at", type=int, default=None, help="Start from the state after event SEQ.")
@position_option()
@click.option("--then", "then", metavar="INDEX|JSON", default=None,
              help="The next decision: its number in `kifu legal`, or a command in JSON, "
                   "e.g. '{\"type\":\"Attack\",\"line\":2}'.")
@click.option("--seat", type=SEAT, default=None,
              help="The seat --then decides for (needed where both seats decide, e.g. a sealed step).")
@click.option("--p1", default=None,
              help="Seat 1 plays on as 'human' or a bot (default: as in the origin, else random).")
@click.option("--p2", default=None,
              help="Seat 2 plays on as 'human' or a bot (default: as in the origin, else random).")
@click.option("--seed", type=int, default=None, help="Seed of the new match (default: the origin's).")
@click.option("--stop", is_flag=True, help="Stop after --then: leave the new match open in the store.")
@click.option("--out", type=OutPath(), default=None,
              help="Also write the new match's record to this .kifu.jsonl file (- for stdout).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
@pass_kifu
def fork(kifu: Kifu, source: str, at: int | None, position_text: str | None, then: str | None, seat: int | None,
         p1: str | None, p2: str | None, seed: int | None, stop: bool, out: str | None, quiet: bool) -> None:
    """Start a new match from the state after event SEQ of a recorded one (--at), or from a
    position of its game written as text (--position TEXT or @FILE, as ``kifu position`` prints
    it: edit it to ask "what if"), and play it on with the record's decks and players."""
    if (at is None) == (position_text is None):
        raise click.UsageError("give one of --at SEQ and --position TEXT")
    if at is None and then is not None and then.strip().isdigit():
        raise click.UsageError("--then INDEX counts in `kifu legal --at SEQ`; from --position give the command "
                               "as JSON")
    ruleset, header, envelopes = kifu.load(source)
    timeline: Timeline | None = None    # the origin folded: only a fork --at needs it
    if position_text is not None:
        start, text = read_position(ruleset, position_text)
        match = Match.create(ruleset, match_id=str(uuid.uuid4()), seed=header.seed if seed is None else seed,
                             decks=list(header.decks), players=header.players, start=start, position=text,
                             forked_from=header.match_id)
    else:
        assert at is not None
        timeline = Timeline(ruleset, header, envelopes)
        match = fork_match(ruleset, header, envelopes, at, match_id=str(uuid.uuid4()), seed=seed, timeline=timeline)
    where = f"#{at}" if at is not None else "the position given"
    con = render.console(err=out == STDOUT)
    p1, p2 = origin_bots(ruleset, header.players, p1, p2)
    seats = make_seats(ruleset, p1, p2, match.header.seed, con, match.header.players, match)
    if seat is not None and then is None:
        raise click.UsageError("--seat says whom --then decides for: give --then too")
    if then is not None:
        awaited = sorted(match.awaiting)
        if seat is None and len(awaited) != 1:
            raise click.UsageError(f"--then needs a seat; at {where} the rules await "
                                   f"{' and '.join(f'seat {s}' for s in awaited) or 'nobody'}: give --seat")
        seat = seat if seat is not None else awaited[0]
        if seat not in awaited:
            raise click.UsageError(f"seat {seat} has no decision to take at {where}: the rules await "
                                   f"{' and '.join(f'seat {s}' for s in awaited) or 'nobody'}")
        if at is not None and timeline is not None:
            command = _then(ruleset, header, envelopes, at, seat, then, timeline)
        else:
            command = decode_command(ruleset, then)
        try:
            envelopes_then, state = match.decide(seat, command)
        except Illegal as exc:
            raise Illegal(exc.clause, f"--then {then} for seat {seat}: {exc.reason}") from None
    kifu.store.create(match)
    if not quiet:
        origin = f"at #{at}" if at is not None else "from the position given"
        con.print(f"match [bold]{match.header.match_id}[/] forked from {header.match_id} {origin} "
                  f"(turn {ruleset.presentation.turn(match.state)}, {_awaited(match)} to decide; "
                  f"playing on: seat 1 {p1}, seat 2 {p2})")
    if then is not None:
        kifu.store.append(match.header.match_id, match.seq, envelopes_then, outcome=ruleset.decider.outcome(state))
        match.accept(envelopes_then, state)
        if not quiet:
            names = ruleset.presentation.card_names(match.state) if ruleset.presentation.card_names else None
            for env in envelopes_then:
                con.print(render.event_line(env, names, command=ruleset.command_from_builtins))
    if stop:
        outcome = match.outcome
        con.print(f"{outcome.describe() if outcome else 'in progress'}: stored as match "
                  f"{match.header.match_id} in {kifu.store.where}")
        if out:
            write_record_of(con, kifu, match, out, kifu.signer)
        return
    run_match(con, kifu, match, seats, quiet=quiet, out=out)


def _then(ruleset: Any, header: Any, envelopes: list[Any], at: int, seat: int, then: str, timeline: Timeline) -> Any:
    """--then as a command: a number counts in `kifu legal`'s list for the seat, else it is JSON."""
    if not then.strip().isdigit():
        return decode_command(ruleset, then)
    options = legal_at(ruleset, header, envelopes, at, seat, timeline)[seat]
    index = int(then)
    if not 1 <= index <= len(options):
        raise Malformed(f"seat {seat} has {len(options)} legal decisions after #{at}: give 1..{len(options)} "
                        f"(kifu legal --at {at} --seat {seat} lists them)", "--then")
    return options[index - 1]


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
            con.print(Text(f"  {label}: ") + render.event_line(env, names, command=side.ruleset.command_from_builtins))
    _print_steps(con, result)
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


def _print_steps(con: Any, result: Any) -> None:
    """The boards at the alignment point, then after the same number of decisions in each record:
    where they first differ (with those rows), and how many of the steps compared differ."""
    if not result.steps:
        return
    start = result.steps[0]
    point = "the fork point" if result.a.forked_from or result.b.forked_from else "the start"
    con.print(f"boards at {point} (A #{start.a_seq} / B #{start.b_seq}): "
              + ("the same" if not start.differ else f"{len(start.differ)} rows differ"))
    first = result.boards_part
    if first is None:
        con.print(f"boards the same after each of {len(result.steps) - 1} decisions compared")
        return
    if first.decisions:
        con.print(f"boards first differ after {first.decisions} decision{'s' if first.decisions > 1 else ''} "
                  f"(A #{_cell(first.a_seq)} / B #{_cell(first.b_seq)}):")
        render.show_table(con, (f"after {first.decisions}", "A", "B"),
                          [(Text(row.what, style="bold yellow"), _cell(row.a), _cell(row.b)) for row in first.rows])
    differing = sum(1 for step in result.steps if step.differ)
    con.print(f"boards differ after {differing} of {len(result.steps)} points compared "
              f"(the same number of decisions into each record)")


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def _awaited(match: Any) -> str:
    return " and ".join(f"seat {s}" for s in sorted(match.awaiting)) or "nobody"
