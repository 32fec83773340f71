"""The kifu CLI end to end through click's CliRunner: play, replay keys, why, audit, verify…"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture()
def recorded(tmp_path: Path, runner: CliRunner) -> tuple[Path, Path]:
    db = tmp_path / "kifu.db"
    record = tmp_path / "m.kifu.jsonl"
    result = runner.invoke(cli, ["--db", str(db), "play", "worlfard", "--seed", "7", "-q", "--out", str(record)])
    assert result.exit_code == 0, result.output
    return db, record


def lines_of(record: Path) -> list[dict]:
    return [json.loads(line) for line in record.read_text().splitlines()]


def test_play_stores_and_exports_a_finished_match(recorded: tuple[Path, Path], runner: CliRunner) -> None:
    db, record = recorded
    header, *events, end = lines_of(record)
    assert header["kifu"] == "match" and header["ruleset"] == "worlfard" and header["seed"] == 7
    assert events[-1]["event"]["type"] == "MatchEnded"
    assert end["kifu"] == "end" and end["events"] == len(events) and end["chain"] == events[-1]["chain"]
    listing = runner.invoke(cli, ["--db", str(db), "matches"])
    assert listing.exit_code == 0
    assert header["match_id"][:8] in listing.output


def test_same_seed_same_decisions(tmp_path: Path, runner: CliRunner) -> None:
    outs = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.kifu.jsonl"
        runner.invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "11", "-q", "--out", str(out)])
        outs.append([(e["seq"], e["event"], e.get("clause")) for e in lines_of(out)[1:] if e.get("kifu") != "end"])
    assert outs[0] == outs[1]


def test_replay_at_prints_board_and_event(recorded: tuple[Path, Path], runner: CliRunner) -> None:
    _, record = recorded
    result = runner.invoke(cli, ["replay", str(record), "--at", "40"])
    assert result.exit_code == 0, result.output
    assert "event 40/" in result.output and "#40" in result.output and "judge view" in result.output


def test_replay_seat_view_hides_opponent_hand(recorded: tuple[Path, Path], runner: CliRunner) -> None:
    _, record = recorded
    judge = runner.invoke(cli, ["replay", str(record), "--at", "40"]).output
    seat1 = runner.invoke(cli, ["replay", str(record), "--at", "40", "--seat", "1"]).output
    # the judge sees both hands' cards; seat 1 its own only (the other's as a count)
    assert judge.count("hand (") == 2 and seat1.count("hand (") == 1


def test_replay_without_a_terminal_prints_instead_of_reading_keys(recorded: tuple[Path, Path],
                                                                  runner: CliRunner) -> None:
    _, record = recorded
    # no terminal (CliRunner's stdin is a pipe): the last state is printed, no key is read
    result = runner.invoke(cli, ["replay", str(record)], input="nnpq")
    last = len(record.read_text().splitlines()) - 2       # the header and the end mark are not events
    assert result.exit_code == 0, result.output
    assert f"event {last}/{last}" in result.output


def test_replay_at_out_of_range_is_an_error(recorded: tuple[Path, Path], runner: CliRunner) -> None:
    _, record = recorded
    result = runner.invoke(cli, ["replay", str(record), "--at", "999999"])
    assert result.exit_code != 0 and "outside" in result.output


def test_why_walks_back_to_the_decision(recorded: tuple[Path, Path], runner: CliRunner) -> None:
    _, record = recorded
    damage = next(e for e in lines_of(record)[1:] if e["event"]["type"] == "CombatDamage")
    result = runner.invoke(cli, ["why", str(record), str(damage["seq"]), "--json"])
    assert result.exit_code == 0, result.output
    chain = json.loads(result.output)["chain"]
    assert chain[0]["seq"] == damage["seq"] and chain[0]["clause"] == "W-12.6"
    assert chain[-1]["kind"] == "decision"
    assert all(link["clause_text"] for link in chain)
    text = runner.invoke(cli, ["why", str(record), str(damage["seq"])]).output
    assert "W-12.6" in text and "decided by seat" in text


def test_audit_and_verify_clean_record(recorded: tuple[Path, Path], runner: CliRunner) -> None:
    _, record = recorded
    assert runner.invoke(cli, ["audit", str(record)]).exit_code == 0
    assert runner.invoke(cli, ["verify", str(record)]).exit_code == 0


def test_edited_line_fails_verify_and_audit_at_its_seq(recorded: tuple[Path, Path],
                                                       runner: CliRunner, tmp_path: Path) -> None:
    _, record = recorded
    lines = record.read_text().splitlines()
    index = next(i for i, line in enumerate(lines) if '"CombatDamage"' in line)
    seq = json.loads(lines[index])["seq"]
    edited = json.loads(lines[index])
    edited["event"]["amount"] += 1
    lines[index] = json.dumps(edited, ensure_ascii=False, separators=(",", ":"))
    bad = tmp_path / "edited.kifu.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    verify = runner.invoke(cli, ["verify", str(bad)])
    assert verify.exit_code == 1 and f"seq {seq}" in verify.output
    audit = runner.invoke(cli, ["audit", str(bad)])
    assert audit.exit_code == 1 and f"seq {seq}" in audit.output


def test_audit_json_and_directory(recorded: tuple[Path, Path], runner: CliRunner) -> None:
    _, record = recorded
    result = runner.invoke(cli, ["audit", str(record.parent), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)[0]["status"] == "clean"


def test_export_import_round_trip(recorded: tuple[Path, Path], runner: CliRunner, tmp_path: Path) -> None:
    db, record = recorded
    match_id = lines_of(record)[0]["match_id"]
    out = tmp_path / "exported.kifu.jsonl"
    assert runner.invoke(cli, ["--db", str(db), "export", match_id, "--out", str(out)]).exit_code == 0
    assert out.read_bytes() == record.read_bytes()
    other = tmp_path / "other.db"
    imported = runner.invoke(cli, ["--db", str(other), "import", str(out)])
    assert imported.exit_code == 0, imported.output
    again = runner.invoke(cli, ["--db", str(other), "import", str(out)])
    assert again.exit_code == 0 and "nothing to do" in again.output    # import is idempotent (issue 14)
    replayed = runner.invoke(cli, ["--db", str(other), "replay", match_id, "--at", "10"])
    assert replayed.exit_code == 0 and "event 10/" in replayed.output


@pytest.mark.parametrize("content, needle", [
    (b"", "empty"),
    (b"not json\n", "line 1"),
    (b'{"kifu":"match","format":99}\n', "format 99"),
    (b'{"hello":1}\n', "not a Kifu record"),
])
def test_malformed_records_name_the_problem(tmp_path: Path, runner: CliRunner, content: bytes, needle: str) -> None:
    bad = tmp_path / "bad.kifu.jsonl"
    bad.write_bytes(content)
    for args in (["verify", str(bad)], ["replay", str(bad), "--at", "1"]):
        result = runner.invoke(cli, args)
        assert result.exit_code != 0
        assert needle in result.output and "Traceback" not in result.output


def test_malformed_event_line_is_named(recorded: tuple[Path, Path], runner: CliRunner, tmp_path: Path) -> None:
    _, record = recorded
    lines = record.read_text().splitlines()
    lines[5] = '{"seq":5,"kind":"rule","event":{"type":"NoSuchEvent"}}'
    bad = tmp_path / "bad.kifu.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    result = runner.invoke(cli, ["verify", str(bad)])
    assert result.exit_code == 2 and "line 6" in result.output


def test_bad_deck_file_is_named(tmp_path: Path, runner: CliRunner) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('name = "tiny"\nhearts = ["ディプテラ"]\n[cards]\n"ディプテラ" = 3\n')
    result = runner.invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "1", "--deck", str(deck)])
    assert result.exit_code != 0 and "W-4.1" in result.output and "Traceback" not in result.output
    unknown = runner.invoke(cli, ["--db", "memory", "play", "worlfard", "--deck", "no-such-preset"])
    assert unknown.exit_code != 0 and "no preset deck" in unknown.output


def test_human_seat_is_prompted_with_legal_decisions(runner: CliRunner) -> None:
    # seat 1 is human: answer "1" to every prompt until the input runs out → aborted, not a traceback
    result = runner.invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "3", "--p1", "human"],
                           input="1\n" * 5)
    assert "your decision" in result.output
    assert "ChooseOrder" in result.output or "Mulligan" in result.output


def test_rules_reference_lists_clause(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "worlfard", "W-6.4"])
    assert result.exit_code == 0 and "HT4" in result.output
    assert "declared on: kifu.domain.worlfard.payment:check_payment (domain/worlfard/payment.py:" in result.output
    assert "tested by: tests/worlfard/" in result.output


def test_rules_clause_as_json_lists_its_declarations_and_tests(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "masters", "M-2.1", "--json"])
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.output)
    assert "kifu.domain.masters.flow:pass_priority" in entry["implemented_in"]
    assert all(t.startswith("tests/") and "::test_M_2_1_" in t for t in entry["tested_in"]) and entry["tested_in"]


def test_rules_coverage_counts_declarations_and_names_what_is_missing(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["rules", "worlfard", "--coverage", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["clauses"] == 119 and report["declared"] == report["implemented"] == 119
    assert report["not_declared"] == [] and report["mentioned_only"] == {}
    text = runner.invoke(cli, ["rules", "worlfard", "--coverage"]).output
    assert "declared on code   119/119" in text and "only mentioned in text" not in text
