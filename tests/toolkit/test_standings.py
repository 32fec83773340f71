"""The standings read model: built from the store's notification log, idempotent on restart."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.match import Match
from kifu.projections import standings as standings_module
from kifu.projections.recordfile import read_record
from kifu.projections.standings import Standings
from kifu.projections.timeline import Timeline
from kifu.store import MatchStore
from kifu.store.standings import open_standings


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "kifu.db")
    else:
        yield request.getfixturevalue("pg_url")


@pytest.fixture(scope="module")
def records(fresh: list[Path]) -> list[Path]:
    """Three finished bot matches, one scenario (left out of the standings) and the mulligan
    scenario (a real match from the setup, in progress)."""
    bots = [p for p in fresh if p.name.startswith("bot-")]
    picked = [p for p in fresh if p.name.startswith(("W-12.6-damage-is", "W-4.4"))]
    return bots + picked


def load(url: str, records: list[Path]) -> None:
    with MatchStore.open(url) as store:
        for path in records:
            r = read_record(path)
            store.create(Match.fold(r.ruleset, r.header, r.envelopes))


def report(url: str, **catch_up: int) -> tuple[int, dict]:
    with MatchStore.open(url) as store:
        s = open_standings(store)
        try:
            folded = s.catch_up(**catch_up)
            return folded, msgspec.to_builtins(s.report(top=50))
        finally:
            s.close()


def test_standings_count_results_decks_cards_and_length(db_url: str, records: list[Path]) -> None:
    load(db_url, records)
    folded, r = report(db_url)
    assert folded == sum(len(read_record(p).envelopes) + 1 for p in records)
    assert (r["matches"], r["finished"], r["left_out"]) == (4, 3, 1)
    assert sum(line["played"] for line in r["players"]) == 8
    bots = [read_record(p) for p in records if p.name.startswith("bot-")]
    outcomes = [b.ruleset.decider.outcome(Timeline(b.ruleset, b.header, b.envelopes).final) for b in bots]
    wins = sum(1 for o in outcomes if o is not None and o.winner is not None)
    assert sum(line["won"] for line in r["players"]) == wins
    assert {line["name"] for line in r["decks"]} >= {b.header.decks[0]["name"] for b in bots}
    turns = [Timeline(b.ruleset, b.header, b.envelopes).final.turn for b in bots]
    assert r["avg_turns"] == round(sum(turns) / len(turns), 1)
    assert r["avg_events"] == round(sum(len(b.envelopes) for b in bots) / len(bots), 1)
    summons = sum(1 for b in bots for e in b.envelopes if type(e.event).__name__ == "UnitSummoned")
    assert sum(p["n"] for p in r["cards"] if p["how"] == "UnitSummoned") <= summons
    assert any(p["how"] == "UnitSummoned" for p in r["cards"]) and all(p["n"] > 0 for p in r["cards"])


def test_catching_up_again_or_after_a_restart_changes_nothing(db_url: str, records: list[Path]) -> None:
    load(db_url, records)
    _, first = report(db_url)
    folded, again = report(db_url)   # a new store and projection: a restart
    assert folded == 0 and again == first


def test_an_interrupted_catch_up_resumes_where_it_committed(db_url: str, records: list[Path], tmp_path: Path) -> None:
    load(db_url, records)
    done, _ = report(db_url, batch=97, max_batches=3)     # stops mid-match: its state is refolded on resume
    assert done == 97 * 3
    _, resumed = report(db_url, batch=211)
    whole = str(tmp_path / "whole.db")
    load(whole, records)
    _, one_go = report(whole)
    assert {k: v for k, v in resumed.items() if k != "position"} == \
           {k: v for k, v in one_go.items() if k != "position"}


def test_a_failed_batch_leaves_nothing_behind(db_url: str, records: list[Path],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    load(db_url, records)
    real = Standings._fold
    calls = {"n": 0}

    def failing(self: Standings, *args: object) -> None:
        calls["n"] += 1
        if calls["n"] == 150:
            raise RuntimeError("power cut")
        real(self, *args)   # type: ignore[arg-type]

    monkeypatch.setattr(Standings, "_fold", failing)
    with pytest.raises(RuntimeError):
        report(db_url, batch=100)
    monkeypatch.undo()
    _, after = report(db_url)
    _, again = report(db_url)
    assert after == again and after["position"] > 0
    with MatchStore.open(db_url) as store:
        s = open_standings(store)
        try:
            assert s.rebuild() > 0 and msgspec.to_builtins(s.report(top=50)) == after
        finally:
            s.close()


def test_new_matches_are_folded_in_incrementally(db_url: str, records: list[Path]) -> None:
    load(db_url, records[:2])
    _, before = report(db_url)
    load(db_url, records[2:3])
    folded, after = report(db_url)
    assert folded == len(read_record(records[2]).envelopes) + 1
    assert after["matches"] == before["matches"] + 1


def test_kifu_stats_prints_and_exports_the_standings(tmp_path: Path, records: list[Path]) -> None:
    db = str(tmp_path / "kifu.db")
    load(db, records)
    runner = CliRunner()
    text = runner.invoke(cli, ["--db", db, "stats"], terminal_width=160)
    assert text.exit_code == 0, text.output
    assert "player" in text.output and "cards played" in text.output and "average finished match" in text.output
    data = json.loads(runner.invoke(cli, ["stats", "--db", db, "--json"]).output)
    assert data["folded"] == 0 and [(r["ruleset"], r["matches"]) for r in data["reports"]] == [("worlfard", 4)]
    rebuilt = json.loads(runner.invoke(cli, ["stats", "--db", db, "--json", "--rebuild"]).output)
    assert rebuilt["folded"] > 0 and {k: v for k, v in rebuilt.items() if k != "folded"} == \
           {k: v for k, v in data.items() if k != "folded"}


def test_its_tables_are_its_own(tmp_path: Path) -> None:
    assert all("kifu_standings_" in t for t in standings_module.TABLES)
