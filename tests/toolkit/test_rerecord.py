"""kifu audit --rerecord: rewrites records whose rulings changed on purpose, says what changed,
and leaves alone (and reports) records whose decisions are refused now or that were edited."""
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

NEVER_ZERO = "W-12.6-damage-never-below-zero"
DIAGONAL = "W-Q2-diagonal-spot-is-two-away"
UNTOUCHED = "W-6.4-redundant-tower-rejected"


@pytest.fixture()
def folder(tmp_path: Path, fresh: list[Path]) -> Path:
    copy_records([p for p in fresh if p.name.removesuffix(".kifu.jsonl") in (NEVER_ZERO, DIAGONAL, UNTOUCHED)],
                 tmp_path)
    return tmp_path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["audit", *args, "--jobs", "1"])
    return result.exit_code, result.output


def test_a_changed_ruling_is_re_recorded_and_reported(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(combat, "combat_damage", lambda strength, defense: max(1, strength - defense))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    old = read_record(folder / f"{NEVER_ZERO}.kifu.jsonl")
    code, out = run(str(folder), "--rerecord")
    assert code == 0, out
    assert f"re-recorded {folder / NEVER_ZERO}.kifu.jsonl" in out.replace("\n", " ") or "re-recorded" in out
    assert "changed: first change at #" in out and "(clause W-12.6)" in out
    assert "rules version still" in out and "outcome:" in out
    new = read_record(folder / f"{NEVER_ZERO}.kifu.jsonl")
    assert (new.header.match_id, new.header.seed, new.header.decks, new.header.start) == \
           (old.header.match_id, old.header.seed, old.header.decks, old.header.start)
    assert [e.event.amount for e in new.envelopes if type(e.event).__name__ == "CombatDamage"
            and e.event.card == old.envelopes[0].event.state.sides[1].stage[1].card] == [1]
    assert audit(new.ruleset, new.header, new.envelopes).clean          # under the changed ruling
    for name in (f"{UNTOUCHED}.kifu.jsonl", f"{DIAGONAL}.kifu.jsonl"):
        assert (folder / name).read_bytes() == before[name]           # their rulings did not change
    monkeypatch.undo()
    assert not audit(new.ruleset, new.header, new.envelopes).clean      # and today's engine disagrees again


def test_a_record_whose_decision_is_refused_now_is_left_alone(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = combat.distance
    monkeypatch.setattr(combat, "distance", lambda a, b, across: real(a, b, across) + (1 if across and a != b else 0))
    record = folder / f"{DIAGONAL}.kifu.jsonl"
    before = record.read_bytes()
    code, out = run(str(record), "--rerecord", "--json")
    assert code == 1
    [result] = json.loads(out)
    assert result["status"] == "diverged" and result["refused"]["clause"] == "W-12.2"
    assert "refuses decision" in result["refused"]["reason"]
    assert record.read_bytes() == before
    code, text = run(str(record), "--rerecord")
    assert "left alone" in text


def test_an_edited_record_is_never_re_recorded(folder: Path) -> None:
    record = folder / f"{NEVER_ZERO}.kifu.jsonl"
    lines = record.read_text("utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if '"CombatDamage"' in line)
    edited = json.loads(lines[index])
    edited["event"]["amount"] = 7
    lines[index] = json.dumps(edited, ensure_ascii=False, separators=(",", ":"))
    record.write_text("\n".join(lines) + "\n", "utf-8")
    before = record.read_bytes()
    code, out = run(str(record), "--rerecord", "--json")
    [result] = json.loads(out)
    assert code == 1 and result["refused"]["seq"] == edited["seq"] and "edited" in result["refused"]["reason"]
    assert record.read_bytes() == before


def test_clean_records_are_not_rewritten(folder: Path) -> None:
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    code, out = run(str(folder), "--rerecord")
    assert code == 0 and "3 clean" in out
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
