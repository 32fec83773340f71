"""``kifu judge MATCH_ID call|ruling|backup|penalty|extend|result …`` and ``kifu penalties``.

A judge's act is recorded in the stored match's own stream (``kifu.domain.core.judged``), stamped
with this machine's time and, with ``--key``, signed by the judge's key. A refused act (a backup
across a sealed choice, an unknown clause id, a penalty not on the list) is one line and stores
nothing. ``docs/judging.md`` has a worked example.
"""
from __future__ import annotations

import json
import os
from typing import Any

import click
import msgspec
from rich.table import Table

from kifu.domain.core.judging import (
    JudgeBackup,
    JudgeCall,
    JudgePenalty,
    JudgeResult,
    JudgeRuling,
    TimeExtension,
    words,
)
from kifu.projections.penalties import FIELDS, PenaltyRow, penalty_rows

from . import render
from .context import Kifu, pass_kifu

Seat = click.IntRange(1, 2)
Seq = click.IntRange(1)


class Acting(msgspec.Struct, kw_only=True):
    kifu: Any
    match_id: str
    judge: str
    key: str | None
    penalties: str | None


@click.group()
@click.argument("match_id")
@click.option("--judge", "judge_name", envvar="KIFU_JUDGE", required=True, metavar="NAME",
              help="The judge's name, recorded with the act (default: $KIFU_JUDGE).")
@click.option("--key", type=click.Path(dir_okay=False), default=None,
              help="Sign the act with this key file (`kifu keys new`): the judge's own signature.")
@click.option("--penalties", type=click.Path(dir_okay=False), default=None,
              help="The penalty list a penalty must come from (JSON; default $KIFU_PENALTIES, else IPG's).")
@pass_kifu
@click.pass_context
def judge(ctx: click.Context, kifu: Kifu, match_id: str, judge_name: str, key: str | None,
          penalties: str | None) -> None:
    """Record a judge's act in a stored match: a call, a ruling, a backup, a penalty, a time
    extension or a result. Each is an event of kind "judge" in the match's own record (the
    judge's name, the time, an optional signature); verify, audit and the seats' streams see it."""
    ctx.obj = Acting(kifu=kifu, match_id=match_id, judge=judge_name.strip(), key=key, penalties=penalties)


def _record(acting: Acting, event: Any) -> None:
    from kifu.store.clock import utc_now
    from kifu.store.keys import load_signer
    from kifu.store.penalties import penalties_from

    kifu: Kifu = acting.kifu
    signer = load_signer(acting.key) if acting.key else None
    listed = penalties_from(os.environ, acting.penalties) if isinstance(event, JudgePenalty) else None
    match_id = kifu.resolve(acting.match_id)
    match, envelopes = kifu.existing.judge(match_id, event, time=utc_now(), signer=signer, penalties=listed)
    first = envelopes[0]
    signed = f" (signed by {first.event.signer})" if first.event.signature else ""
    click.echo(f"#{first.seq} {words(first.event)}{signed}")
    if match.outcome is not None:
        click.echo(f"match over: {match.outcome.describe()}")


@judge.command()
@click.argument("question")
@click.option("--seat", type=Seat, required=True, help="The seat that called the judge.")
@click.option("--at", type=Seq, default=None, help="The seq the call is about (default: the last event).")
@click.pass_obj
def call(acting: Acting, question: str, seat: int, at: int | None) -> None:
    """A seat called a judge about the event at --at."""
    if at is None:
        at = len(acting.kifu.existing.events(acting.kifu.resolve(acting.match_id)))
    _record(acting, JudgeCall(judge=acting.judge, seat=seat, at=at, question=question))


@judge.command()
@click.argument("text")
@click.option("--call", "call_seq", type=Seq, required=True, help="The seq of the call this answers.")
@click.option("--clause", required=True, help="The clause id the ruling applies (`kifu rules RULESET`).")
@click.option("--changed", is_flag=True, help="The decision was changed (default: upheld).")
@click.pass_obj
def ruling(acting: Acting, text: str, call_seq: int, clause: str, changed: bool) -> None:
    """The judge's answer to a call: the clause, the text, upheld or changed."""
    _record(acting, JudgeRuling(judge=acting.judge, call=call_seq, clause=clause.strip(), text=text,
                                decision="changed" if changed else "upheld"))


@judge.command()
@click.option("--to", type=Seq, required=True, help="The seq of the decision taken again.")
@click.option("--reason", default="", help="Why the judge backs up.")
@click.pass_obj
def backup(acting: Acting, to: int, reason: str) -> None:
    """Back the match up to the state before the decision at --to; it goes on from there in the
    same record, the decks reshuffled (what one seat saw goes back to the random part)."""
    _record(acting, JudgeBackup(judge=acting.judge, to=to, reason=reason))


@judge.command()
@click.option("--seat", type=Seat, required=True)
@click.option("--infraction", required=True, help="From the penalty list (IPG's by default), e.g. 'Slow Play'.")
@click.option("--penalty", "given", required=True, help="From the penalty list, e.g. Warning, 'Game Loss'.")
@click.option("--note", default="")
@click.pass_obj
def penalty(acting: Acting, seat: int, infraction: str, given: str, note: str) -> None:
    """A penalty for a seat: an infraction and a penalty from the penalty list."""
    _record(acting, JudgePenalty(judge=acting.judge, seat=seat, infraction=infraction, penalty=given, note=note))


@judge.command()
@click.option("--seat", type=Seat, required=True)
@click.option("--minutes", type=click.IntRange(1, 600), required=True)
@click.option("--reason", default="")
@click.pass_obj
def extend(acting: Acting, seat: int, minutes: int, reason: str) -> None:
    """A time extension for a seat."""
    _record(acting, TimeExtension(judge=acting.judge, seat=seat, minutes=minutes, reason=reason))


@judge.command()
@click.argument("result", type=click.Choice(["game-loss", "draw"]))
@click.option("--seat", type=Seat, default=None, help="With game-loss: the seat that loses.")
@click.option("--reason", required=True)
@click.pass_obj
def result(acting: Acting, result: str, seat: int | None, reason: str) -> None:
    """End the match by a judge's decision: a game loss for --seat, or a draw."""
    _record(acting, JudgeResult(judge=acting.judge, result="game loss" if result == "game-loss" else "draw",
                                seat=seat, reason=reason))


@click.command()
@click.option("--event", default=None, help="Only penalties of this event.")
@click.option("--seat", type=Seat, default=None, help="Only penalties given to this seat.")
@click.option("--player", default=None, help="Only penalties of this player (by name, across rounds).")
@click.option("--json", "as_json", is_flag=True, help="One JSON list, for scripts.")
@pass_kifu
def penalties(kifu: Kifu, event: str | None, seat: int | None, player: str | None, as_json: bool) -> None:
    """List the penalties recorded across stored matches, oldest match first (for upgrades across
    rounds). On a terminal a table; piped, tab-separated values with a header line."""
    store = kifu.existing
    rows: list[PenaltyRow] = []
    for row in store.list_matches():
        header = store.header(row.match_id)
        if event is not None and (header.event or "") != event:
            continue
        rows.extend(penalty_rows(header, store.events(row.match_id)))
    rows = [r for r in rows if (seat is None or r.seat == seat) and (player is None or r.player == player)]
    if as_json:
        click.echo(json.dumps(msgspec.to_builtins(rows), ensure_ascii=False))
        return
    con = render.console()
    if not con.is_terminal:
        click.echo("\t".join(FIELDS))
        for r in rows:
            click.echo("\t".join(str(getattr(r, f)) for f in FIELDS))
        return
    if not rows:
        click.echo("no penalties recorded" + (" for these filters" if event or seat or player else ""))
        return
    table = Table("time", "event", "round", "match", "#", "seat", "player", "infraction", "penalty", "judge")
    for r in rows:
        table.add_row(r.time[:16].replace("T", " "), r.event, r.round, r.match_id[:8], str(r.seq), str(r.seat),
                      r.player, r.infraction, r.penalty, r.judge)
    con.print(table)
