"""A ruleset the core has never heard of, shipped as its own package and found through the
``kifu.rulesets`` entry point (``tests/secretbid``), runs through every command."""
from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.commit import ChoiceRevealed, ChoiceSealed
from kifu.projections.recordfile import read_record
from kifu.projections.timeline import Timeline

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def kifu(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input, terminal_width=120)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("secretbid") / "m.kifu.jsonl"
    code, text = kifu("--db", "memory", "play", "secretbid", "--seed", "4", "--p1", "greedy", "-q", "--out", str(out))
    assert code == 0, text
    return out


def test_the_entry_point_is_the_only_registration() -> None:
    names = {ep.name: ep.value for ep in entry_points(group="kifu.rulesets")}
    assert names["secretbid"] == "kifu_secretbid:build"
    # the core imports no ruleset: a fresh interpreter importing the registry loads none of them
    code = ("import sys, kifu.domain.core.ruleset as r; r.ruleset_names(); "
            "print(sorted(m for m in sys.modules if m.startswith(('kifu.domain.worlfard', 'kifu_secretbid'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_play_replay_why_audit_verify(record: Path) -> None:
    rec = read_record(record)
    assert (rec.ruleset.name == "secretbid" and rec.envelopes
            and any(isinstance(e.event, ChoiceSealed) for e in rec.envelopes))
    code, text = kifu("replay", str(record), "--at", "6")
    assert code == 0 and "prize" in text and "chips" in text and "K-reveal" in text
    code, seat_text = kifu("replay", str(record), "--at", "3", "--seat", "2")
    assert code == 0 and "pile order" not in seat_text
    code, text = kifu("replay", str(record), input="nnnNpq")      # no terminal: the last state, no keys read
    assert code == 0 and f"event {len(rec.envelopes)}/" in text
    won = next(e for e in rec.envelopes if type(e.event).__name__ == "PrizeWon")
    code, text = kifu("why", str(record), str(won.seq))
    assert code == 0 and "S-4" in text and "K-reveal" in text and "K-seal" in text and "decided by seat" in text
    assert kifu("audit", str(record))[0] == 0
    code, text = kifu("verify", str(record))
    assert code == 0 and "reveals open their commitments" in text


def test_fork_and_diff(record: Path, tmp_path: Path) -> None:
    rec = read_record(record)
    timeline = Timeline(rec.ruleset, rec.header, rec.envelopes)
    at, other = next((e.seq - 1, c) for e in rec.envelopes if type(e.event).__name__ == "Claimed"
                     for c in rec.ruleset.decider.legal(timeline.state_at(e.seq - 1), e.event.seat)
                     if c != rec.ruleset.decider.command_of(e.event))
    out = tmp_path / "fork.kifu.jsonl"
    code, text = kifu("--db", "memory", "fork", str(record), "--at", str(at), "--then",
                      msgspec.json.encode(other).decode(), "-q", "--out", str(out))
    assert code == 0, text
    code, text = kifu("diff", str(record), str(out))
    assert code == 1 and f"A #{at + 1}" in text
    seal = next(e for e in rec.envelopes if isinstance(e.event, ChoiceSealed))
    code, text = kifu("--db", "memory", "fork", str(record), "--at", str(seal.seq))
    assert code != 0 and "sealed choice is still open" in text


def test_cards_rules_selfplay_bench() -> None:
    code, text = kifu("cards", "secretbid", "--where", "value=5")
    assert code == 0 and "Crown" in text and "Gold" not in text and "1 cards" in text
    code, text = kifu("cards", "secretbid", "--where", "colour=red")
    assert code == 2 and "not a column" in text
    code, text = kifu("rules", "secretbid", "--coverage")
    assert code == 0 and "declared on code   17/17" in text and "tested by name     17/17" in text
    code, text = kifu("selfplay", "secretbid", "--p1", "greedy", "--seeds", "1-20")
    assert code == 0 and "card coverage: 5/5" in text
    code, text = kifu("bench", "--quick", "--ruleset", "secretbid", "--json")
    assert code == 0
    report = json.loads(text)
    assert report["ruleset"] == "secretbid"
    figures = {f["key"]: f["median"] for f in report["figures"]}
    assert figures["selfplay.matches_per_s"] > 0 and figures["seek.random_ms"] >= 0


def test_the_reveals_in_a_record_are_the_choices_sealed_before(record: Path) -> None:
    rec = read_record(record)
    seals = {e.seq: e.event for e in rec.envelopes if isinstance(e.event, ChoiceSealed)}
    reveals = [e for e in rec.envelopes if isinstance(e.event, ChoiceRevealed)]
    assert reveals and all(msgspec.to_builtins(seals[r.cause].choice) == r.event.choice for r in reveals)
