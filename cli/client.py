"""``kifu client``: take a seat in a served match (a bot, or a human at this terminal), or create one.

    kifu client create --server URL [--deck A --deck B] [--seed N] [--name ANN --name BOB]
    kifu client --server URL --match ID --token SEAT_TOKEN [--bot random|human]
    kifu client record --server URL --match ID --token JUDGE_TOKEN [--out FILE]

Tokens can come from ``$KIFU_TOKEN`` instead of the command line (where other users of the
machine could see them in the process list).
"""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import click
import msgspec

from kifu.domain.core.layout import Layout
from kifu.domain.core.ruleset import find_ruleset
from kifu.projections.words import UNKNOWN

from . import decks as deck_spec
from . import output, render
from .context import Interrupted, ctrl_c
from .human import HumanSeat
from .output import OutPath
from .render import plural

_server = click.option("--server", envvar="KIFU_SERVER", metavar="URL", default=None,
                       help="The service, e.g. http://127.0.0.1:8080 (env KIFU_SERVER).")
_match = click.option("--match", "match_id", envvar="KIFU_MATCH", metavar="ID", default=None, help="The match id.")
_token = click.option("--token", envvar="KIFU_TOKEN", metavar="TOKEN", default=None,
                      help="A seat token (or the judge token for `record`); env KIFU_TOKEN.")


def _need(value: str | None, flag: str, ctx: click.Context) -> str:
    value = value or ctx.meta.get(f"kifu.client.{flag}")
    if not value:
        raise click.UsageError(f"missing --{flag}", ctx=ctx)
    return value


@click.group(invoke_without_command=True)
@_server
@_match
@_token
@click.option("--bot", default="human", show_default=True, metavar="human|BOT",
              help="Who plays the seat: 'human' (prompted here) or one of the ruleset's bots (random, greedy).")
@click.option("--seed", type=int, default=None, help="The bot's seed (default: random).")
@click.option("--quiet", "-q", is_flag=True, help="Bots: print only the result.")
@click.pass_context
def client(ctx: click.Context, server: str | None, match_id: str | None, token: str | None, bot: str,
           seed: int | None, quiet: bool) -> None:
    """Take a seat in a served match: prompted with the legal decisions, or played by a bot."""
    ctx.meta.update({"kifu.client.server": server, "kifu.client.match": match_id, "kifu.client.token": token})
    if ctx.invoked_subcommand is not None:
        return
    from kifu.domain.core.driver import drive
    from kifu.service.client import KifuClient
    from kifu.service.player import RemoteTable

    server, match_id, token = _need(server, "server", ctx), _need(match_id, "match", ctx), _need(token, "token", ctx)
    con = render.console()
    with KifuClient(server, token) as http:
        first = http.view(match_id)
        rules = find_ruleset(first.ruleset)
        if first.seat is None:
            from kifu.service.player import JudgeCannotPlay

            raise JudgeCannotPlay()
        seat = first.seat
        if bot != "human" and bot not in rules.content.bots:
            raise click.BadParameter(f"{bot!r}: choose 'human' or one of {', '.join(sorted(rules.content.bots))}",
                                     param_hint="--bot")
        con.print(f"match [bold]{match_id}[/] · {rules.name} · you are seat {seat} "
                  f"({first.players[seat - 1]}) against {first.players[2 - seat]}")

        def show(envelopes: list[Any], names: dict[int, str]) -> None:
            if bot == "human" or not quiet:
                for env in envelopes:
                    con.print(render.event_line(env, _namer(names), original=UNKNOWN,
                                                command=rules.command_from_builtins))

        table = RemoteTable(http, match_id, {seat: token}, fresh_views=True, follow=True, show=show,
                            position=bot == "greedy")
        if bot == "human":
            player: Any = HumanSeat(rules, first.players, con, lambda card: table.names.get(card, str(card)))
            _say_conflicts(table, con)
        else:
            player = rules.content.bots[bot](seed if seed is not None else int.from_bytes(os.urandom(4), "big"))
        try:
            drive(table, {seat: player})
        except (KeyboardInterrupt, click.Abort) as exc:
            if not ctrl_c(exc):
                raise
            raise Interrupted(f"interrupted at seq {table.seq}: match {match_id} goes on at the service; take seat "
                              f"{seat} again with: kifu client --server {server} --match {match_id} "
                              "(the seat's token in KIFU_TOKEN)") from None
        finally:
            table.close()
    outcome = table.outcome
    con.print(f"[bold]{outcome.describe() if outcome else 'stopped'}[/] at seq {table.seq} (you were seat {seat})")


def _namer(names: dict[int, str]) -> Callable[[int], str]:
    """Card names as the board showed them (an unseen card by its id)."""
    return lambda card: names.get(card, str(card))


def _say_conflicts(table: Any, con: Any) -> None:
    """A decision that lost a race (409) is said, with the position it lost to, before the new prompt."""
    submit: Callable[[int, Any], list[Any]] = table.submit

    def said(seat: int, command: Any) -> list[Any]:
        before = table.conflicts
        out = submit(seat, command)
        if table.conflicts > before:
            con.print(f"[bold yellow]conflict:[/] your decision was not taken: the match had moved on to "
                      f"event {table.seq} (another decision landed first). The position now:")
        return out

    table.submit = said


@client.command()
@_server
@_match
@_token
@click.pass_context
def watch(ctx: click.Context, server: str | None, match_id: str | None, token: str | None) -> None:
    """Follow a served match live as a judge (or a seat): every event as it lands, until the end."""
    from kifu.service.client import KifuClient
    from kifu.service.player import card_names

    server, match_id, token = _need(server, "server", ctx), _need(match_id, "match", ctx), _need(token, "token", ctx)
    con = render.console()
    with KifuClient(server, token) as http:
        first = http.view(match_id)
        rules = find_ruleset(first.ruleset)
        names = card_names(first.layout, {})
        who = "judge" if first.seat is None else f"seat {first.seat}"
        con.print(f"watching match [bold]{match_id}[/] · {rules.name} · {' vs '.join(first.players)} · as {who}")
        for message in http.stream(match_id, 0):
            if message.event == "envelope":
                env = rules.envelope_converter(msgspec.json.decode(message.data))
                con.print(render.event_line(env, _namer(names), original=UNKNOWN if first.seat else None,
                                            command=rules.command_from_builtins))
            elif message.event == "status":      # after each batch: names of cards that came into view
                names = card_names(http.view(match_id).layout, names)
            elif message.event == "end":
                break
        final = http.view(match_id)
    con.print(render.board(msgspec.convert(final.layout, Layout), final.players))
    con.print(f"[bold]{final.outcome.describe() if final.outcome else 'stream ended'}[/]")


@client.command()
@_server
@click.option("--ruleset", default="worlfard", show_default=True)
@click.option("--deck", "decks", multiple=True, metavar="PRESET|FILE",
              help="Deck for seat 1, then seat 2: a preset name or a deck file (sent as its list).")
@click.option("--name", "names", multiple=True, metavar="NAME", help="Player names, seat 1 then seat 2.")
@click.option("--event", default=None, help="Tournament metadata for the header: the event,")
@click.option("--round", "round_", default=None, help="the round,")
@click.option("--table", default=None, help="and the table.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.pass_context
def create(ctx: click.Context, server: str | None, ruleset: str, decks: tuple[str, ...],
           names: tuple[str, ...], event: str | None, round_: str | None, table: str | None, as_json: bool) -> None:
    """Create a match on the service; prints its id, both seat tokens and the judge token.

    The service draws the seed (no creator chooses the shuffles) and commits to it; the record
    reveals it when the match ends, and `kifu verify` checks it."""
    from kifu.service.client import KifuClient

    server = _need(server, "server", ctx)
    if len(decks) not in (0, 2):
        raise click.UsageError("give --deck twice (seat 1, then seat 2), or not at all")
    if len(names) > 2:
        raise click.UsageError("give --name at most twice")
    players = (names[0] if names else "seat 1", names[1] if len(names) > 1 else "seat 2")
    # a deck file is read here (the service never reads a client's files) and sent as its deck list
    specs = [msgspec.to_builtins(deck_spec.load(find_ruleset(ruleset), d)) if deck_spec.is_file(d) else d
             for d in decks]
    with KifuClient(server) as http:
        created = http.create(ruleset=ruleset, decks=(specs[0], specs[1]) if specs else None, players=players,
                              event=event, round=round_, table=table)
    if as_json:
        click.echo(msgspec.json.encode(created).decode())
        return
    t = created.tokens
    click.echo(f"match {created.match_id} ({created.ruleset}: {players[0]} vs {players[1]})")
    click.echo(f"seat 1 token: {t.seat1}")
    click.echo(f"seat 2 token: {t.seat2}")
    click.echo(f"judge token:  {t.judge}")
    if created.seed_commitment:
        click.echo(f"seed commitment: {created.seed_commitment}")
    click.echo("tokens are shown only now. To play a seat:")
    click.echo(f"  KIFU_TOKEN=<seat token> kifu client --server {server} --match {created.match_id}")


@client.command()
@_server
@_match
@_token
@click.option("--out", type=OutPath(), default=None, help="Default: MATCH_ID.kifu.jsonl; - for stdout.")
@click.pass_context
def record(ctx: click.Context, server: str | None, match_id: str | None, token: str | None, out: str | None) -> None:
    """Download a match's .kifu.jsonl record (judge token), e.g. for `kifu audit`."""
    from kifu.service.client import KifuClient

    server, match_id, token = _need(server, "server", ctx), _need(match_id, "match", ctx), _need(token, "token", ctx)
    path = out or f"{match_id}.kifu.jsonl"
    output.check(path)
    with KifuClient(server, token) as http:
        data = http.record(match_id)
    output.write_out(path, data)
    events = record_events(data)
    output.quiet_echo(path, f"{path}: {plural(events, 'event')}, {len(data)} bytes")


def record_events(data: bytes) -> int:
    """How many events a record holds, as ``kifu verify`` counts them: its lines less the header
    and, on a finished match's record, the end mark (a line with no ``seq``)."""
    lines = [line for line in data.splitlines() if line.strip()]
    body = lines[1:]
    if body and body[-1].startswith(b'{"kifu"'):
        body = body[:-1]
    return len(body)
