"""``kifu stats``: tournament standings from the store, kept up to date from its notification log."""
from __future__ import annotations

import json

import click
import msgspec

from kifu.projections.standings import Line
from kifu.store.standings import open_standings

from . import render
from .context import Kifu, pass_kifu
from .render import plural


@click.command()
@click.option("--db", "db", default=None, metavar="PATH|URL",
              help="Match store to read (default: the one given to kifu, else $KIFU_DB or ./kifu.db).")
@click.option("--rebuild", is_flag=True, help="Forget the standings and fold the whole log again.")
@click.option("--top", type=click.IntRange(1), default=10, show_default=True, help="Cards to list.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@pass_kifu
def stats(kifu: Kifu, db: str | None, rebuild: bool, top: int, as_json: bool) -> None:
    """Standings per player and deck, cards played and average match length.

    The standings live in their own tables in the store's database with the position of the
    last stored event they include; each run folds in only what was stored since."""
    if db:
        kifu = Kifu(db)
    store = kifu.existing
    standings = open_standings(store)
    try:
        folded = standings.rebuild() if rebuild else standings.catch_up()
        report = standings.report(top=top)
    finally:
        standings.close()
        if db:
            kifu.close()
    if as_json:
        out = msgspec.to_builtins(report)
        out["folded"] = folded
        click.echo(json.dumps(out, ensure_ascii=False, indent=1))
        return
    con = render.console()
    con.print(f"{plural(report.matches, 'match')} ({report.finished} finished) from {store.where}; "
              f"{plural(folded, 'new event')} folded in, up to notification {report.position}"
              + (f"; {plural(report.left_out, 'fork or scenario', 'forks and scenarios')} left out"
                 if report.left_out else ""))
    for title, lines in (("player", report.players), ("deck", report.decks)):
        render.show_table(con, (title, "played", "won", "lost", "drawn", "ongoing", "score"),
                          [_cells(line) for line in lines], title=f"by {title}")
    render.show_table(con, ("card", "deck", "as", "times"),
                      [(play.card, play.deck, play.how, str(play.n)) for play in report.cards],
                      title=f"cards played (top {top})")
    if report.avg_turns is not None:
        con.print(f"average finished match: {report.avg_turns} turns, {report.avg_decisions} decisions, "
                  f"{report.avg_events} events")


def _cells(line: Line) -> list[str]:
    return [line.name, str(line.played), str(line.won), str(line.lost), str(line.drawn), str(line.ongoing),
            f"{line.score:g}"]
