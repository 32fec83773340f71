"""``kifu play``: a match played into the store by bots and/or humans at this terminal."""
from __future__ import annotations

import os
import time
import uuid
from pathlib import Path
from typing import Any

import click

from domain.core.match import Match
from domain.core.ruleset import Ruleset, find_ruleset, ruleset_names
from projections.recordfile import write_record

from . import render
from .context import Kifu, pass_kifu

DEFAULT_DECKS = ("flame-gale", "tide-stone")


def seat_option(seat: int) -> Any:
    return click.option(f"--p{seat}", default="bot", show_default=True,
                        help=f"Seat {seat}: 'human' or a bot name (bot, random).")


@click.command()
@click.argument("ruleset", type=click.Choice(ruleset_names(), case_sensitive=False))
@click.option("--seed", type=int, default=None, help="Match seed (default: random, printed).")
@seat_option(1)
@seat_option(2)
@click.option("--deck", "decks", multiple=True, metavar="PRESET|FILE",
              help="Deck for seat 1, then seat 2 (preset name or TOML file). Default: two presets.")
@click.option("--name", "names", multiple=True, metavar="NAME", help="Player names, seat 1 then seat 2.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also export the finished record to this .kifu.jsonl file.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
@pass_kifu
def play(kifu: Kifu, ruleset: str, seed: int | None, p1: str, p2: str, decks: tuple[str, ...],
         names: tuple[str, ...], out: str | None, quiet: bool) -> None:
    """Play a match of RULESET into the store; humans are prompted with their legal decisions."""
    rules = find_ruleset(ruleset)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    specs = list(decks) + list(DEFAULT_DECKS[len(decks):])
    if len(specs) != 2:
        raise click.UsageError("give --deck at most twice (seat 1, then seat 2)")
    players = (names[0] if names else p1, names[1] if len(names) > 1 else p2)
    seats = make_seats(rules, p1, p2, seed)
    match = Match.create(rules, match_id=str(uuid.uuid4()), seed=seed,
                         decks=[rules.load_deck(s) for s in specs], players=players)
    kifu.store.create(match)
    con = render.console()
    if not quiet:
        con.print(f"match [bold]{match.header.match_id}[/] · {rules.name} · seed {seed} · "
                  f"{players[0]} ({specs[0]}) vs {players[1]} ({specs[1]})")
    run_match(con, kifu, match, seats, quiet=quiet, out=out)


def make_seats(rules: Ruleset[Any, Any, Any], p1: str, p2: str, seed: int) -> dict[int, Any]:
    """Seat -> bot, or None for a human at this terminal."""
    seats: dict[int, Any] = {}
    for seat, kind in ((1, p1), (2, p2)):
        if kind == "human":
            seats[seat] = None
        elif kind in rules.bots:
            seats[seat] = rules.bots[kind](seed * 2 + seat)
        else:
            raise click.BadParameter(f"{kind!r}: choose 'human' or one of {', '.join(sorted(rules.bots))}",
                                     param_hint=f"--p{seat}")
    return seats


def run_match(con: Any, kifu: Kifu, match: Match, seats: dict[int, Any], *, quiet: bool,
              out: str | None = None) -> int:
    """Drive a stored match to its end (bots choose, humans are asked), storing every decision;
    print the summary, export to ``out`` if given. Returns the number of decisions taken."""
    rules = match.ruleset
    store = kifu.store
    names_of = rules.card_names(match.state) if rules.card_names else None
    started = time.perf_counter()
    decisions = 0
    while match.outcome is None:
        seat = match.awaiting
        assert seat is not None
        legal = match.legal(seat)
        bot = seats[seat]
        command = ask_human(con, match, seat, legal) if bot is None else bot.choose(legal, match.state, seat)
        envelopes, state = match.decide(seat, command)
        store.append(match.header.match_id, match.seq, envelopes, outcome=rules.outcome(state))
        match.accept(envelopes, state)
        decisions += 1
        if not quiet and (bot is None or seats[2 if seat == 1 else 1] is None):
            for env in envelopes:
                con.print(render.event_line(rules.redact(env, _human_seat(seats)), names_of))
    elapsed = time.perf_counter() - started
    outcome = match.outcome
    con.print(f"[bold]{outcome.describe()}[/] after turn {getattr(match.state, 'turn', '?')}: "
              f"{decisions} decisions, {match.seq} events in {elapsed:.2f}s")
    con.print(f"stored as match {match.header.match_id} in {store.where}")
    if out:
        size = write_record(out, match.header, match.envelopes)
        con.print(f"record written to {Path(out)} ({size} bytes, {size / max(1, match.seq + 1):.0f} bytes/line)")
    return decisions


def _human_seat(seats: dict[int, Any]) -> int | None:
    humans = [s for s, bot in seats.items() if bot is None]
    return humans[0] if len(humans) == 1 else None


def ask_human(con: Any, match: Match, seat: int, legal: list[Any]) -> Any:
    """Show the board as ``seat`` sees it and prompt for one of the legal decisions by number."""
    rules = match.ruleset
    names_of = rules.card_names(match.state) if rules.card_names else None
    con.print(render.board(rules.view(match.state, seat), match.header.players))
    for index, command in enumerate(legal, start=1):
        con.print(f"  [cyan]{index:>3}[/] {render.describe_event(command, names_of)}")
    choice = click.prompt(f"seat {seat}, your decision", type=click.IntRange(1, len(legal)))
    return legal[choice - 1]
