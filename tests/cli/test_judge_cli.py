"""``kifu judge MATCH_ID call|ruling|backup|penalty|extend|result`` and ``kifu penalties`` on a local
store (issue 27): each act one line, each refusal one line with its exit code and nothing stored."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.signing import new_signer, private_pem

ENV = {"KIFU_JUDGE": "hana"}


@pytest.fixture
def stored(tmp_path: Path) -> tuple[CliRunner, str, str]:
    """An unfinished masters match: seat 1 is a human whose input ends after a few decisions."""
    db = str(tmp_path / "j.db")
    runner = CliRunner(env=ENV)
    played = runner.invoke(cli, ["--db", db, "play", "masters", "--p1", "human", "--seed", "3", "-q",
                                 "--event", "Spring Open", "--round", "2"], input="1\n" * 6)
    assert played.exit_code == 1 and "is stored at event" in played.output, played.output
    (row,) = json.loads(runner.invoke(cli, ["--db", db, "matches", "--json"]).output)
    return runner, db, row["match_id"]


def events(runner: CliRunner, db: str, match_id: str) -> list[dict[str, object]]:
    out = runner.invoke(cli, ["--db", db, "export", match_id, "--out", "-"]).stdout_bytes.decode()
    return [json.loads(line) for line in out.splitlines() if line.startswith('{"seq"')]


def test_K_penalty_acts_recorded_locally_and_listed_across_matches(stored: tuple[CliRunner, str, str],
                                                                  tmp_path: Path) -> None:
    runner, db, match_id = stored
    base = ["--db", db, "judge", match_id[:8]]
    call = runner.invoke(cli, [*base, "call", "--seat", "2", "Could seat 1 charge that piece?"])
    assert call.exit_code == 0 and "judge hana: seat 2 called about" in call.output, call.output
    call_seq = call.output.split()[0].lstrip("#")
    ruling = runner.invoke(cli, [*base, "ruling", "--call", call_seq, "--clause", "M-2.1", "--changed",
                                 "Seat 2 held priority"])
    assert ruling.exit_code == 0 and "(M-2.1): changed" in ruling.output, ruling.output
    decisions = [e["seq"] for e in events(runner, db, match_id) if e.get("kind", "rule") == "decision"]
    backup = runner.invoke(cli, [*base, "backup", "--to", str(decisions[-1]), "--reason", "misplay"])
    assert backup.exit_code == 0 and "decks reshuffled" in backup.output, backup.output
    key = tmp_path / "hana.key"
    key.write_bytes(private_pem(new_signer("hana")))
    penalty = runner.invoke(cli, ["--db", db, "judge", "--key", str(key), match_id, "penalty", "--seat", "1",
                                  "--infraction", "game rule violation", "--penalty", "warning"])
    assert penalty.exit_code == 0 and "Game Rule Violation — Warning (signed by hana)" in penalty.output
    extend = runner.invoke(cli, [*base, "extend", "--seat", "2", "--minutes", "3"])
    assert extend.exit_code == 0, extend.output

    listed = runner.invoke(cli, ["--db", db, "penalties", "--player", "human"])
    lines = listed.output.splitlines()
    assert lines[0].split("\t")[:3] == ["time", "event", "round"]
    (row,) = [line.split("\t") for line in lines[1:]]
    assert row[1:3] == ["Spring Open", "2"] and row[7:10] == ["human", "Game Rule Violation", "Warning"]
    assert runner.invoke(cli, ["--db", db, "penalties", "--seat", "2"]).output.count("\n") == 1
    out = tmp_path / "m.kifu.jsonl"
    assert runner.invoke(cli, ["--db", db, "export", match_id, "--out", str(out)]).exit_code == 0
    verified = runner.invoke(cli, ["verify", str(out), "--in-progress"])
    assert verified.exit_code == 0 and "5 judge acts (1 signed)" in verified.output, verified.output
    audited = runner.invoke(cli, ["audit", str(out)])
    assert audited.exit_code == 0 and "clean" in audited.output, audited.output
    shown = runner.invoke(cli, ["replay", str(out), "--at", call_seq, "--seat", "1"])
    assert "judge hana: seat 2 called about" in shown.output


@pytest.mark.parametrize(("act", "code", "says"), [
    (["backup", "--to", "3"], 3, "seq 3 is not a decision point"),
    (["ruling", "--call", "3", "--clause", "M-99.9", "x"], 3, "is not a judge call"),
    (["call", "--seat", "3", "?"], 2, "'--seat'"),
    (["penalty", "--seat", "1", "--infraction", "lying", "--penalty", "Warning"], 3, "'lying' is not an infraction"),
    (["result", "game-loss", "--reason", "x"], 3, "needs the seat that loses"),
    (["call", "--seat", "1", "--at", "999", "?"], 2, "seq 999 is not in the record"),
])
def test_K_backup_refusals_are_one_line_with_an_exit_code_and_store_nothing(
        stored: tuple[CliRunner, str, str], act: list[str], code: int, says: str) -> None:
    runner, db, match_id = stored
    before = events(runner, db, match_id)
    refused = runner.invoke(cli, ["--db", db, "judge", match_id, *act])
    assert refused.exit_code == code, refused.output
    assert says in refused.output and len(refused.output.strip().splitlines()) == 1, refused.output
    assert events(runner, db, match_id) == before


def test_K_ruling_refused_for_an_unknown_clause_id(stored: tuple[CliRunner, str, str]) -> None:
    runner, db, match_id = stored
    call = runner.invoke(cli, ["--db", db, "judge", match_id, "call", "--seat", "1", "?"]).output.split()[0][1:]
    refused = runner.invoke(cli, ["--db", db, "judge", match_id, "ruling", "--call", call, "--clause", "M-99.9", "x"])
    assert refused.exit_code == 3 and "unknown clause id 'M-99.9'" in refused.output


def test_K_backup_refused_in_a_ruleset_without_reshuffle(tmp_path: Path) -> None:
    db = str(tmp_path / "n.db")
    runner = CliRunner(env=ENV)
    played = runner.invoke(cli, ["--db", db, "play", "novel", "--p1", "human", "--seed", "3", "-q"], input="1\n" * 4)
    assert played.exit_code == 1, played.output
    (row,) = json.loads(runner.invoke(cli, ["--db", db, "matches", "--json"]).output)
    decisions = [e for e in events(runner, db, row["match_id"]) if e.get("kind", "rule") == "decision"]
    first_of_pair = decisions[-2]["seq"]      # seat 1's seal of the last round: nothing open before it
    refused = runner.invoke(cli, ["--db", db, "judge", row["match_id"], "backup", "--to", str(first_of_pair)])
    assert refused.exit_code == 3, refused.output
    assert "backup refused (K-backup): novel has hidden information but no reshuffle hook" in refused.output


def test_K_backup_refused_across_a_sealed_choice_and_without_a_reshuffle(tmp_path: Path) -> None:
    """secretbid (the test ruleset): sealed bids, a hidden pile and no reshuffle hook."""
    db = str(tmp_path / "s.db")
    runner = CliRunner(env=ENV)
    played = runner.invoke(cli, ["--db", db, "play", "secretbid", "--p1", "human", "--seed", "3", "-q"],
                           input="1\n" * 3)
    assert played.exit_code == 1, played.output
    (row,) = json.loads(runner.invoke(cli, ["--db", db, "matches", "--json"]).output)
    recorded = events(runner, db, row["match_id"])
    seals = [e["seq"] for e in recorded if e.get("kind", "rule") == "decision" and e["event"]["type"] == "ChoiceSealed"]
    second = seals[-1]          # seat 2's seal: seat 1's, just before it, was revealed after it
    across = runner.invoke(cli, ["--db", db, "judge", row["match_id"], "backup", "--to", str(second)])
    assert across.exit_code == 3, across.output
    assert f"seat 1's sealed choice at seq {second - 1} was revealed after seq {second}" in across.output
    claim = [e["seq"] for e in recorded if e.get("kind", "rule") == "decision" and e["event"]["type"] == "Claimed"][-1]
    plain = runner.invoke(cli, ["--db", db, "judge", row["match_id"], "backup", "--to", str(claim)])
    assert plain.exit_code == 3 and "secretbid has hidden information but no reshuffle hook" in plain.output
    assert events(runner, db, row["match_id"]) == recorded
