"""A changed ruling is reported at exactly its first affected event, in exactly the affected records.

The injected change: "combat damage is never below 1" (W-12.6 says never below 0). It affects a
record only where a recorded CombatDamage has amount 0, so the expected report is known from the
records alone: the first such event of each affected record, and nothing for the others.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from corpus_helpers import copy_records

from kifu.cli.main import cli
from kifu.domain.worlfard import combat
from kifu.projections.audit import audit
from kifu.projections.recordfile import read_record

pytest_plugins = ["pytester"]


def at_least_one(strength: int, defense: int) -> int:
    return max(1, strength - defense)


def first_zero_damage(path: Path) -> int | None:
    record = read_record(path)
    return next((e.seq for e in record.envelopes
                 if type(e.event).__name__ == "CombatDamage" and e.event.amount == 0), None)


@pytest.fixture(scope="module")
def chosen(fresh: list[Path]) -> dict[str, int | None]:
    """Up to four affected and four unaffected records (all clean today): name -> predicted first
    divergence. Bot matches come first, so both kinds of record are in."""
    affected: dict[str, int] = {}
    unaffected: dict[str, None] = {}
    for path in sorted(fresh, key=lambda p: not p.name.startswith("bot-")):
        record = read_record(path)
        assert audit(record.ruleset, record.header, record.envelopes).clean
        seq = first_zero_damage(path)
        if seq is not None and len(affected) < 4:
            affected[path.name] = seq
        elif seq is None and len(unaffected) < 4:
            unaffected[path.name] = None
        if len(affected) == len(unaffected) == 4:
            break
    assert affected and unaffected, "the corpus needs records with and without 0-damage combat"
    return {**affected, **unaffected}


@pytest.fixture()
def replays(tmp_path: Path, fresh: list[Path], chosen: dict[str, int | None]) -> Path:
    copy_records([p for p in fresh if p.name in chosen], tmp_path / "replays" / "worlfard")
    return tmp_path / "replays"


def test_the_scenario_for_the_ruling_is_affected(fresh: list[Path]) -> None:
    scenario = next(p for p in fresh if p.name.startswith("W-12.6-damage-never-below-zero"))
    assert first_zero_damage(scenario) is not None


def test_kifu_audit_reports_exactly_the_first_affected_events(replays: Path, chosen: dict[str, int | None],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(combat, "combat_damage", at_least_one)
    result = CliRunner().invoke(cli, ["audit", str(replays), "--json", "--jobs", "1"])
    assert result.exit_code == 1, result.output
    reported = {Path(r["file"]).name: r for r in json.loads(result.output)}
    assert set(reported) == set(chosen)
    for name, seq in chosen.items():
        r = reported[name]
        if seq is None:
            assert r["status"] == "clean", r
        else:
            d = r["divergence"]
            assert r["status"] == "diverged" and d["seq"] == seq and d["clause"] == "W-12.6", r
            assert d["recorded"]["event"]["amount"] == 0 and d["produced"]["event"]["amount"] == 1


def test_the_pytest_plugin_fails_exactly_the_affected_records(pytester: pytest.Pytester, replays: Path,
                                                             chosen: dict[str, int | None],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(combat, "combat_damage", at_least_one)
    result = pytester.runpytest_inprocess(f"--kifu-replays={replays}", str(replays), "-p", "no:cacheprovider",
                                          "-v")
    affected = {n: s for n, s in chosen.items() if s is not None}
    result.assert_outcomes(passed=len(chosen) - len(affected), failed=len(affected))
    out = result.stdout.str()
    for name, seq in chosen.items():
        verdict = "FAILED" if seq is not None else "PASSED"
        assert any(name in line and verdict in line for line in out.splitlines()), (name, verdict)
    for name, seq in affected.items():
        assert f"{name}: first divergence at seq {seq}, clause W-12.6" in out
    assert '"amount": 0' in out and '"amount": 1' in out and "recorded:" in out and "today   :" in out
