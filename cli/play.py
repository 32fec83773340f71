"""``kifu play``: a match played into the store by bots and/or humans at this terminal."""
from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kifu.domain.core.bot import Bot
from kifu.domain.core.driver import LocalTable, drive
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Ruleset, find_ruleset, ruleset_names
from kifu.domain.core.visibility import redact
from kifu.projections.recordfile import write_match
from kifu.store.clock import utc_now

from . import decks as deck_spec
from . import render
from .context import Kifu, pass_kifu
from .human import HumanSeat
from .position import position_option, read_position

F = TypeVar("F", bound=Callable[..., Any])


def seat_option(seat: int) -> Callable[[F], F]:
    return click.option(f"--p{seat}", default="random", show_default=True,
                        help=f"Seat {seat}: 'human' or a bot of the ruleset (random, greedy).")


@click.command()
@click.argument("ruleset", type=click.Choice(ruleset_names(), case_sensitive=False), required=False)
@click.option("--resume", metavar="MATCH_ID", default=None,
              help="Go on with an unfinished stored match (an id or an unambiguous prefix) instead of a new one.")
@click.option("--seed", type=int, default=None, help="Match seed (default: random, printed).")
@seat_option(1)
@seat_option(2)
@click.option("--deck", "decks", multiple=True, metavar="PRESET|FILE",
              help="Deck for seat 1, then seat 2 (preset name or TOML file). Default: the first two presets.")
@click.option("--name", "names", multiple=True, metavar="NAME", help="Player names, seat 1 then seat 2.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also export the finished record to this .kifu.jsonl file.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
@click.option("--event", default=None, metavar="NAME", help="Tournament metadata for the header: the event,")
@click.option("--round", "round_", default=None, metavar="ROUND", help="the round,")
@click.option("--table", default=None, metavar="TABLE", help="and the table.")
@position_option()
@pass_kifu
def play(kifu: Kifu, ruleset: str | None, resume: str | None, seed: int | None, p1: str, p2: str,
         decks: tuple[str, ...], names: tuple[str, ...], out: str | None, quiet: bool,
         event: str | None, round_: str | None, table: str | None, position_text: str | None) -> None:
    """Play a match of RULESET into the store; humans are prompted with their legal decisions.

    With --resume MATCH_ID an unfinished match (a human who quit, a crash) goes on from where
    it stopped, with the seats given by --p1/--p2. With --position TEXT (or @FILE) the match starts
    from that position (``kifu position`` prints one) instead of the setup."""
    if resume is not None:
        if ruleset or decks or names or seed is not None or event or round_ or table or position_text:
            raise click.UsageError("--resume takes only --p1, --p2, --out and -q: "
                                   "the match's header is already written")
        resumed = kifu.store.load(kifu.resolve(resume))
        if resumed.outcome is not None:
            raise click.UsageError(f"match {resumed.header.match_id} is over ({resumed.outcome.describe()}): "
                                   "nothing to resume")
        con = render.console()
        header = resumed.header
        seats = make_seats(resumed.ruleset, p1, p2, header.seed, con, header.players, resumed)
        if not quiet:
            con.print(f"resuming match [bold]{header.match_id}[/] · {header.ruleset} at event {resumed.seq}")
        run_match(con, kifu, resumed, seats, quiet=quiet, out=out)
        return
    if ruleset is None:
        raise click.UsageError("give a RULESET (or --resume MATCH_ID)")
    rules = find_ruleset(ruleset)
    start, position_text = (None, None) if position_text is None else read_position(rules, position_text)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    specs = default_decks(rules, decks)
    players = (names[0] if names else p1, names[1] if len(names) > 1 else p2)
    match = Match.create(rules, match_id=str(uuid.uuid4()), seed=seed,
                         decks=[deck_spec.load(rules, s) for s in specs], players=players,
                         start=start, position=position_text, event=event, round=round_, table=table, date=utc_now())
    con = render.console()
    seats = make_seats(rules, p1, p2, seed, con, players, match)
    kifu.store.create(match)
    if not quiet:
        con.print(f"match [bold]{match.header.match_id}[/] · {rules.name} · seed {seed} · "
                  f"{players[0]} ({specs[0]}) vs {players[1]} ({specs[1]})")
    run_match(con, kifu, match, seats, quiet=quiet, out=out)


def default_decks(rules: Ruleset[Any, Any, Any], decks: tuple[str, ...]) -> list[str]:
    """The decks given (seat 1, then seat 2), the rest from the ruleset's first presets."""
    if len(decks) > 2:
        raise click.UsageError("give --deck at most twice (seat 1, then seat 2)")
    presets = rules.content.presets()
    fallback = (presets + presets)[:2] if presets else []
    specs = list(decks) + fallback[len(decks):]
    if len(specs) != 2:
        raise click.UsageError(f"{rules.name} has no preset decks: give --deck twice")
    return specs


def make_seats(rules: Ruleset[Any, Any, Any], p1: str, p2: str, seed: int, con: Any,
               players: tuple[str, str], match: Match) -> dict[int, Bot]:
    """Seat -> who decides there: a bot of the ruleset, or a person at this terminal."""
    seats: dict[int, Bot] = {}
    names = rules.presentation.card_names(match.state) if rules.presentation.card_names else None
    for seat, kind in ((1, p1), (2, p2)):
        if kind == "human":
            seats[seat] = HumanSeat(rules, players, con, names)
        elif kind in rules.content.bots:
            seats[seat] = rules.content.bots[kind](seed * 2 + seat)
        else:
            raise click.BadParameter(f"{kind!r}: choose 'human' or one of {', '.join(sorted(rules.content.bots))}",
                                     param_hint=f"--p{seat}")
    return seats


def run_match(con: Any, kifu: Kifu, match: Match, seats: dict[int, Bot], *, quiet: bool,
              out: str | None = None) -> int:
    """Drive a stored match to its end (bots choose, humans are asked), storing every decision;
    print the summary, export to ``out`` if given. Returns the number of decisions taken."""
    rules = match.ruleset
    store = kifu.store
    signer = kifu.signer if out else None     # a bad $KIFU_SIGNING_KEY fails before play, not after
    names_of = rules.presentation.card_names(match.state) if rules.presentation.card_names else None
    humans = [s for s, seat in seats.items() if isinstance(seat, HumanSeat)]
    viewer = humans[0] if len(humans) == 1 else None

    def submit(m: Match, seat: int, command: Any, basis: int) -> list[Envelope[Any]]:
        envelopes, state = m.decide(seat, command, basis, received=utc_now())
        store.append(m.header.match_id, m.seq, envelopes, outcome=rules.decider.outcome(state))
        m.accept(envelopes, state)
        return envelopes

    def shown(seat: int, envelopes: list[Envelope[Any]]) -> None:
        if not quiet and humans:
            for env in envelopes:
                con.print(render.event_line(redact(rules, env, viewer), names_of))

    started = time.perf_counter()
    decisions = drive(LocalTable(match, submit), seats, shown=shown)
    elapsed = time.perf_counter() - started
    outcome = match.outcome
    assert outcome is not None
    con.print(f"[bold]{outcome.describe()}[/] after turn {rules.presentation.turn(match.state)}: "
              f"{decisions} decisions, {match.seq} events in {elapsed:.2f}s")
    con.print(f"stored as match {match.header.match_id} in {store.where}")
    if out:
        size = write_match(out, match, signer)
        con.print(f"record written to {Path(out)} ({size} bytes, {size / max(1, match.seq + 1):.0f} bytes/line)")
    return decisions
