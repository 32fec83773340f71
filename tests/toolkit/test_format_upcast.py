"""Record format versions: format 0 (kept in tests/toolkit/data) is upcast on read to format 1, the
oldest read as written (format 1 and 2: ``test_format1_records``); newer fail clearly."""
from __future__ import annotations

import json
import uuid
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from format0 import downcast

from kifu.cli.main import cli
from kifu.domain.core.errors import Malformed
from kifu.domain.core.match import Match
from kifu.domain.core.record import (
    OLDEST_NATIVE,
    decode_header,
    decode_record,
    encode_record,
    first_broken_link,
    readable_formats,
)
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.version import FORMAT_VERSION
from kifu.projections.audit import audit
from kifu.projections.recordfile import read_record
from kifu.store import MatchStore

LEGACY = Path(__file__).parent / "data" / "format0-dawn-dusk-vs-four-winds.kifu.jsonl"


def raw_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_the_committed_file_is_really_format_0() -> None:
    header, *events = raw_lines(LEGACY)
    assert header["format"] == 0 and "rules" in header and "rules_version" not in header
    assert all("clause" not in e for e in events) and any("clause_id" in e for e in events)


def test_format_0_is_upcast_on_read() -> None:
    header, *events = raw_lines(LEGACY)
    record = read_record(LEGACY)
    assert record.source_format == 0
    assert record.header.format == OLDEST_NATIVE == 1
    assert record.header.rules_version == header["rules"] and record.header.engine_version == header["engine"]
    assert [e.clause for e in record.envelopes] == [e.get("clause_id") for e in events]
    assert first_broken_link(record.header, record.envelopes) is None


def test_upcasting_gives_exactly_the_format_1_record() -> None:
    rules = find_ruleset("worlfard")
    made = Match.create(rules, match_id=str(uuid.uuid4()), seed=3, decks=[rules.content.load_deck("flame-gale")] * 2,
                        players=("a", "b"))
    match = Match.start(rules, msgspec.structs.replace(made.header, format=1))
    current = encode_record(match.header, match.envelopes)
    header, envelopes, _ = decode_record(downcast(current))
    assert encode_record(header, envelopes) == current


def test_an_edit_to_a_format_0_record_is_caught_at_its_seq(tmp_path: Path) -> None:
    lines = LEGACY.read_text("utf-8").splitlines()
    edited = json.loads(lines[7])
    edited["seat"] = 3 - edited.get("seat", 1)
    lines[7] = json.dumps(edited, ensure_ascii=False, separators=(",", ":"))
    bad = tmp_path / "edited.kifu.jsonl"
    bad.write_text("\n".join(lines) + "\n", "utf-8")
    record = read_record(bad)
    assert first_broken_link(record.header, record.envelopes) == edited["seq"]
    result = CliRunner().invoke(cli, ["verify", str(bad)])
    assert result.exit_code == 1 and f"seq {edited['seq']}" in result.output


def test_upcasting_does_not_change_the_audit() -> None:
    legacy = read_record(LEGACY)
    header, envelopes, rules = decode_record(encode_record(legacy.header, legacy.envelopes))
    assert audit(legacy.ruleset, legacy.header, legacy.envelopes) == audit(rules, header, envelopes)


def test_a_format_0_record_imports_into_the_store() -> None:
    runner = CliRunner()
    with MatchStore.open("memory") as store:
        legacy = read_record(LEGACY)
        store.create(Match.fold(legacy.ruleset, legacy.header, legacy.envelopes))
        loaded = store.load(legacy.header.match_id)
    assert loaded.envelopes == legacy.envelopes
    # `kifu import` re-adjudicates (issue 14): recorded under rules 1.6.0-kifu.1, this record is not
    # clean under today's rules (as `kifu audit` says), so it is refused with the audit's reason
    # (a record from before end marks has none: --in-progress takes it as it is, issue 24)
    refused = runner.invoke(cli, ["--db", "memory", "import", "--in-progress", str(LEGACY)])
    assert refused.exit_code == 2 and "not clean when re-adjudicated: at seq 17" in refused.output


def test_a_format_0_header_row_is_upcast_too() -> None:
    first = LEGACY.read_bytes().splitlines()[0]
    assert decode_header(first).rules_version == json.loads(first)["rules"]


@pytest.mark.parametrize("fmt, needle", [
    (FORMAT_VERSION + 1, "newer than this Kifu reads"),
    (-1, "unknown"),
    ("1", "not a format number"),
])
def test_newer_or_unknown_formats_fail_with_a_clear_message(fmt: object, needle: str) -> None:
    line = json.dumps({"kifu": "match", "format": fmt}).encode()
    with pytest.raises(Malformed) as caught:
        decode_header(line)
    message = str(caught.value)
    assert needle in message and f"{readable_formats()[0]}..{FORMAT_VERSION}" in message
