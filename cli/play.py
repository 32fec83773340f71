"""``kifu play``: a match played into the store by bots and/or humans at this terminal."""
from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import click

from kifu.domain.core.bot import Bot
from kifu.domain.core.driver import LocalTable, drive
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import KifuError
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Ruleset, find_ruleset
from kifu.domain.core.visibility import redact
from kifu.projections.limits import over_limits
from kifu.projections.recordfile import match_bytes
from kifu.store.clock import utc_now

from . import decks as deck_spec
from . import render
from .context import Interrupted, Kifu, ctrl_c, pass_kifu
from .human import HumanSeat
from .names import RulesetName, unknown_name
from .output import STDOUT, CannotWrite, OutPath, write_out
from .position import position_option, read_position
from .render import plural

HUMAN = "human"
DEFAULT_SEAT = "random"

F = TypeVar("F", bound=Callable[..., Any])


def seat_option(seat: int) -> Callable[[F], F]:
    return click.option(f"--p{seat}", default=None, metavar="human|BOT",
                        help=f"Seat {seat}: 'human' or a bot of the ruleset (random, greedy); default random "
                             "(with --resume: who the record seats there).")


@click.command()
@click.argument("ruleset", type=RulesetName(), required=False)
@click.option("--resume", metavar="MATCH_ID", default=None,
              help="Go on with an unfinished stored match (an id or an unambiguous prefix) instead of a new one.")
@click.option("--seed", type=int, default=None, help="Match seed (default: random, printed).")
@seat_option(1)
@seat_option(2)
@click.option("--deck", "decks", multiple=True, metavar="PRESET|FILE",
              help="Deck for seat 1, then seat 2 (preset name or TOML file). Default: the ruleset's first two "
                   "presets in alphabetical order.")
@click.option("--name", "names", multiple=True, metavar="NAME", help="Player names, seat 1 then seat 2.")
@click.option("--out", type=OutPath(), default=None,
              help="Also export the finished record to this .kifu.jsonl file (- for stdout: the messages go to "
                   "stderr).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary.")
@click.option("--event", default=None, metavar="NAME", help="Tournament metadata for the header: the event,")
@click.option("--round", "round_", default=None, metavar="ROUND", help="the round,")
@click.option("--table", default=None, metavar="TABLE", help="and the table.")
@position_option()
@pass_kifu
def play(kifu: Kifu, ruleset: str | None, resume: str | None, seed: int | None, p1: str | None, p2: str | None,
         decks: tuple[str, ...], names: tuple[str, ...], out: str | None, quiet: bool,
         event: str | None, round_: str | None, table: str | None, position_text: str | None) -> None:
    """Play a match of RULESET into the store; humans are prompted with their legal decisions.

    With --resume MATCH_ID an unfinished match (a human who quit, a crash) goes on from where
    it stopped, each seat played by whoever the record seats there unless --p1/--p2 say otherwise
    (a bot standing in for a human is recorded on each decision it takes). With --position TEXT
    (or @FILE) the match starts from that position (``kifu position`` prints one) instead of the setup."""
    if resume is not None:
        if ruleset or decks or names or seed is not None or event or round_ or table or position_text:
            raise click.UsageError("--resume takes only --p1, --p2, --out and -q: "
                                   "the match's header is already written")
        resumed = kifu.existing.load(kifu.resolve(resume))
        if resumed.outcome is not None:
            raise click.UsageError(f"match {resumed.header.match_id} is over ({resumed.outcome.describe()}): "
                                   "nothing to resume")
        con = render.console(err=out == STDOUT)
        header = resumed.header
        kinds = recorded_kinds(resumed.ruleset, header, (p1, p2))
        seats = make_seats(resumed.ruleset, *kinds, header.seed, con, header.players, resumed)
        if not quiet:
            con.print(f"resuming match [bold]{header.match_id}[/] · {header.ruleset} at event {resumed.seq} · "
                      + " vs ".join(f"{name} ({kind})" for name, kind in zip(header.players, kinds, strict=True)))
        run_match(con, kifu, resumed, seats, quiet=quiet, out=out, kinds=kinds)
        return
    if ruleset is None:
        raise click.UsageError("give a RULESET (or --resume MATCH_ID)")
    rules = find_ruleset(ruleset)
    start, position_text = (None, None) if position_text is None else read_position(rules, position_text)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    if len(names) > 2:
        raise click.UsageError("give --name at most twice (seat 1, then seat 2)")
    kinds = (p1 or DEFAULT_SEAT, p2 or DEFAULT_SEAT)
    specs = default_decks(rules, decks)
    players = (names[0] if names else kinds[0], names[1] if len(names) > 1 else kinds[1])
    match = Match.create(rules, match_id=str(uuid.uuid4()), seed=seed,
                         decks=[deck_spec.load(rules, s) for s in specs], players=players, seats=kinds,
                         start=start, position=position_text, event=event, round=round_, table=table, date=utc_now())
    too_big = over_limits(match.header)      # what `kifu import` would refuse is never recorded
    if too_big:
        raise click.BadParameter(too_big.what, param_hint=_LIMIT_FLAGS.get(too_big.field, too_big.field))
    con = render.console(err=out == STDOUT)
    seats = make_seats(rules, *kinds, seed, con, players, match)
    kifu.store.create(match)
    if not quiet:
        con.print(f"match [bold]{match.header.match_id}[/] · {rules.name} · seed {seed} · "
                  f"{players[0]} ({specs[0]}) vs {players[1]} ({specs[1]})")
    run_match(con, kifu, match, seats, quiet=quiet, out=out, kinds=kinds)


_LIMIT_FLAGS = {"players": "--name", "decks": "--deck", "event": "--event", "round": "--round", "table": "--table"}


def recorded_kinds(rules: Ruleset[Any, Any, Any], header: Header,
                   given: tuple[str | None, str | None]) -> tuple[str, str]:
    """Who plays each seat on resuming: --p1/--p2 where given, else the header's ``seats``; a
    record from before ``seats`` existed seats a bot or a human by the player's name."""
    kinds = []
    for seat, kind in enumerate(given, start=1):
        if kind is None and header.seats is not None:
            kind = header.seats[seat - 1]
        if kind is None:
            name = header.players[seat - 1]
            if name != HUMAN and name not in rules.content.bots:
                raise click.UsageError(f"the record does not say who played seat {seat} ({name!r}): "
                                       f"give --p{seat} human or --p{seat} BOT")
            kind = name
        kinds.append(kind)
    return kinds[0], kinds[1]


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
        if kind == HUMAN:
            seats[seat] = HumanSeat(rules, players, con, names)
        elif kind in rules.content.bots:
            seats[seat] = rules.content.bots[kind](seed * 2 + seat)
        else:
            raise click.BadParameter(unknown_name(kind, [HUMAN, *sorted(rules.content.bots)], "seat kind"),
                                     param_hint=f"--p{seat}")
    return seats


def run_match(con: Any, kifu: Kifu, match: Match, seats: dict[int, Bot], *, quiet: bool,
              out: str | None = None, kinds: tuple[str, str] | None = None) -> int:
    """Drive a stored match to its end (bots choose, humans are asked), storing every decision;
    print the summary, export to ``out`` if given. Returns the record's number of decisions (a
    fork's --then and a resumed match's earlier ones included, as ``kifu diff`` and ``audit`` count).

    ``kinds``: who plays each seat now; a decision taken by another kind than the header seats
    there records it (``by``). Ctrl-C (or the end of a human's input) stops with the match id
    and the command that goes on with it."""
    rules = match.ruleset
    store = kifu.store
    signer = kifu.signer if out else None     # a bad $KIFU_SIGNING_KEY fails before play, not after
    names_of = rules.presentation.card_names(match.state) if rules.presentation.card_names else None
    humans = [s for s, seat in seats.items() if isinstance(seat, HumanSeat)]
    viewer = humans[0] if len(humans) == 1 else None

    recorded = match.header.seats
    stand_in = {seat: kind for seat, kind in enumerate(kinds or (), start=1)
                if recorded is not None and kind != recorded[seat - 1]}

    def submit(m: Match, seat: int, command: Any, basis: int) -> list[Envelope[Any]]:
        envelopes, state = m.decide(seat, command, basis, received=utc_now(), by=stand_in.get(seat))
        store.append(m.header.match_id, m.seq, envelopes, outcome=rules.decider.outcome(state))
        m.accept(envelopes, state)
        return envelopes

    def shown(seat: int, envelopes: list[Envelope[Any]]) -> None:
        if not quiet and humans:
            for env in envelopes:
                con.print(render.event_line(redact(rules, env, viewer), names_of, original=env.event,
                                            command=rules.command_from_builtins))

    started = time.perf_counter()
    try:
        drive(LocalTable(match, submit), seats, shown=shown)
    except (KeyboardInterrupt, click.Abort, EOFError) as exc:
        raise stopped(kifu, match, by_ctrl_c=ctrl_c(exc)) from None
    elapsed = time.perf_counter() - started
    outcome = match.outcome
    assert outcome is not None
    decisions = sum(1 for env in match.envelopes if env.kind == "decision")   # the record's, as diff counts
    con.print(f"[bold]{outcome.describe()}[/] after turn {rules.presentation.turn(match.state)}: "
              f"{plural(decisions, 'decision')}, {plural(match.seq, 'event')} in {elapsed:.2f}s")
    con.print(f"stored as match {match.header.match_id} in {store.where}")
    if out:
        write_record_of(con, kifu, match, out, signer)
    return decisions


def write_record_of(con: Any, kifu: Kifu, match: Match, out: str, signer: Any) -> None:
    """``--out`` after the match is stored: a failure says where the match is and how to export it."""
    data = match_bytes(out, match, signer)
    try:
        write_out(out, data)
    except CannotWrite as exc:
        export = resume_command(kifu, "export", match.header.match_id)
        raise CannotWrite(f"{exc}; the match is stored as {match.header.match_id} in {kifu.store.where}: "
                          f"export it with: {export} --out FILE") from None
    if out != STDOUT:
        con.print(f"record written to {out} ({len(data)} bytes, {len(data) / max(1, match.seq + 1):.0f} bytes/line)")


def resume_command(kifu: Kifu, command: str, match_id: str) -> str:
    """``kifu COMMAND ID`` as a user would type it here (with the ``--db`` this run used)."""
    db = f" --db {kifu.db}" if kifu.db else ""
    flag = " --resume" if command == "play" else ""
    return f"kifu{db} {command}{flag} {match_id}"


def stopped(kifu: Kifu, match: Match, *, by_ctrl_c: bool) -> KifuError:
    """Why play stopped before the end, where the match is, and the command that goes on with it."""
    where = (f"match {match.header.match_id} is stored at event {match.seq} in {kifu.store.where}; "
             f"go on with: {resume_command(kifu, 'play', match.header.match_id)}")
    if by_ctrl_c:
        return Interrupted(f"interrupted: {where}")
    return NoMoreInput(f"no more input: {where}")


class NoMoreInput(KifuError):
    """A human seat's input ended (EOF) before the match did: exit 1, with the way to go on."""

