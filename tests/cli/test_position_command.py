"""``kifu position`` prints a recorded position as text; ``play --position`` and ``fork --position``
start a match from one; a bad position is refused in one line, exit 2, nothing stored (issue 25)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core import position
from kifu.domain.core.envelope import at_rest
from kifu.domain.core.ruleset import find_ruleset
from kifu.projections.recordfile import read_record

REPLAYS = Path(__file__).resolve().parents[2] / "replays"
RECORD = REPLAYS / "worlfard" / "bot-dawn-dusk-vs-dawn-dusk-s1.kifu.jsonl"


def _settled(path: Path, near: int = 40) -> str:
    """The first seq from ``near`` on where the rules rest (the last event of a decision): the
    corpus's random stream depends on its record format, so the seq is found, not fixed."""
    envelopes = read_record(path).envelopes
    return str(next(s for s in range(near, len(envelopes)) if at_rest(envelopes, s)))


AT = _settled(RECORD)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def text() -> str:
    code, out, err = invoke("position", str(RECORD), "--at", AT)
    assert code == 0, err
    return out


def test_position_prints_the_judges_text_that_parses_to_the_recorded_state(text: str) -> None:
    ruleset = find_ruleset("worlfard")
    assert text.startswith("worlfard-pos/1 await:")
    from kifu.projections.timeline import Timeline
    found = read_record(RECORD)
    assert position.parse(ruleset, text) == Timeline(ruleset, found.header, found.envelopes).state_at(int(AT))


def test_position_for_a_seat_hides_the_opponents_hand_and_every_deck(text: str) -> None:
    code, out, _ = invoke("position", str(RECORD), "--at", AT, "--seat", "1")
    assert code == 0
    judge_hand2 = text.split("sides:[")[1].splitlines()[2].split("hand:?[")[1].split("]")[0]
    assert judge_hand2 and judge_hand2 not in out
    assert "deck:[?*" in out and "deck:?[" not in out


@pytest.mark.parametrize("name", ["worlfard", "masters", "reigeki", "alteil", "novel"])
def test_position_of_a_record_of_every_ruleset(name: str) -> None:
    record = sorted((REPLAYS / name).glob("bot-*.kifu.jsonl"))[0]
    code, out, err = invoke("position", str(record))
    assert code == 0, err
    assert out.startswith(f"{name}-pos/1 await:")


def test_play_from_a_position_records_its_text_in_the_header(text: str, tmp_path: Path) -> None:
    out = tmp_path / "p.kifu.jsonl"
    code, _, err = invoke("--db", "memory", "play", "worlfard", "--position", text, "--seed", "5", "-q",
                          "--out", str(out))
    assert code == 0, err
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert header["position"] == text.strip()
    found = read_record(out)
    ruleset = found.ruleset
    assert found.envelopes[0].event.state == position.parse(ruleset, text)   # PositionPrepared carries it
    assert invoke("audit", str(out))[0] == 0


def test_fork_from_a_position_file_names_its_origin(text: str, tmp_path: Path) -> None:
    (tmp_path / "p.txt").write_text(text, encoding="utf-8")
    out = tmp_path / "f.kifu.jsonl"
    code, _, err = invoke("--db", "memory", "fork", str(RECORD), "--position", f"@{tmp_path / 'p.txt'}", "-q",
                          "--out", str(out))
    assert code == 0, err
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert header["forked_from"] == read_record(RECORD).header.match_id and header["position"] == text.strip()


@pytest.mark.parametrize(("edit", "says"), [
    (lambda t: t.replace("worlfard-pos/1", "worlfard-pos/9"), "not a worlfard-pos/1 position"),
    (lambda t: t.replace("\nturn:", "\nturn:\"x\" bogus:", 1), "bad field: Expected `int`, got `str` (at turn)"),
    (lambda t: t.replace("deck:?[", "deck:?[1001 ", 1), "cards not conserved: card 1001 is in two places"),
    (lambda t: t.replace("deck:?[", "deck:?[1999 ", 1), "unknown card 1999"),
    (lambda t: t.replace("mulligan:kept", "mulligan:kept lives:3", 1), "has no field 'lives'"),
    (lambda t: t.replace("await:1", "await:2", 1) if "await:1" in t else t.replace("await:2", "await:1", 1),
     "but the position awaits"),
    (lambda t: t + " effects:[", "the text ends where"),
    (lambda t: t + " {", "a field name was due"),
])
def test_a_bad_position_is_refused_in_one_line_exit_2_nothing_stored(text: str, edit, says: str,  # type: ignore[no-untyped-def]
                                                                    tmp_path: Path) -> None:
    db = tmp_path / "k.db"
    code, _, err = invoke("--db", str(db), "play", "worlfard", "--position", edit(text), "-q")
    assert code == 2 and len(err.strip().splitlines()) == 1 and says in err, err
    assert invoke("--db", str(db), "matches", "--json")[1].strip() in ("", "[]")


def test_a_position_inside_a_decision_or_after_the_end_is_refused() -> None:
    for at, says in (("3", "no legal decision"), ("", "the match is over")):
        record = REPLAYS / "worlfard" / "W-1.1-deck-out-loses.kifu.jsonl"
        code, out, _ = invoke("position", str(record), *(("--at", at) if at else ()))
        assert code == 0
        code, _, err = invoke("--db", "memory", "play", "worlfard", "--position", out, "-q")
        assert code == 2 and says in err, err


def test_fork_takes_one_of_at_and_position(text: str) -> None:
    code, _, err = invoke("--db", "memory", "fork", str(RECORD), "--at", AT, "--position", text)
    assert code == 2 and "one of --at SEQ and --position TEXT" in err
    assert invoke("position", str(RECORD), "--at", "99999")[0] == 2
