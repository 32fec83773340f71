"""kifu audit over a directory: all cores, a summary table, JSON for CI, exit codes by the worst."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from corpus_helpers import copy_records

from kifu.cli.main import cli

LEGACY = Path(__file__).parent / "data" / "format0-dawn-dusk-vs-four-winds.kifu.jsonl"


@pytest.fixture()
def folder(tmp_path: Path, fresh: list[Path]) -> Path:
    """Six clean records, one edited at a CombatDamage, one unreadable, one in format 0 (whose
    audit depends on how far the engine has moved since it was made)."""
    copies = copy_records(fresh[:6], tmp_path / "a") + copy_records([LEGACY], tmp_path / "b")
    bot = copy_records([p for p in fresh if p.name.startswith("bot-")][:1], tmp_path / "b")[0]
    lines = bot.read_text("utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if '"CombatDamage"' in line)
    edited = json.loads(lines[index])
    edited["event"]["amount"] += 1
    lines[index] = json.dumps(edited, ensure_ascii=False, separators=(",", ":"))
    bot.write_text("\n".join(lines) + "\n", "utf-8")
    (tmp_path / "b" / "junk.kifu.jsonl").write_text("not json\n")
    assert len(copies) == 7
    return tmp_path


def audit_json(*args: str) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(cli, ["audit", *args, "--json"])
    return result.exit_code, json.loads(result.output)


def test_all_cores_and_one_core_agree(folder: Path) -> None:
    code1, one = audit_json(str(folder), "--jobs", "1")
    code2, two = audit_json(str(folder), "--jobs", "2")
    assert code1 == code2 == 2 and one == two
    legacy = next(r for r in one if r["file"].endswith(LEGACY.name))
    assert legacy["status"] != "unreadable" and any("record format 0" in note for note in legacy["notes"])
    statuses = sorted(r["status"] for r in one if r is not legacy)
    assert statuses == ["clean"] * 6 + ["diverged", "unreadable"]
    edited = next(r for r in one if r["status"] == "diverged" and r is not legacy)
    assert "edited" in edited["divergence"]["reason"] and edited["divergence"]["clause"] == "W-12.6"


def test_the_summary_table_names_the_first_divergence_of_each(folder: Path) -> None:
    (folder / "b" / LEGACY.name).unlink()
    result = CliRunner().invoke(cli, ["audit", str(folder), "--jobs", "2"], env={"COLUMNS": "200"})
    assert result.exit_code == 2
    out = result.output
    assert "audit summary" in out and "6 clean · 1 diverged · 1 unreadable (8 records" in out
    assert "junk.kifu.jsonl" in out and "W-12.6" in out
    assert out.count("clean     ") == 0   # clean records are counted, not listed (-v lists them)
    verbose = CliRunner().invoke(cli, ["audit", str(folder), "-v"], env={"COLUMNS": "200"}).output
    assert sum(1 for line in verbose.splitlines() if line.startswith("clean\t")) == 6   # piped: one row a line


def test_a_clean_directory_exits_0(tmp_path: Path, fresh: list[Path]) -> None:
    copy_records(fresh[:3], tmp_path)
    result = CliRunner().invoke(cli, ["audit", str(tmp_path)])
    assert result.exit_code == 0 and "3 clean (3 records" in result.output


def test_an_engine_that_fails_on_a_record_is_reported_not_fatal(tmp_path: Path, fresh: list[Path],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from kifu.domain.worlfard import combat

    def broken(strength: int, defense: int) -> int:
        raise ZeroDivisionError("a bug in the damage rule")

    copy_records([p for p in fresh if p.name.startswith(("W-12.6-damage-is", "W-6.4-redundant"))], tmp_path)
    monkeypatch.setattr(combat, "combat_damage", broken)
    code, results = audit_json(str(tmp_path), "--jobs", "1")
    assert code == 3 and sorted(r["status"] for r in results) == ["clean", "crashed"]
    crashed = next(r for r in results if r["status"] == "crashed")
    assert "ZeroDivisionError: a bug in the damage rule" in crashed["error"]
