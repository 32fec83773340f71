"""Records written in format 1 keep working under format 2 (issues 24 and 25).

``tests/toolkit/data/format1-*`` were made by Kifu before record format 2, one short finished
match of every ruleset: served novel, alteil and secretbid matches (seed committed, seals, the seed
revealed at the end), and worlfard, reigeki, masters and novel signed with the key whose public
line is ``format1-fixtures.pub``. Their header's ``format`` (1) makes the core re-run them with
SplitMix64, the salts kept in their seals, the declaration-order state digest at every decision
and lines that always carry ``kind``: so they verify, audit, replay, import and export byte for
byte, and their chains, end marks and signatures stay valid.
"""
from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.commit import ChoiceSealed
from kifu.domain.core.record import decode_record, encode_record, first_broken_link, first_broken_seal
from kifu.domain.version import FORMAT_VERSION
from kifu.projections.audit import audit
from kifu.projections.recordfile import read_record

DATA = Path(__file__).parent / "data"
RECORDS = sorted(DATA.glob("format1-*.kifu.jsonl*"))
TRUSTED = DATA / "format1-fixtures.pub"
SIGNED = {"worlfard", "reigeki", "masters", "novel"}
SERVED = {"novel", "alteil", "secretbid"}


def ruleset_of(path: Path) -> str:
    return path.name.split("-")[1].split(".")[0]


def raw(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()


def kifu(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_there_is_a_format_1_record_of_every_ruleset() -> None:
    from kifu.domain.core.ruleset import ruleset_names

    assert {ruleset_of(p) for p in RECORDS} >= set(ruleset_names()) | {"secretbid"}
    assert FORMAT_VERSION == 2


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_format_1_record_is_read_as_format_1_and_written_back_byte_for_byte(path: Path) -> None:
    record = read_record(path)
    assert record.header.format == 1 and record.source_format == 1 and record.end is not None
    assert all(b'"kind":' in line for line in raw(path).splitlines()[1:-1])       # format 1 writes every kind
    assert encode_record(record.header, record.envelopes, record.end) == raw(path)
    assert first_broken_link(record.header, record.envelopes) is None
    assert first_broken_seal(record.header, record.envelopes, finished=True) is None
    if ruleset_of(path) in SERVED:
        seals = [e.event for e in record.envelopes if isinstance(e.event, ChoiceSealed)]
        assert seals and all(s.salt for s in seals) and record.header.seed_commitment   # format 1 kept its salts


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_format_1_record_verifies_with_its_signature_and_audits_clean(path: Path) -> None:
    name = ruleset_of(path)
    args = ("--trusted", str(TRUSTED)) if name in SIGNED else ()
    result = kifu("verify", str(path), *args)
    assert result.exit_code == 0, result.output
    assert ("a trusted key" in result.output) == (name in SIGNED)
    if name in SERVED:
        assert "reveals open their commitments" in result.output
    record = read_record(path)
    assert audit(record.ruleset, record.header, record.envelopes).clean
    assert kifu("audit", str(path)).exit_code == 0


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_format_1_record_replays(path: Path) -> None:
    result = kifu("replay", str(path), "--at", "40")
    assert result.exit_code == 0 and result.output.strip(), result.output


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_format_1_record_imports_and_exports_byte_for_byte(path: Path, tmp_path: Path) -> None:
    db, out = tmp_path / "m.db", tmp_path / "out.kifu.jsonl"
    name = ruleset_of(path)
    args = ("--trusted", str(TRUSTED)) if name in SIGNED else ()
    imported = kifu("--db", str(db), "import", str(path), *args)
    assert imported.exit_code == 0 and "re-adjudicated clean" in imported.output, imported.output
    header, _, _ = decode_record(raw(path))
    exported = kifu("--db", str(db), "export", header.match_id, "--out", str(out))
    assert exported.exit_code == 0, exported.output
    written, original = out.read_bytes().splitlines(), raw(path).splitlines()
    assert written[:-1] == original[:-1]                # the header and every event line, as written
    if name not in SIGNED:
        assert out.read_bytes() == raw(path)
    else:                                               # the store keeps no signature: the end mark's
        assert written[-1].split(b',"signer"')[0] == original[-1].split(b',"signer"')[0]   # chain stays


def test_an_edit_to_a_format_1_record_is_caught_at_its_seq(tmp_path: Path) -> None:
    lines = raw(DATA / "format1-novel-served.kifu.jsonl").splitlines()
    lines[30] = lines[30].replace(b'"seat":1', b'"seat":2', 1) if b'"seat":1' in lines[30] \
        else lines[30].replace(b'"seat":2', b'"seat":1', 1)
    bad = tmp_path / "edited.kifu.jsonl"
    bad.write_bytes(b"\n".join(lines) + b"\n")
    result = kifu("verify", str(bad))
    assert result.exit_code == 1 and "seq 30" in result.output, result.output
