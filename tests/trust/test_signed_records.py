"""Records are signed and complete, and ``kifu import`` takes only what re-adjudicates clean
(issue 14): a forged record re-hashed end to end, a cut record, a header-only record, oversized
names and decks are refused with their reason; importing twice changes nothing; the standings
survive a forged event that was stored anyway."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.envelope import genesis, link
from kifu.domain.core.header import header_bytes
from kifu.domain.core.match import Match
from kifu.domain.core.record import encode_record
from kifu.domain.core.signing import end_mark, new_signer
from kifu.projections.recordfile import read_record
from kifu.store import MatchStore


def kifu(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "m.kifu.jsonl"
    result = kifu("--db", "memory", "play", "worlfard", "--seed", "7", "-q", "--out", str(path))
    assert result.exit_code == 0, result.output
    return path


def rehashed(header: Any, envelopes: list[Any]) -> list[Any]:
    """The forger's move: recompute every chain link, so the chain alone says nothing."""
    head = genesis(header_bytes(header))
    out = []
    for env in envelopes:
        head = link(head, msgspec.structs.replace(env, chain=""))
        out.append(msgspec.structs.replace(env, chain=head))
    return out


def keypair(tmp: Path, name: str = "judge") -> tuple[Path, str]:
    key = tmp / f"{name}.key"
    result = kifu("keys", "new", name, "--out", str(key))
    assert result.exit_code == 0, result.output
    return key, result.stdout.strip().splitlines()[0]


def test_a_signed_record_verifies_against_its_key_and_says_who_signed(finished: Path, tmp_path: Path) -> None:
    key, public = keypair(tmp_path)
    signed = tmp_path / "signed.kifu.jsonl"
    assert kifu("keys", "sign", str(finished), "--key", str(key), "--out", str(signed)).exit_code == 0
    result = kifu("verify", str(signed), "--key", public)
    assert result.exit_code == 0 and "signed by 'judge'" in result.stdout and "trusted key" in result.stdout
    trusted = tmp_path / "trusted.txt"
    trusted.write_text(f"# the tournament's judges\n{public}\n")
    assert kifu("verify", str(signed), "--trusted", str(trusted)).exit_code == 0
    _, stranger = keypair(tmp_path, "stranger")
    refused = kifu("verify", str(signed), "--key", stranger)
    assert refused.exit_code == 1 and "not a trusted key" in refused.stderr


def test_an_unsigned_record_verifies_as_unsigned_and_fails_when_a_signature_is_required(finished: Path,
                                                                                       tmp_path: Path) -> None:
    r = read_record(finished)
    result = kifu("verify", str(finished))      # play --out end-marks it, without a key unsigned
    assert result.exit_code == 0 and result.stdout.rstrip().endswith(f"unsigned (ends at seq {len(r.envelopes)})")
    unmarked = tmp_path / "unmarked.kifu.jsonl"  # no end mark: in progress, or cut (issue 24: never ok)
    unmarked.write_bytes(encode_record(r.header, r.envelopes))
    result = kifu("verify", str(unmarked))
    assert result.exit_code == 1 and f"no end mark: in progress or cut at seq {len(r.envelopes)}" in result.stderr
    result = kifu("verify", str(unmarked), "--in-progress")
    assert result.exit_code == 0 and "no end mark" in result.stdout and ": ok" not in result.stdout
    _, public = keypair(tmp_path)
    assert kifu("verify", str(finished), "--key", public).exit_code == 1
    assert kifu("verify", str(unmarked), "--key", public).exit_code == 1


def test_a_cut_record_fails_verify_with_where_it_ends(finished: Path, tmp_path: Path) -> None:
    r = read_record(finished)
    match = Match.fold(r.ruleset, r.header, r.envelopes)
    mark = end_mark(r.header, r.envelopes, match.outcome.describe(), new_signer("svc"))
    decisions = [e.seq for e in r.envelopes if e.kind == "decision"]
    cut_at = decisions[len(decisions) // 2] - 1            # at a decision boundary: the chain is intact
    cut = tmp_path / "cut.kifu.jsonl"
    cut.write_bytes(encode_record(r.header, r.envelopes[:cut_at], mark))
    result = kifu("verify", str(cut))
    assert result.exit_code == 1
    assert f"record ends at seq {cut_at} of {len(r.envelopes)}" in result.stderr
    assert kifu("--db", str(tmp_path / "s.db"), "import", str(cut)).exit_code == 2


def test_a_forged_record_rehashed_end_to_end_fails_its_signature_and_import(finished: Path, tmp_path: Path) -> None:
    r = read_record(finished)
    signer = new_signer("svc")
    match = Match.fold(r.ruleset, r.header, r.envelopes)
    # flip an amount in a ruling, re-hash everything, keep the signed mark: the signature no longer covers it
    forged_events = list(r.envelopes)
    i = next(i for i, e in enumerate(forged_events) if type(e.event).__name__ == "CombatDamage")
    forged_events[i] = msgspec.structs.replace(forged_events[i], event=msgspec.structs.replace(
        forged_events[i].event, amount=forged_events[i].event.amount + 5))
    forged_events = rehashed(r.header, forged_events)
    honest_mark = end_mark(r.header, r.envelopes, match.outcome.describe(), signer)
    forged = tmp_path / "forged.kifu.jsonl"
    forged.write_bytes(encode_record(r.header, forged_events, honest_mark))
    result = kifu("verify", str(forged))
    assert result.exit_code == 1 and "does not match the chain" in result.stderr
    # the forger re-signs with a key of their own: verify against the judge's key refuses it
    forged.write_bytes(encode_record(r.header, forged_events,
                                     end_mark(r.header, forged_events, "seat 2 wins", new_signer("svc"))))
    trusted = tmp_path / "trusted.txt"
    trusted.write_text(f"svc {signer.public}\n")
    assert kifu("verify", str(forged), "--trusted", str(trusted)).exit_code == 1
    # and import re-adjudicates: today's engine does not produce the forged ruling
    result = kifu("--db", str(tmp_path / "s.db"), "import", str(forged))
    assert result.exit_code == 2 and "not clean when re-adjudicated" in result.stderr
    assert "seq" in result.stderr and "Traceback" not in result.stderr


def test_import_refuses_a_header_only_record_huge_names_and_huge_decks(finished: Path, tmp_path: Path) -> None:
    r = read_record(finished)
    db = str(tmp_path / "s.db")
    header_only = tmp_path / "header.kifu.jsonl"
    header_only.write_bytes(encode_record(r.header, []))
    assert kifu("--db", db, "import", str(header_only)).exit_code == 2
    for name, header in {
        "name": msgspec.structs.replace(r.header, players=("x" * 100_000, "b")),
        "deck": msgspec.structs.replace(r.header, decks=({"cards": {"a": 1}, "pad": ["x" * 20] * 2000},
                                                         r.header.decks[1])),
    }.items():
        path = tmp_path / f"{name}.kifu.jsonl"
        path.write_bytes(encode_record(header, rehashed(header, r.envelopes)))
        result = kifu("--db", db, "import", str(path))
        assert result.exit_code == 2, (name, result.output)
    with MatchStore.open(db) as store:
        assert store.list_matches() == []


def test_import_twice_is_idempotent_and_a_different_record_under_the_same_id_is_refused(
        finished: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    first = kifu("--db", db, "import", str(finished))
    assert first.exit_code == 0 and "re-adjudicated clean" in first.stdout
    again = kifu("--db", db, "import", str(finished))
    assert again.exit_code == 0 and "nothing to do" in again.stdout
    r = read_record(finished)
    shorter = tmp_path / "shorter.kifu.jsonl"
    decisions = [e.seq for e in r.envelopes if e.kind == "decision"]
    shorter.write_bytes(encode_record(r.header, r.envelopes[:decisions[5] - 1]))
    assert kifu("--db", db, "import", str(shorter)).exit_code != 0
    with MatchStore.open(db) as store:
        assert [m.seq for m in store.list_matches()] == [len(r.envelopes)]


def test_the_standings_survive_a_forged_card_stored_anyway(finished: Path, tmp_path: Path) -> None:
    """A store filled before imports were re-adjudicated may hold a forged ``CardDrawn 99999``:
    ``kifu stats`` (and ``--rebuild``) leave that match out, saying so, and count the rest."""
    r = read_record(finished)
    forged = list(r.envelopes)
    i = next(i for i, e in enumerate(forged) if type(e.event).__name__ == "CardDrawn")
    forged[i] = msgspec.structs.replace(forged[i], event=msgspec.structs.replace(forged[i].event, card=99999))
    db = str(tmp_path / "s.db")
    with MatchStore.open(db) as store:
        store.create(Match.fold(r.ruleset, r.header, rehashed(r.header, forged)))
    assert kifu("--db", db, "import", str(finished.parent / "m.kifu.jsonl")).exit_code in (0, 2)
    for args in (["stats"], ["stats", "--rebuild"], ["stats"]):
        result = kifu("--db", db, *args)
        assert result.exit_code == 0, result.output
