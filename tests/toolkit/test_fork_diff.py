"""kifu fork (a new match from any settled point, with a chosen next decision) and kifu diff."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory, runner: CliRunner) -> Path:
    out = tmp_path_factory.mktemp("fork") / "a.kifu.jsonl"
    result = runner.invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "5", "-q", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def point(original: Path) -> tuple[int, Any, Any]:
    """A settled seq a third into the match where the awaited seat has another choice than the
    recorded one: (seq, the recorded next command, a different legal command)."""
    record = read_record(original)
    rules, envs = record.ruleset, record.envelopes
    timeline = Timeline(rules, record.header, envs)
    for env in envs[len(envs) // 3:-1]:
        following = envs[env.seq]
        if env.digest is None or following.kind != "decision":
            continue
        state = timeline.state_at(env.seq)
        recorded = rules.decider.command_of(following.event)
        others = [c for c in rules.decider.legal(state, min(rules.decider.awaiting(state))) if c != recorded]
        if others:
            return env.seq, recorded, others[0]
    raise AssertionError("no fork point with a choice")


def as_json(command: Any) -> str:
    return msgspec.json.encode(command).decode()


def fork(runner: CliRunner, source: Path, at: int, out: Path, *extra: str) -> Any:
    return runner.invoke(cli, ["--db", "memory", "fork", str(source), "--at", str(at), "--out", str(out), "-q", *extra])


def test_fork_with_then_starts_from_the_state_and_records_its_origin(runner: CliRunner, original: Path,
                                                                     point: tuple[int, Any, Any],
                                                                     tmp_path: Path) -> None:
    at, _, other = point
    out = tmp_path / "b.kifu.jsonl"
    result = fork(runner, original, at, out, "--then", as_json(other))
    assert result.exit_code == 0, result.output
    a, b = read_record(original), read_record(out)
    assert (b.header.forked_from, b.header.forked_at) == (a.header.match_id, at)
    assert b.envelopes[0].kind == "setup" and type(b.envelopes[0].event).__name__ == "PositionPrepared"
    assert (Timeline(b.ruleset, b.header, b.envelopes).state_at(1)
            == Timeline(a.ruleset, a.header, a.envelopes).state_at(at))
    assert b.ruleset.decider.command_of(b.envelopes[1].event) == other
    final = Timeline(b.ruleset, b.header, b.envelopes).final
    assert b.ruleset.decider.outcome(final) is not None   # bots played it out
    assert runner.invoke(cli, ["audit", str(out)]).exit_code == 0


def test_diff_shows_where_a_fork_parts_and_how_outcomes_differ(runner: CliRunner, original: Path,
                                                               point: tuple[int, Any, Any], tmp_path: Path) -> None:
    at, recorded, other = point
    out = tmp_path / "b.kifu.jsonl"
    assert fork(runner, original, at, out, "--then", as_json(other)).exit_code == 0
    result = runner.invoke(cli, ["diff", str(original), str(out), "--json"])
    assert result.exit_code == 1, result.output
    d = json.loads(result.output)
    assert d["relation"] == f"B was forked from A at #{at}" and d["same"] is False
    part = d["parting"]
    assert (part["a_seq"], part["b_seq"]) == (at + 1, 2) and "event" in part["differ"]
    assert part["a"]["kind"] == part["b"]["kind"] == "decision"
    rows = {r["what"]: r for r in d["outcome"]}
    assert {"winner", "seat 1 life", "seat 2 life", "seat 1 stage"} <= set(rows)
    text = runner.invoke(cli, ["diff", str(original), str(out)]).output
    assert f"A #{at + 1} / B #2" in text and "B was forked from A" in text and "winner" in text
    back = json.loads(runner.invoke(cli, ["diff", str(out), str(original), "--json"]).output)
    assert back["relation"] == f"A was forked from B at #{at}"
    assert (back["parting"]["a_seq"], back["parting"]["b_seq"]) == (2, at + 1)


def test_a_fork_that_repeats_the_recorded_decision_agrees_with_its_origin(runner: CliRunner, original: Path,
                                                                          point: tuple[int, Any, Any],
                                                                          tmp_path: Path) -> None:
    at, recorded, _ = point
    out = tmp_path / "same.kifu.jsonl"
    assert fork(runner, original, at, out, "--then", as_json(recorded), "--stop").exit_code == 0
    d = json.loads(runner.invoke(cli, ["diff", str(original), str(out), "--json"]).output)
    part = d["parting"]
    assert d["common"] >= 1 and part["differ"] == ["length"] and part["b"] is None   # B stopped; A went on


def test_two_forks_of_one_point_are_compared_from_it(runner: CliRunner, original: Path,
                                                     point: tuple[int, Any, Any], tmp_path: Path) -> None:
    at, recorded, other = point
    one, two = tmp_path / "one.kifu.jsonl", tmp_path / "two.kifu.jsonl"
    assert fork(runner, original, at, one, "--then", as_json(recorded), "--stop").exit_code == 0
    assert fork(runner, original, at, two, "--then", as_json(other), "--stop").exit_code == 0
    d = json.loads(runner.invoke(cli, ["diff", str(one), str(two), "--json"]).output)
    assert d["relation"].startswith("both were forked from") and d["parting"]["a_seq"] == 2


def test_a_record_compared_with_itself_is_the_same(runner: CliRunner, original: Path) -> None:
    result = runner.invoke(cli, ["diff", str(original), str(original)])
    assert result.exit_code == 0 and "no event differs" in result.output


def test_an_illegal_then_names_its_clause_and_stores_nothing(runner: CliRunner, original: Path,
                                                             point: tuple[int, Any, Any], tmp_path: Path) -> None:
    at, _, _ = point
    out = tmp_path / "x.kifu.jsonl"
    result = fork(runner, original, at, out, "--then", '{"type":"Move","line":1,"to":5}')
    assert result.exit_code == 3, result.output
    assert "--then" in result.output and "illegal (W-" in result.output and not out.exists()


def test_a_malformed_then_is_a_decoding_error(runner: CliRunner, original: Path, point: tuple[int, Any, Any],
                                              tmp_path: Path) -> None:
    result = fork(runner, original, point[0], tmp_path / "x.kifu.jsonl", "--then", '{"type":"Fly"}')
    assert result.exit_code == 2 and "--then" in result.output and "Traceback" not in result.output


def test_a_fork_inside_a_decision_says_where_it_may_start(runner: CliRunner, original: Path, tmp_path: Path) -> None:
    envs = read_record(original).envelopes
    inside = next(e.seq for e in envs if e.kind == "decision" and e.digest is None)
    result = fork(runner, original, inside, tmp_path / "x.kifu.jsonl")
    assert result.exit_code == 2 and "not at rest" in result.output and "fork at" in result.output


def test_fork_a_stored_match_by_its_id(runner: CliRunner, tmp_path: Path) -> None:
    db, out = str(tmp_path / "kifu.db"), tmp_path / "p.kifu.jsonl"
    played = runner.invoke(cli, ["--db", db, "play", "worlfard", "--seed", "2", "-q", "--out", str(out)])
    assert played.exit_code == 0
    record = read_record(out)
    settled = next(e.seq for e in record.envelopes[10:] if e.digest is not None)
    forked = runner.invoke(cli, ["--db", db, "fork", record.header.match_id, "--at", str(settled), "--stop"])
    assert forked.exit_code == 0, forked.output
    listing = runner.invoke(cli, ["--db", db, "matches"]).output
    assert listing.count("in progress") == 1
