"""Every record a local kifu writes of a finished match ends with its end mark (issue 14): export,
play --out, fork --out and selfplay --out-dir, unsigned without a key and signed with
``$KIFU_SIGNING_KEY``, so a copy cut at a decision boundary (``head`` of the events, the last line
kept) fails ``verify`` with "record ends at seq N of M" instead of passing as "unsigned"."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.envelope import genesis, link
from kifu.domain.core.header import header_bytes
from kifu.domain.core.record import encode_record
from kifu.domain.core.signing import end_mark
from kifu.projections.recordfile import read_record


def kifu(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env)


def cut_at_a_decision(path: Path, into: Path) -> tuple[int, int]:
    """What a careless copy (or a forger) does with ``head``: keep the header, the events up to
    just before a decision in the middle, and the last line. Returns (kept, recorded)."""
    record = read_record(path)
    decisions = [e.seq for e in record.envelopes if e.kind == "decision"]
    kept = decisions[len(decisions) // 2] - 1
    lines = path.read_bytes().splitlines(keepends=True)
    into.write_bytes(b"".join(lines[:1 + kept] + lines[-1:]))
    return kept, len(record.envelopes)


def written_by(tmp_path: Path, how: str, env: dict[str, str] | None = None) -> Path:
    """A finished WORLFARD match's record, written by one of the local writers."""
    db = str(tmp_path / "k.db")
    out = tmp_path / f"{how}.kifu.jsonl"
    if how == "play":
        result = kifu("--db", db, "play", "worlfard", "--seed", "7", "-q", "--out", str(out), env=env)
    elif how == "export":
        assert kifu("--db", db, "play", "reigeki", "--seed", "3", "-q", env=env).exit_code == 0
        (stored,) = json.loads(kifu("--db", db, "matches", "--json").stdout)
        result = kifu("--db", db, "export", stored["match_id"], "--out", str(out), env=env)
    elif how == "fork":
        source = written_by(tmp_path, "play")
        result = kifu("--db", db, "fork", str(source), "--at", "44", "-q", "--out", str(out), env=env)
    else:
        (tmp_path / "sp").mkdir()
        result = kifu("selfplay", "alteil", "--seeds", "4-4", "--out-dir", str(tmp_path / "sp"), env=env)
        (out,) = (tmp_path / "sp").glob("*.kifu.jsonl")
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("how", ["play", "export", "fork", "selfplay"])
def test_a_local_record_of_a_finished_match_is_end_marked_and_a_cut_copy_fails_verify(how: str, tmp_path: Path) -> None:
    path = written_by(tmp_path, how)
    record = read_record(path)
    assert record.end is not None and record.end.events == len(record.envelopes)
    assert record.end.chain == record.envelopes[-1].chain and not record.end.signature
    whole = kifu("verify", str(path))
    assert whole.exit_code == 0 and f"unsigned (ends at seq {len(record.envelopes)})" in whole.stdout
    cut = tmp_path / "cut.kifu.jsonl"
    kept, recorded = cut_at_a_decision(path, cut)
    result = kifu("verify", str(cut))
    assert result.exit_code == 1, result.output
    assert f"record ends at seq {kept} of {recorded}" in result.stderr


@pytest.mark.parametrize("how", ["play", "export"])
def test_a_local_record_is_signed_with_the_kifu_keys_key_when_there_is_one(how: str, tmp_path: Path) -> None:
    key = tmp_path / "club.key"
    made = kifu("keys", "new", "club", "--out", str(key))
    public = made.stdout.strip().splitlines()[0]
    path = written_by(tmp_path, how, env={"KIFU_SIGNING_KEY": str(key)})
    result = kifu("verify", str(path), "--key", public)
    assert result.exit_code == 0 and "signed by 'club'" in result.stdout, result.output
    cut = tmp_path / "cut.kifu.jsonl"
    kept, recorded = cut_at_a_decision(path, cut)
    refused = kifu("verify", str(cut), "--key", public)
    assert refused.exit_code == 1 and f"record ends at seq {kept} of {recorded}" in refused.stderr


def test_a_bad_signing_key_stops_play_before_the_match_is_played(tmp_path: Path) -> None:
    bad = tmp_path / "bad.key"
    bad.write_text("not a key\n")
    result = kifu("--db", str(tmp_path / "k.db"), "play", "worlfard", "--seed", "7", "-q",
                  "--out", str(tmp_path / "m.kifu.jsonl"), env={"KIFU_SIGNING_KEY": str(bad)})
    assert result.exit_code == 2 and "bad.key" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "m.kifu.jsonl").exists()


def test_rerecord_keeps_the_end_mark_of_a_record_that_had_one(tmp_path: Path) -> None:
    """``audit --rerecord`` rewrites a record whose rulings changed: an end-marked record keeps a
    mark, for its new last link (unsigned: the old signature covered the old events)."""
    r = read_record(written_by(tmp_path, "play"))
    events = list(r.envelopes)      # a ruling today's engine no longer makes: an amount off by 5
    i = next(i for i, e in enumerate(events) if type(e.event).__name__ == "CombatDamage")
    events[i] = msgspec.structs.replace(events[i], event=msgspec.structs.replace(
        events[i].event, amount=events[i].event.amount + 5))
    head, chained = genesis(header_bytes(r.header)), []
    for env in events:
        head = link(head, msgspec.structs.replace(env, chain=""))
        chained.append(msgspec.structs.replace(env, chain=head))
    old = tmp_path / "old.kifu.jsonl"
    old.write_bytes(encode_record(r.header, chained, end_mark(r.header, chained, "seat 1 wins", None)))
    assert kifu("audit", str(old), "--rerecord").exit_code == 0
    redone = read_record(old)
    assert redone.end is not None and redone.end.events == len(redone.envelopes)
    result = kifu("verify", str(old))
    assert result.exit_code == 0 and f"unsigned (ends at seq {len(redone.envelopes)})" in result.stdout
