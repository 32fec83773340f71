"""kifu annotate / notes / export --notes / import: notes beside a record, outside its chain."""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.signing import new_signer, private_pem
from kifu.projections.recordfile import read_record


def run(*args: str, env: dict[str, str] | None = None, code: int = 0) -> Any:
    result = CliRunner().invoke(cli, list(args), env={"KIFU_AUTHOR": "ann", **(env or {})})
    assert result.exit_code == code, result.output
    return result


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short novel match, finished, end-marked (unsigned)."""
    out = tmp_path_factory.mktemp("notes") / "n.kifu.jsonl"
    run("--db", "memory", "play", "novel", "--seed", "1", "-q", "--out", str(out))
    return out


@pytest.fixture
def record(played: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "n.kifu.jsonl"
    copy.write_bytes(played.read_bytes())
    return copy


def test_annotate_appends_after_the_end_mark_and_leaves_the_record_bytes_alone(record: Path) -> None:
    before = record.read_bytes()
    said = run("annotate", str(record), "5", "a doubtful pick", "--glyph", "?!", "--arrow", "3-7", "--arrow", "c3")
    assert said.output.startswith(f"note 1 on {record}: #5 ?! ann: a doubtful pick → 3-7, c3")
    run("annotate", str(record), "0", "well played overall")
    after = record.read_bytes()
    assert after.startswith(before)
    lines = after.splitlines()[len(before.splitlines()):]
    assert [json.loads(line)["kifu"] for line in lines] == ["note", "note"]
    read = read_record(record)
    assert [(n.number, n.seq, n.glyph, n.arrows) for n in read.notes] == [(1, 5, "?!", ("3-7", "c3")),
                                                                          (2, 0, "", ())]
    assert read.notes[0].chain == read.envelopes[4].chain
    verified = run("verify", str(record))
    assert "ok" in verified.output and "2 notes after the end, outside the chain" in verified.output
    run("audit", str(record))


def test_a_gzip_record_gets_its_note_as_one_more_member(record: Path, tmp_path: Path) -> None:
    packed = tmp_path / "n.kifu.jsonl.gz"
    packed.write_bytes(gzip.compress(record.read_bytes(), mtime=0))
    run("annotate", str(packed), "2", "!", "--glyph", "!")
    assert [n.text for n in read_record(packed).notes] == ["!"]
    run("verify", str(packed))


def test_signed_notes_verify_and_an_edited_note_fails_verify(record: Path, tmp_path: Path) -> None:
    key = tmp_path / "k.pem"
    key.write_bytes(private_pem(new_signer("arbiter")))
    run("annotate", str(record), "3", "checked", env={"KIFU_SIGNING_KEY": str(key)})
    assert "1 signed" in run("verify", str(record)).output
    listing = run("notes", str(record)).output
    assert "signed by 'arbiter'" in listing
    record.write_bytes(record.read_bytes().replace(b'"text":"checked"', b'"text":"checkeD"'))
    failed = run("verify", str(record), code=1)
    assert "does not verify" in failed.output


def test_a_note_written_on_another_record_fails_verify(record: Path, tmp_path: Path) -> None:
    other = tmp_path / "o.kifu.jsonl"
    run("--db", "memory", "play", "novel", "--seed", "2", "-q", "--out", str(other))
    run("annotate", str(other), "4", "elsewhere")
    note = other.read_bytes().splitlines()[-1]
    record.write_bytes(record.read_bytes() + note + b"\n")
    assert "pinned to another event" in run("verify", str(record), code=1).output


def test_notes_lists_greps_and_prints_json(record: Path) -> None:
    run("annotate", str(record), "5", "the burn was early", "--glyph", "?")
    run("annotate", str(record), "9", "good block", "--glyph", "!!", "--author", "bob")
    shown = run("notes", str(record)).output
    assert "2 notes, 0 variations" in shown and "#9 !! bob: good block" in shown
    found = json.loads(run("notes", str(record), "--json", "--grep", "BURN").output)
    assert [n["text"] for n in found["notes"]] == ["the burn was early"]
    assert [n["author"] for n in json.loads(run("notes", str(record), "--json", "--seq", "9").output)["notes"]] \
        == ["bob"]


@pytest.mark.parametrize(("args", "said"), [
    (["99999", "x"], "outside the record"),
    (["3"], "empty note"),
    (["3", "x", "--arrow", "a b"], "is not 'A-B'"),
    (["3", "x", "--glyph", "?!?"], "--glyph"),
])
def test_bad_notes_are_refused_with_one_line_and_nothing_written(record: Path, args: list[str], said: str) -> None:
    before = record.read_bytes()
    failed = run("annotate", str(record), *args, code=2)
    assert said in failed.output and len(failed.output.strip().splitlines()) == 1
    assert record.read_bytes() == before


def test_stored_notes_round_trip_through_export_and_import(tmp_path: Path) -> None:
    db, other = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    run("--db", db, "play", "novel", "--seed", "1", "-q")
    match_id = json.loads(run("--db", db, "matches", "--json").output)[0]["match_id"]
    run("--db", db, "annotate", match_id[:8], "6", "a fine reveal", "--glyph", "!")
    run("--db", db, "annotate", match_id, "0", "final of the day", "--public")
    plain, noted = tmp_path / "plain.kifu.jsonl", tmp_path / "noted.kifu.jsonl"
    run("--db", db, "export", match_id, "--out", str(plain))
    assert "2 notes" in run("--db", db, "export", match_id, "--notes", "--out", str(noted)).output
    assert noted.read_bytes().startswith(plain.read_bytes())       # the record and its end mark unchanged
    assert "2 notes after the end" in run("verify", str(noted)).output
    imported = run("--db", other, "import", str(noted)).output
    assert "2 notes kept" in imported
    again = json.loads(run("--db", other, "notes", match_id, "--json").output)
    assert [(n["seq"], n["text"], n["public"]) for n in again["notes"]] == [(6, "a fine reveal", False),
                                                                          (0, "final of the day", True)]
    assert "nothing to do" in run("--db", other, "import", str(noted)).output   # the same notes kept once


def test_a_fork_keeps_the_origins_chain_link_and_shows_as_a_variation(record: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "f.db")
    origin = read_record(record)
    at = next(e.seq for e in origin.envelopes[10:] if e.digest is not None)
    fork = tmp_path / "fork.kifu.jsonl"
    run("--db", db, "fork", str(record), "--at", str(at), "-q", "--out", str(fork))
    header = read_record(fork).header
    assert (header.forked_from, header.forked_at, header.forked_chain) == \
        (origin.header.match_id, at, origin.envelopes[at - 1].chain)
    shown = json.loads(run("notes", str(record), "--json").output)
    assert shown["variations"] == [{"match_id": header.match_id, "at": at, "same": True, "where": str(fork),
                                    "noted": False}]
    assert f"variation: match {header.match_id} (forked after #{at}" in run("notes", str(record)).output


def test_a_dossier_of_a_stored_match_holds_its_notes_and_refuses_a_seq_it_has_not(tmp_path: Path) -> None:
    db = str(tmp_path / "d.db")
    run("--db", db, "play", "novel", "--seed", "1", "-q")
    match_id = json.loads(run("--db", db, "matches", "--json").output)[0]["match_id"]
    run("--db", db, "annotate", match_id, "7", "checked the reveal", "--glyph", "!")
    out = tmp_path / "d.html"
    run("--db", db, "dossier", match_id, "7", "--out", str(out))
    page = out.read_text()
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "default-src 'none'" in page
    assert "! ann: checked the reveal" in page and page.count("<svg") == 2
    assert "stored match in SQLite database" in page
    failed = run("--db", db, "dossier", match_id, "100000", "--out", str(out), code=2)
    assert "outside" in failed.output


def test_signing_a_record_afterwards_keeps_its_notes(record: Path, tmp_path: Path) -> None:
    run("annotate", str(record), "3", "before signing")
    key = tmp_path / "k.pem"
    key.write_bytes(private_pem(new_signer("house")))
    run("keys", "sign", str(record), "--key", str(key))
    read = read_record(record)
    assert read.end is not None and read.end.signer == "house"
    assert [n.text for n in read.notes] == ["before signing"]
    said = run("verify", str(record)).output
    assert "signed by 'house'" in said and "1 note after the end" in said


def test_a_stored_matchs_variation_must_be_a_stored_fork_of_it(record: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    run("--db", db, "import", str(record))
    origin = read_record(record).header.match_id
    at = next(e.seq for e in read_record(record).envelopes[8:] if e.digest is not None)
    run("--db", db, "fork", origin, "--at", str(at), "-q", "--stop")
    rows = json.loads(run("--db", db, "matches", "--json").output)
    fork_id = next(r["match_id"] for r in rows if r["match_id"] != origin)
    said = run("--db", db, "annotate", origin, str(at), "--variation", fork_id[:8], "--glyph", "!?").output
    assert f"⑂ {fork_id}" in said
    assert "was not forked from" in run("--db", db, "annotate", fork_id, "1", "--variation", origin, code=2).output
    shown = json.loads(run("--db", db, "notes", origin, "--json").output)
    assert [(v["match_id"], v["at"], v["same"]) for v in shown["variations"]] == [(fork_id, at, True)]
