"""What a judge or organiser tripped over at the terminal (issue 16), each now a test."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.cli.render import clause_body, describe_event
from kifu.domain.core.header import header_bytes
from kifu.domain.core.record import decode_record
from kifu.domain.core.ruleset import find_ruleset, ruleset_names
from kifu.projections.bulk import FileAudit, audit_path
from kifu.projections.pytest_kifu import describe
from kifu.projections.recordfile import read_record
from kifu.store import MatchStore

ROOT = Path(__file__).resolve().parents[2]


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "kifu.db")


def _play(db: str, *extra: str) -> str:
    code, out, err = invoke("--db", db, "play", "worlfard", "--seed", "7", "-q", *extra)
    assert code == 0, err
    return out.split("stored as match ")[1].split()[0]


# -- decks ------------------------------------------------------------------------------------
def _deck(tmp_path: Path, edit: tuple[str, str] | None = None) -> Path:
    text = (ROOT / "domain" / "worlfard" / "data" / "decks" / "dawn-dusk.toml").read_text("utf-8")
    if edit:
        text = text.replace(*edit, 1)
    path = tmp_path / "deck.toml"
    path.write_text(text, "utf-8")
    return path


def test_an_unknown_card_exits_2_with_file_line_and_a_did_you_mean(tmp_path: Path) -> None:
    deck = _deck(tmp_path, ("光翼の天使", "光翼の天便"))
    code, _, err = invoke("--db", "memory", "play", "worlfard", "--seed", "1", "--deck", str(deck))
    line = next(i for i, text in enumerate(deck.read_text("utf-8").splitlines(), 1) if text.startswith('"光翼の天便"'))
    assert code == 2 and f"deck.toml: line {line}: cards.光翼の天便" in err and "did you mean '光翼の天使'" in err


def test_a_wrong_deck_size_exits_2_naming_the_line_of_the_card_table(tmp_path: Path) -> None:
    deck = tmp_path / "tiny.toml"
    deck.write_text('name = "tiny"\nhearts = ["光翼の天使", "聖堂の守り手", "曙光の妖精"]\n\n[cards]\n'
                    '"光翼の天使" = 3\n"聖堂の守り手" = 2\n"曙光の妖精" = 2\n', "utf-8")
    code, _, err = invoke("--db", "memory", "play", "worlfard", "--seed", "1", "--deck", str(deck))
    assert code == 2 and "tiny.toml: line 4: [cards]" in err and "W-4.1" in err and len(err.splitlines()) == 1


# -- tournament metadata, matches, prefixes ------------------------------------------------------
def test_play_writes_event_round_table_and_date_and_stamps_each_decision(db: str, tmp_path: Path) -> None:
    out = tmp_path / "m.kifu.jsonl"
    _play(db, "--event", "Spring Open", "--round", "2", "--table", "7", "--out", str(out))
    header, envelopes, _ = decode_record(out.read_bytes(), str(out))
    assert (header.event, header.round, header.table) == ("Spring Open", "2", "7") and header.date.endswith("Z")
    assert all(e.received for e in envelopes if e.kind == "decision")
    assert not any(e.received for e in envelopes if e.kind != "decision")
    assert invoke("audit", str(out))[0] == 0 and invoke("verify", str(out))[0] == 0
    # the time is chained: changing it is an edit verify catches
    lines = out.read_text("utf-8").splitlines()
    i = next(i for i, text in enumerate(lines) if '"received"' in text)
    lines[i] = lines[i].replace('"received":"2', '"received":"1', 1)
    (tmp_path / "edited.kifu.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    assert invoke("verify", str(tmp_path / "edited.kifu.jsonl"))[0] == 1


def test_records_without_metadata_keep_their_bytes() -> None:
    record = next((ROOT / "replays" / "worlfard").glob("*.kifu.jsonl"))
    first = record.read_bytes().split(b"\n", 1)[0]
    assert header_bytes(read_record(record).header) == first


def test_matches_lists_whole_ids_filters_and_json(db: str) -> None:
    first = _play(db, "--event", "Spring Open", "--round", "1")
    second = _play(db, "--event", "Spring Open", "--round", "2")
    code, out, _ = invoke("--db", db, "matches")             # piped: TSV, whole ids
    assert code == 0 and out.splitlines()[0].startswith("match_id\tdate\truleset\tplayers\tdecks\tturns")
    assert first in out and second in out and "…" not in out
    listed = json.loads(invoke("--db", db, "matches", "--round", "2", "--json")[1])
    assert [m["match_id"] for m in listed] == [second] and listed[0]["turns"] > 0 and listed[0]["decks"]
    assert json.loads(invoke("--db", db, "matches", "--status", "ongoing", "--json")[1]) == []
    assert len(json.loads(invoke("--db", db, "matches", "--event", "Spring Open", "--json")[1])) == 2


def test_matches_on_a_terminal_says_why_nothing_is_listed(db: str) -> None:
    """An empty store and filters that fit nothing are told apart (the terminal's table path)."""
    terminal = {"FORCE_COLOR": "1", "COLUMNS": "100"}
    MatchStore.open(db).close()                        # an existing store with nothing in it
    empty = CliRunner().invoke(cli, ["--db", db, "matches"], env=terminal)
    assert empty.exit_code == 0 and "no matches stored yet" in empty.stdout, empty.output
    _play(db)
    unmatched = CliRunner().invoke(cli, ["--db", db, "matches", "--status", "ongoing"], env=terminal)
    assert unmatched.exit_code == 0 and "no stored match fits these filters" in unmatched.stdout, unmatched.output
    shown = CliRunner().invoke(cli, ["--db", db, "matches"], env=terminal)
    assert shown.exit_code == 0 and "worlfard" in shown.stdout


def test_every_command_takes_an_unambiguous_id_prefix(db: str, tmp_path: Path) -> None:
    mid = _play(db)
    code, out, _ = invoke("--db", db, "replay", mid[:8], "--at", "5")
    assert code == 0 and "event 5/" in out
    assert invoke("--db", db, "why", mid[:8], "40")[0] == 0
    code, out, _ = invoke("--db", db, "export", mid[:6], "--out", str(tmp_path / "x.kifu.jsonl"))
    assert code == 0 and read_record(tmp_path / "x.kifu.jsonl").header.match_id == mid


def test_an_aborted_human_match_resumes_by_id(db: str) -> None:
    aborted = CliRunner().invoke(cli, ["--db", db, "play", "worlfard", "--seed", "3", "--p1", "human"], input="1\n1\n")
    assert aborted.exit_code == 1 and "Traceback" not in aborted.output
    mid = json.loads(invoke("--db", db, "matches", "--json")[1])[0]["match_id"]
    assert f"play --resume {mid}" in aborted.stderr          # the way to go on, said when input ends
    code, out, err = invoke("--db", db, "play", "--resume", mid[:8], "--p1", "random", "-q")
    assert code == 0 and ("wins" in out or "draw" in out), err
    assert json.loads(invoke("--db", db, "matches", "--json")[1])[0]["status"] == "over"
    assert invoke("--db", db, "play", "--resume", mid)[0] == 2        # nothing left to resume


# -- edited records ----------------------------------------------------------------------------
@pytest.fixture()
def edited(tmp_path: Path) -> tuple[Path, int]:
    out = tmp_path / "m.kifu.jsonl"
    assert invoke("--db", "memory", "play", "worlfard", "--seed", "7", "-q", "--out", str(out))[0] == 0
    lines = out.read_text("utf-8").splitlines()
    i = next(i for i, text in enumerate(lines) if '"CombatDamage"' in text)
    row = json.loads(lines[i])
    row["event"]["amount"] += 1
    lines[i] = json.dumps(row, ensure_ascii=False, separators=(",", ":"))
    bad = tmp_path / "edited.kifu.jsonl"
    bad.write_text("\n".join(lines) + "\n", "utf-8")
    return bad, row["seq"]


def test_why_on_an_edited_record_warns_first(edited: tuple[Path, int]) -> None:
    bad, seq = edited
    code, out, err = invoke("why", str(bad), str(seq))
    assert code == 0 and f"hash chain broken at seq {seq}" in err and "DOES NOT VERIFY" in out.splitlines()[0]


def test_the_plugin_does_not_suggest_rerecord_for_an_edited_record(edited: tuple[Path, int]) -> None:
    bad, seq = edited
    result = audit_path(str(bad))
    assert isinstance(result, FileAudit) and result.status != "clean"
    text = describe(result)
    assert "--rerecord" not in text and f"hash chain breaks at seq {seq}" in text


# -- output that stays legible ---------------------------------------------------------------
def test_clause_titles_show_once_in_every_ruleset() -> None:
    for name in ruleset_names():
        for entry in find_ruleset(name).content.clauses().values():
            body = clause_body(entry.title, entry.text)
            assert not body.lower().startswith(entry.title.lower() + ":"), (name, entry.id)
    w = find_ruleset("worlfard").content.clauses()["W-12.6"]
    assert not clause_body(w.title, w.text).startswith("Combat damage:")
    code, out, _ = invoke("rules", "worlfard", "W-12.6")
    assert code == 0 and out.count("Combat damage") == 1


def test_events_are_described_in_words_never_as_python(tmp_path: Path) -> None:
    out = tmp_path / "m.kifu.jsonl"
    for ruleset in ruleset_names():
        assert invoke("--db", "memory", "play", ruleset, "--seed", "2", "-q", "--out", str(out))[0] == 0
        rec = read_record(out)
        card_names = rec.ruleset.presentation.card_names
        names = card_names(rec.ruleset.decider.initial_state(rec.header)) if card_names else None
        for env in rec.envelopes:
            text = describe_event(env.event, names)
            # nested values in words ("trigger=(seat=1 card=…)"), never a dict ("{'step': 1}", "{step: 1}")
            assert re.search(r"\{(?!…\})", text) is None and len(text) < 2000, (ruleset, env.seq, text[:200])


def test_cards_fit_80_columns_and_a_filter_no_card_holds_is_an_error() -> None:
    code, out, _ = invoke("cards", "worlfard")                          # piped: one card a line
    rows = find_ruleset("worlfard").content.catalogue().rows
    assert code == 0 and len(out.splitlines()) == len(rows) + 1
    for bad in ("type=XX", "element=fire"):
        code, _, err = invoke("cards", "worlfard", "--where", bad)
        assert code == 2 and "no card has" in err and len(err.splitlines()) == 1


def test_cards_english_adds_the_gloss_and_text_finds_a_card_by_its_english_name() -> None:
    code, out, _ = invoke("cards", "worlfard", "--english", "--text", "assault wolf")
    header, *rows = out.splitlines()
    assert code == 0 and header.split("\t")[1:3] == ["name", "name_en"] and "gloss" in header.split("\t")
    assert len(rows) == 1 and rows[0].split("\t")[1:3] == ["強襲の狼", "Assault Wolf"] and "[Assault 1]" in rows[0]
    code, out, _ = invoke("cards", "worlfard", "--text", "強襲の狼")     # without --english: the seed's columns only
    assert code == 0 and "name_en" not in out.splitlines()[0] and "Assault Wolf" not in out
