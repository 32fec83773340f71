"""``kifu event``: a tournament in the store: registration with committed lists, Swiss pairings and
a top cut, bots playing the rounds (here, or through a service), standings with tiebreakers.

    kifu event new NAME --ruleset R [--rounds N|auto] [--top-cut N] [--best-of 1|3]
    kifu event register EVENT PLAYER --deck FILE|PRESET [--judge J --reason TEXT]
    kifu event pair EVENT                          pair the next round, create its matches
    kifu event play EVENT [--server URL]           bots play the round's matches; results from the end marks
    kifu event standings EVENT [--round N] [--json]
    kifu event show EVENT | drop EVENT PLAYER | publish-decks EVENT
    kifu event correct-result EVENT --round N --table T --wins 2-1 --judge J --reason TEXT
    kifu event slowplay EVENT [--median S] [--total S]
"""
from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import Any

import click
import msgspec

from .context import Kifu, pass_kifu
from .render import plural

TOKENS = "{event}.tokens.json"


def _service(kifu: Kifu, *, existing: bool = True) -> Any:
    from kifu.service.events import EventService
    from kifu.service.matches import MatchService
    from kifu.service.tokens import TokenStore

    store = kifu.existing if existing else kifu.store
    tokens = TokenStore.open(store.config)
    click.get_current_context().call_on_close(tokens.close)
    return EventService(store, tokens, MatchService(store, tokens, signer=kifu.signer))


@click.group()
def event() -> None:
    """A tournament: registration with committed decklists, Swiss rounds, a top cut, standings."""


@event.command("new")
@click.argument("name")
@click.option("--ruleset", required=True, help="The game every match of the event is played in.")
@click.option("--rounds", default="auto", show_default=True, metavar="N|auto",
              help="Swiss rounds; auto: from the player count when round 1 is paired.")
@click.option("--top-cut", type=click.IntRange(0, 64), default=0, show_default=True,
              help="Single elimination of the top N after the Swiss rounds (0: none).")
@click.option("--best-of", type=click.Choice(["1", "3"]), default="1", show_default=True, help="Games per match.")
@pass_kifu
def new(kifu: Kifu, name: str, ruleset: str, rounds: str, top_cut: int, best_of: str) -> None:
    """Create the event NAME (lower-case letters, digits, - and _)."""
    from kifu.service.event_api import CreateEvent

    if rounds != "auto" and not (rounds.isdigit() and 1 <= int(rounds) <= 30):
        raise click.BadParameter(f"{rounds!r}: a number of rounds (1 to 30) or auto", param_hint="--rounds")
    service = _service(kifu, existing=False)
    created = service.create(CreateEvent(name=name, ruleset=ruleset, rounds=0 if rounds == "auto" else int(rounds),
                                         top_cut=top_cut, best_of=int(best_of)))
    click.echo(f"event {created.name} · {created.ruleset} · {'auto' if rounds == 'auto' else rounds} Swiss rounds"
               + (f" + top {top_cut}" if top_cut else "") + f" · best of {best_of} · stored in {kifu.store.where}")
    click.echo("organiser token (for the service's /events routes; shown once): " + created.organiser_token)


@event.command("register")
@click.argument("name", metavar="EVENT")
@click.argument("player")
@click.option("--deck", required=True, metavar="FILE|PRESET", help="A deck file or a preset of the event's ruleset.")
@click.option("--judge", default=None, help="After the lists locked: the judge who approves the change.")
@click.option("--reason", default=None, help="After the lists locked: why the list changes.")
@pass_kifu
def register(kifu: Kifu, name: str, player: str, deck: str, judge: str | None, reason: str | None) -> None:
    """Register PLAYER with a decklist: validated by the ruleset, committed (SHA-256), hidden until published."""
    from kifu.domain.core.ruleset import find_ruleset

    from . import decks

    service = _service(kifu)
    state = service.load(name)
    rules = find_ruleset(state.created.ruleset)
    loaded = decks.load(rules, deck)
    deck_name = getattr(loaded, "name", None) or Path(deck).stem
    info = service.register(name, player, loaded, str(deck_name), judge=judge, reason=reason)
    what = "list corrected" if judge else ("late entry" if info.missed else "registered")
    click.echo(f"{info.player} {what} in {name}: {info.deck_name}, commitment {info.commitment[:16]}…"
               + (f" ({plural(info.missed, 'round')} missed: match losses)" if info.missed and not judge else ""))


def _tokens_file(name: str, path: str | None) -> Path:
    return Path(path or TOKENS.format(event=name))


def _save_tokens(path: Path, games: list[Any]) -> None:
    if not games:
        return
    known = json.loads(path.read_text()) if path.exists() else {}
    for g in games:
        if g.tokens is not None:
            known[g.match_id] = msgspec.to_builtins(g.tokens)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(known, out, indent=1)


@event.command("pair")
@click.argument("name", metavar="EVENT")
@click.option("--tokens", "tokens_path", default=None, metavar="FILE",
              help="Where the new matches' seat tokens go (default EVENT.tokens.json, mode 600).")
@pass_kifu
def pair(kifu: Kifu, name: str, tokens_path: str | None) -> None:
    """Pair the next round (Swiss, then the top cut) and create its matches."""
    service = _service(kifu)
    paired = service.pair(name)
    click.echo(f"round {paired.round} ({paired.stage}) of {name}: {plural(len(paired.games), 'match', 'matches')}")
    for t in paired.tables:
        click.echo(f"table {t.table}: {t.seat1} vs {t.seat2}" if t.seat2 else f"table {t.table}: {t.seat1} (bye)")
    path = _tokens_file(name, tokens_path)
    _save_tokens(path, paired.games)
    if paired.games:
        click.echo(f"seat tokens in {path}")


@event.command("play")
@click.argument("name", metavar="EVENT")
@click.option("--round", "round_number", type=click.IntRange(1), default=None,
              help="The round to play (default: the one paired last).")
@click.option("--server", envvar="KIFU_SERVER", default=None, metavar="URL",
              help="Play through this service with the seat tokens (kifu serve on the same store).")
@click.option("--tokens", "tokens_path", default=None, metavar="FILE", help="Seat tokens (default EVENT.tokens.json).")
@click.option("--organiser-token", envvar="KIFU_ORGANISER_TOKEN", default=None, metavar="TOKEN",
              help="With --server: the service reads the end marks (signed with its key); "
                   "env KIFU_ORGANISER_TOKEN. Without it they are read here.")
@click.option("--bot", default="random", show_default=True, help="The bot that plays every seat.")
@click.option("--seed", type=int, default=0, show_default=True, help="Bots' seeds are derived from it.")
@pass_kifu
def play(kifu: Kifu, name: str, round_number: int | None, server: str | None, tokens_path: str | None,
         organiser_token: str | None, bot: str, seed: int) -> None:
    """Bots play every open match of the round; results are read from the matches' end marks."""
    from kifu.domain.core.errors import Malformed
    from kifu.domain.core.ruleset import find_ruleset

    service = _service(kifu)
    state = service.load(name)
    if not state.rounds:
        raise Malformed(f"event {name} has no round paired yet (kifu event pair {name})")
    current = state.rounds[-1].number
    if round_number is not None and round_number != current:
        raise Malformed(f"round {round_number} is not the current round of {name} (round {current})")
    rules = find_ruleset(state.created.ruleset)
    if bot not in rules.content.bots:
        raise click.BadParameter(f"{bot!r}: one of {', '.join(sorted(rules.content.bots))}", param_hint="--bot")
    path = _tokens_file(name, tokens_path)
    played = 0
    while True:
        state = service.load(name)
        rnd = state.rounds[-1]
        for t in rnd.tables:
            if t.done:
                continue
            for g in t.games:
                if kifu.store.summary(g.match_id).status == "over":
                    continue
                bots = {s: rules.content.bots[bot](zlib.crc32(f"{seed}/{g.match_id}/{s}".encode())) for s in (1, 2)}
                if server:
                    _play_remote(server, path, g.match_id, bots)
                else:
                    _play_local(kifu, g.match_id, bots)
                played += 1
        collected = _collect(service, name, server, organiser_token)
        if server:
            _save_tokens(path, collected.games)     # the next games of a best-of-three
        for t in collected.recorded:
            click.echo(_result_line(t))
        if not collected.games and not collected.open:
            break
    via = f"through {server}" if server else f"in {kifu.store.where}"
    click.echo(f"round {current}: {plural(played, 'match', 'matches')} played {via}")


def _collect(service: Any, name: str, server: str | None, token: str | None) -> Any:
    """The round's end marks read into results: by the service (its key signs them) when it is
    given with the organiser's token, else here (``$KIFU_SIGNING_KEY`` signs them)."""
    if server is None or token is None:
        return service.collect(name)
    from kifu.service.client import KifuClient

    with KifuClient(server) as http:
        return http.event_results(name, token=token)


def _result_line(t: Any) -> str:
    assert t.wins is not None
    draws = f"-{t.draws}" if t.draws else ""
    return (f"table {t.table}: {t.seat1} {t.wins[0]}-{t.wins[1]}{draws} {t.seat2}"
            + (" (signed end marks)" if t.signed else ""))


def _play_local(kifu: Kifu, match_id: str, bots: dict[int, Any]) -> None:
    from kifu.domain.core.driver import LocalTable, drive
    from kifu.store.clock import utc_now

    store = kifu.store
    match = store.load(match_id)
    rules = match.ruleset

    def submit(m: Any, seat: int, command: Any, basis: int) -> list[Any]:
        envelopes, state = m.decide(seat, command, basis, received=utc_now())
        store.append(m.header.match_id, m.seq, envelopes, outcome=rules.decider.outcome(state))
        m.accept(envelopes, state)
        return list(envelopes)

    drive(LocalTable(match, submit), bots)


def _play_remote(server: str, path: Path, match_id: str, bots: dict[int, Any]) -> None:
    from kifu.domain.core.driver import drive
    from kifu.domain.core.errors import Malformed
    from kifu.service.client import KifuClient
    from kifu.service.player import RemoteTable

    known = json.loads(path.read_text()) if path.exists() else {}
    tokens = known.get(match_id)
    if tokens is None:
        raise Malformed(f"no seat tokens for match {match_id} in {path}")
    with KifuClient(server) as http:
        table = RemoteTable(http, match_id, {1: tokens["seat1"], 2: tokens["seat2"]}, fresh_views=False)
        try:
            drive(table, bots)
        finally:
            table.close()


@event.command("standings")
@click.argument("name", metavar="EVENT")
@click.option("--round", "round_number", type=click.IntRange(1), default=None, help="After this Swiss round.")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@pass_kifu
def standings(kifu: Kifu, name: str, round_number: int | None, as_json: bool) -> None:
    """Match points and the spec's tiebreakers, each with its arithmetic."""
    result = _service(kifu).standings(name, round_number)
    if as_json:
        click.echo(json.dumps(msgspec.to_builtins(result), ensure_ascii=False, indent=1))
        return
    from . import render

    con = render.console()
    con.print(f"standings of {result.event} after round {result.after_round} · tiebreakers: {result.spec_title}",
              highlight=False)
    names = [b.name for b in result.rows[0].tiebreakers] if result.rows else []
    render.show_table(con, ("rank", "player", "points", "W-L-D", *names),
                      [(str(r.rank), r.player + (" (dropped)" if r.dropped else ""), str(r.points), r.record,
                        *(f"{b.value:.4f}" for b in r.tiebreakers)) for r in result.rows], title="standings")
    render.show_table(con, ("player", "arithmetic"),
                      [(r.player, f"points {r.points_arithmetic}; " + "; ".join(b.arithmetic for b in r.tiebreakers))
                       for r in result.rows], title="how")


@event.command("show")
@click.argument("name", metavar="EVENT")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@pass_kifu
def show(kifu: Kifu, name: str, as_json: bool) -> None:
    """The event as its organiser sees it: players, lists' commitments, every round's tables and results."""
    info = _service(kifu).info(name, organiser=True)
    if as_json:
        click.echo(json.dumps(msgspec.to_builtins(info), ensure_ascii=False, indent=1))
        return
    click.echo(f"event {info.name} · {info.ruleset} · {info.rounds or 'auto'} Swiss rounds"
               + (f" + top {info.top_cut}" if info.top_cut else "") + f" · best of {info.best_of} · "
               + f"{plural(len(info.players), 'player')} · lists {'locked' if info.locked else 'open'}"
               + (f" · lists published ({info.published})" if info.published else ""))
    for p in info.players:
        click.echo(f"  {p.player}: {p.deck_name} {p.commitment[:16]}…"
                   + (f" (dropped after round {p.dropped_after})" if p.dropped_after is not None else ""))
    for r in info.pairings:
        click.echo(f"round {r.round} ({r.stage})")
        for t in r.tables:
            if t.seat2 is None:
                click.echo(f"  table {t.table}: {t.seat1} (bye)")
            elif t.wins is None:
                click.echo(f"  table {t.table}: {t.seat1} vs {t.seat2} (playing)")
            else:
                click.echo("  " + _result_line(t) + (f" (corrected: {t.corrected})" if t.corrected else ""))


@event.command("drop")
@click.argument("name", metavar="EVENT")
@click.argument("player")
@pass_kifu
def drop(kifu: Kifu, name: str, player: str) -> None:
    """PLAYER leaves the event: not paired from the next round on (results so far stand)."""
    info = _service(kifu).drop(name, player)
    click.echo(f"{info.player} dropped from {name} after round {info.dropped_after}")


@event.command("publish-decks")
@click.argument("name", metavar="EVENT")
@pass_kifu
def publish_decks(kifu: Kifu, name: str) -> None:
    """Make every registered list public (the service shows them to anyone)."""
    info = _service(kifu).publish(name)
    click.echo(f"{plural(len(info.players), 'list')} of {name} published")


@event.command("correct-result")
@click.argument("name", metavar="EVENT")
@click.option("--round", "round_number", type=click.IntRange(1), required=True)
@click.option("--table", type=click.IntRange(1), required=True)
@click.option("--wins", required=True, metavar="A-B", help="Games won by the table's first and second player.")
@click.option("--draws", type=click.IntRange(0), default=0)
@click.option("--judge", required=True, help="The judge who corrects it.")
@click.option("--reason", required=True, help="Why (kept in the event's stream).")
@pass_kifu
def correct_result(kifu: Kifu, name: str, round_number: int, table: int, wins: str, draws: int, judge: str,
                   reason: str) -> None:
    """A judge's correction of a table's result: an event of its own, with its reason."""
    from kifu.service.event_api import Correction

    parts = wins.split("-")
    if len(parts) != 2 or not all(p.isdigit() and int(p) <= 9 for p in parts):
        raise click.BadParameter(f"{wins!r}: games won by each player, like 2-1", param_hint="--wins")
    t = _service(kifu).correct(name, Correction(round=round_number, table=table, wins=(int(parts[0]), int(parts[1])),
                                                draws=draws, judge=judge, reason=reason))
    click.echo(f"round {round_number} " + _result_line(t) + f" (corrected by {judge}: {reason})")


@event.command("slowplay")
@click.argument("name", metavar="EVENT")
@click.option("--median", type=click.FloatRange(0), default=20.0, show_default=True,
              help="Seconds: flag a seat whose median decision time is above it.")
@click.option("--total", type=click.FloatRange(0), default=1500.0, show_default=True,
              help="Seconds: flag a seat whose total decision time in one game is above it.")
@pass_kifu
def slowplay(kifu: Kifu, name: str, median: float, total: float) -> None:
    """Seats whose decision times (from each decision's receive stamp) exceed a threshold."""
    from kifu.projections.clocks import seat_clocks

    from . import render

    service = _service(kifu)
    state = service.load(name)
    rows = []
    games = 0
    for rnd in state.rounds:
        for t in rnd.tables:
            for g in t.games:
                match = kifu.store.load(g.match_id)
                games += 1
                for seat, clock in seat_clocks(match.header, match.envelopes).items():
                    why = [w for w, over in ((f"median > {median:g}s", clock.median > median),
                                             (f"total > {total:g}s", clock.total > total)) if over]
                    if why:
                        rows.append((match.header.players[seat - 1], str(rnd.number), str(t.table), str(g.game),
                                     str(clock.decisions), f"{clock.median:.3f}", f"{clock.total:.1f}",
                                     f"{clock.longest:.2f}", ", ".join(why)))
    con = render.console()
    con.print(f"slow play in {name}: {plural(len(rows), 'seat')} over the thresholds in "
              f"{plural(games, 'game')} (median {median:g}s, total {total:g}s)", highlight=False)
    if rows:
        render.show_table(con, ("player", "round", "table", "game", "decisions", "median s", "total s", "longest s",
                                "why"), rows, title="flagged")
