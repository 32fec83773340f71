"""``kifu stats``: tournament standings from the store, kept up to date from its notification log."""
from __future__ import annotations

import json

import click
import msgspec

from kifu.domain.core.ruleset import find_ruleset
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
@click.option("--ruleset", default=None, help="Only this ruleset's matches (default: one report per ruleset).")
@click.option("--event", "event", default=None, help="Only the matches of this event (their header's event).")
@click.option("--round", "round_", default=None, metavar="ROUND", help="Only the matches of this round of an event.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@pass_kifu
def stats(kifu: Kifu, db: str | None, rebuild: bool, top: int, ruleset: str | None, event: str | None,
          round_: str | None, as_json: bool) -> None:
    """Standings per player and deck, cards played and average match length: one report per ruleset.

    The standings live in their own tables in the store's database with the position of the
    last stored event they include; each run folds in only what was stored since."""
    if db:
        kifu = Kifu(db)
    store = kifu.existing
    if ruleset is not None:
        ruleset = find_ruleset(ruleset).name      # an unknown ruleset is refused, naming the known ones
    standings = open_standings(store)
    try:
        folded = standings.rebuild() if rebuild else standings.catch_up()
        names = [ruleset] if ruleset is not None else standings.rulesets(event, round_)
        reports = [standings.report(top=top, ruleset=name, event=event, round_=round_) for name in names]
        position = standings.position
    finally:
        standings.close()
        if db:
            kifu.close()
    if as_json:
        click.echo(json.dumps({"folded": folded, "position": position, "event": event, "round": round_,
                               "reports": [msgspec.to_builtins(r) for r in reports]}, ensure_ascii=False, indent=1))
        return
    con = render.console()
    matches = sum(r.matches for r in reports)
    left_out = sum(r.left_out for r in reports)
    scope = "".join([f" of event {event}" if event else "", f" round {round_}" if round_ else ""])
    con.print(f"{plural(matches, 'match')}{scope} ({sum(r.finished for r in reports)} finished) from {store.where}; "
              f"{plural(folded, 'new event')} folded in, up to notification {position}"
              + (f"; {plural(left_out, 'fork or scenario', 'forks and scenarios')} left out" if left_out else ""),
              highlight=False)
    for report in reports:
        name = report.ruleset
        if len(reports) > 1:
            con.print(f"{name}: {plural(report.matches, 'match')} ({report.finished} finished)", highlight=False)
        for title, lines in (("player", report.players), ("deck", report.decks)):
            render.show_table(con, (title, "played", "won", "lost", "drawn", "ongoing", "score"),
                              [_cells(line) for line in lines], title=f"{name}: by {title}")
        render.show_table(con, ("card", "deck", "as", "times"),
                          [(play.card, play.deck, play.how, str(play.n)) for play in report.cards],
                          title=f"{name}: cards played (top {top})")
        if report.avg_turns is not None:
            con.print(f"{name}: average finished match: {report.avg_turns} turns, {report.avg_decisions} decisions, "
                      f"{report.avg_events} events", highlight=False)


def _cells(line: Line) -> list[str]:
    return [line.name, str(line.played), str(line.won), str(line.lost), str(line.drawn), str(line.ongoing),
            f"{line.score:g}"]
