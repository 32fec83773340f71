"""``kifu event slowplay``: seats whose median or total decision time is over a threshold, from the
decisions' receive stamps (``kifu.projections.clocks``)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.driver import LocalTable, drive
from kifu.domain.core.ruleset import find_ruleset
from kifu.service.event_api import CreateEvent
from kifu.service.events import EventService
from kifu.service.matches import MatchService
from kifu.service.tokens import TokenStore
from kifu.store import MatchStore


def test_slowplay_flags_the_slow_seat_only(tmp_path: Path) -> None:
    db = str(tmp_path / "kifu.db")
    store = MatchStore.open(db)
    tokens = TokenStore.open(store.config)
    service = EventService(store, tokens, MatchService(store, tokens))
    service.create(CreateEvent(name="cup", ruleset="reigeki", rounds=1))
    rules = find_ruleset("reigeki")
    for player, deck in (("ann", "hakurei"), ("bob", "mima")):
        service.register("cup", player, rules.content.load_deck(deck), deck)
    game = service.pair("cup").games[0]
    slow = game.players[0]                  # seat 1 thinks 30 s a decision, seat 2 one second
    match = store.load(game.match_id)
    clock = datetime.fromisoformat(match.header.date.replace("Z", "+00:00")) if match.header.date else \
        datetime(2026, 1, 1, tzinfo=UTC)

    def submit(m: Any, seat: int, command: Any, basis: int) -> list[Any]:
        nonlocal clock
        clock += timedelta(seconds=30 if seat == 1 else 1)
        stamp = clock.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        envelopes, state = m.decide(seat, command, basis, received=stamp)
        store.append(m.header.match_id, m.seq, envelopes, outcome=rules.decider.outcome(state))
        m.accept(envelopes, state)
        return list(envelopes)

    drive(LocalTable(match, submit), {s: rules.content.bots["random"](s) for s in (1, 2)})
    tokens.close()
    store.close()
    out = CliRunner().invoke(cli, ["--db", db, "event", "slowplay", "cup", "--median", "20"])
    assert out.exit_code == 0, out.output
    assert "1 seat over the thresholds in 1 game" in out.output
    flagged = [line.split("\t") for line in out.output.splitlines() if line.startswith(slow + "\t")]
    assert len(flagged) == 1 and flagged[0][5] == "30.000" and "median > 20s" in flagged[0][-1]
    assert not any(line.startswith(game.players[1] + "\t") for line in out.output.splitlines())
    none = CliRunner().invoke(cli, ["--db", db, "event", "slowplay", "cup", "--median", "40", "--total", "1e9"])
    assert "0 seats over the thresholds" in none.output and "flagged" not in none.output
    total = CliRunner().invoke(cli, ["--db", db, "event", "slowplay", "cup", "--median", "1000", "--total", "60"])
    assert "total > 60s" in total.output
