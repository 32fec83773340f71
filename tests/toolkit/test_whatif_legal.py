"""What-if from any position: kifu legal lists the decisions at a seq as fork takes them; fork
--then INDEX|JSON [--seat] works at sealed steps and plays on with the origin's bots; diff compares
the boards at the fork point and after each following decision."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.cli.whatif import origin_bots
from kifu.domain.core.commit import ChoiceSealed
from kifu.domain.core.envelope import at_rest
from kifu.domain.core.ruleset import find_ruleset
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
MASTERS = REPLAYS / "masters" / "M-2.1-the-opponent-responds-between-two-declarations.kifu.jsonl"
NOVEL = REPLAYS / "novel" / "N-6.2-equipment-stays-attached-in-the-graveyard.kifu.jsonl"


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["--db", "memory", *args])


def legal_json(path: Path, at: int, *extra: str) -> list[dict[str, Any]]:
    result = run("legal", str(path), "--at", str(at), "--json", *extra)
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.output)
    return rows


def test_legal_lists_every_decision_with_a_label_and_json_fork_accepts(tmp_path: Path) -> None:
    record = read_record(MASTERS)
    state = Timeline(record.ruleset, record.header, record.envelopes).state_at(8)
    rows = legal_json(MASTERS, 8)
    decoded = [record.ruleset.command_decoder().decode(json.dumps(r["command"])) for r in rows]
    assert decoded == record.ruleset.decider.legal(state, 1) and len(rows) == 3
    assert [(r["seat"], r["index"]) for r in rows] == [(1, 1), (1, 2), (1, 3)]
    assert rows[0]["label"] == "Pass" and rows[1]["label"].startswith("Activate card 戦鼓の奏者")
    by_json, by_index = tmp_path / "j.kifu.jsonl", tmp_path / "i.kifu.jsonl"
    for out, then in ((by_json, json.dumps(rows[1]["command"])), (by_index, "2")):
        result = run("fork", str(MASTERS), "--at", "8", "--then", then, "--stop", "--out", str(out))
        assert result.exit_code == 0, result.output
    first = [read_record(p).envelopes[1] for p in (by_json, by_index)]
    assert first[0].event == first[1].event and type(first[0].event).__name__ == "SkillActivated"
    text = run("legal", str(MASTERS), "--at", "8").output
    assert "1:2" in text and "Activate card 戦鼓の奏者 · target a1" in text


def test_legal_at_a_sealed_step_lists_both_seats_and_one_with_seat() -> None:
    rows = legal_json(NOVEL, 1)
    assert {r["seat"] for r in rows} == {1, 2}
    assert {r["seat"] for r in legal_json(NOVEL, 1, "--seat", "2")} == {2}
    assert "sealed" in run("legal", str(NOVEL), "--at", "1").output


def test_legal_refuses_a_point_inside_a_decision_and_a_seat_not_awaited() -> None:
    inside = run("legal", str(MASTERS), "--at", "7")
    assert inside.exit_code != 0 and "fork at 5 (before it) or 8 (after it)" in inside.output
    idle = run("legal", str(MASTERS), "--at", "8", "--seat", "2")
    assert idle.exit_code != 0 and "seat 2 has no decision" in idle.output


def test_fork_then_index_with_seat_at_a_sealed_step(tmp_path: Path) -> None:
    rows = legal_json(NOVEL, 1, "--seat", "1")
    out = tmp_path / "f.kifu.jsonl"
    result = run("fork", str(NOVEL), "--at", "1", "--then", "8", "--seat", "1", "-q", "--p2", "greedy",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    fork = read_record(out)
    sealed = fork.envelopes[1].event
    assert isinstance(sealed, ChoiceSealed) and sealed.seat == 1
    assert json.loads(json.dumps(sealed.choice)) == rows[7]["command"]      # the 8th decision, 火球 face down
    audit = CliRunner().invoke(cli, ["audit", str(out)])
    assert audit.exit_code == 0 and "clean" in audit.output


def test_fork_then_at_a_sealed_step_needs_the_seat() -> None:
    result = run("fork", str(NOVEL), "--at", "1", "--then", "1", "--stop")
    assert result.exit_code != 0 and "give --seat" in result.output
    result = run("fork", str(NOVEL), "--at", "1", "--then", "99", "--seat", "1", "--stop")
    assert result.exit_code != 0 and "kifu legal --at 1 --seat 1" in result.output


def test_a_fork_plays_on_with_the_bots_its_origin_names(tmp_path: Path) -> None:
    origin = tmp_path / "g.kifu.jsonl"
    played = run("play", "masters", "--p1", "greedy", "--p2", "greedy", "--seed", "3", "-q", "--out", str(origin))
    assert played.exit_code == 0, played.output
    record = read_record(origin)
    assert record.header.players == ("greedy", "greedy")
    at = [e.seq for e in record.envelopes if e.digest][10]
    result = run("fork", str(origin), "--at", str(at), "--out", str(tmp_path / "f.kifu.jsonl"))
    assert result.exit_code == 0, result.output
    assert "playing on: seat 1 greedy, seat 2 greedy" in result.output
    masters = find_ruleset("masters")
    assert origin_bots(masters, ("alice", "greedy"), None, "random") == ("random", "random")
    assert origin_bots(masters, ("greedy", "chiyo"), None, None) == ("greedy", "random")


@pytest.mark.parametrize("then", ["3"])
def test_diff_compares_the_boards_at_the_fork_point_and_after_each_decision(tmp_path: Path, then: str) -> None:
    out = tmp_path / "f.kifu.jsonl"
    result = run("fork", str(NOVEL), "--at", "1", "--then", then, "--seat", "2", "-q", "--out", str(out))
    assert result.exit_code == 0, result.output
    compared = CliRunner().invoke(cli, ["diff", str(NOVEL), str(out), "--json"])
    assert compared.exit_code == 1, compared.output
    report = json.loads(compared.output)
    steps = report["steps"]
    assert steps[0]["decisions"] == 0 and (steps[0]["a_seq"], steps[0]["b_seq"]) == (1, 1)
    assert steps[0]["differ"] == []                       # the fork point: one board
    first = next(s for s in steps if s["differ"])
    assert first["rows"] and {r["what"] for r in first["rows"]} == set(first["differ"])
    fork = read_record(out)
    assert len(steps) == 1 + max(sum(1 for e in r.envelopes[1:] if at_rest(r.envelopes, e.seq))
                                 for r in (read_record(NOVEL), fork))
    text = CliRunner().invoke(cli, ["diff", str(NOVEL), str(out)], terminal_width=200).output
    assert "boards at the fork point (A #1 / B #1): the same" in text
    assert f"boards first differ after {first['decisions']} decision" in text
