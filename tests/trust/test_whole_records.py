"""Evidence that knows when it is whole (issue 24): ``verify``, ``import`` and ``audit`` tell a
finished record (its end mark) from one without; ``import --key/--trusted`` (or an organiser's
``$KIFU_TRUSTED_KEYS``) stores only records a trusted key signed; ``verify`` checks a served
record's seed reveal and every seal's judge copy."""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.commit import ChoiceSealed, SeedRevealed, seed_commitment
from kifu.domain.core.driver import drive
from kifu.domain.core.envelope import Envelope, genesis, link
from kifu.domain.core.header import header_bytes
from kifu.domain.core.match import Match
from kifu.domain.core.record import encode_record
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.core.signing import closing_mark, end_mark, new_signer, public_b64
from kifu.projections.bulk import audit_path
from kifu.projections.recordfile import find_records, read_record


def kifu(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env)


def finished(name: str = "secretbid", seed: int = 5, served: bool = True) -> Match:
    """A finished match; ``served`` as the service creates one (the header commits to the seed)."""
    rules = find_ruleset(name)
    nonce = "ab" * 16
    extra = dict(seed_commitment=seed_commitment(seed, nonce), seed_nonce=nonce) if served else {}
    match = Match.create(rules, match_id=str(uuid.UUID(int=seed)), seed=seed, players=("ann", "bob"),
                         decks=[rules.content.load_deck(p) for p in rules.content.presets()[:2]], **extra)
    drive(match, {s: rules.content.bots["random"](seed * 2 + s) for s in (1, 2)})
    assert match.outcome is not None
    return match


def write(path: Path, match: Match, signer: Any = None) -> Path:
    path.write_bytes(encode_record(match.header, match.envelopes,
                                   closing_mark(match.header, match.envelopes, match.outcome, signer)))
    return path


def rehashed(header: Any, events: list[Envelope[Any]]) -> list[Envelope[Any]]:
    """What a forger does after editing: the whole chain recomputed, so no link breaks."""
    head, out = genesis(header_bytes(header)), []
    for env in events:
        head = link(head, msgspec.structs.replace(env, chain=""))
        out.append(msgspec.structs.replace(env, chain=head))
    return out


def prefix(path: Path, into: Path, lines: int | None = None) -> Path:
    """``head -n LINES``: the header and the first events, the end mark gone (by default up to
    just before a decision in the middle: a prefix that re-adjudicates clean)."""
    if lines is None:
        decisions = [e.seq for e in read_record(path).envelopes if e.kind == "decision"]
        lines = decisions[len(decisions) // 2]
    into.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:lines]))
    return into


def cut_at(path: Path) -> int:
    return len(read_record(path).envelopes)


# -- verify ---------------------------------------------------------------------------------------
def test_a_record_without_an_end_mark_is_in_progress_or_cut_not_ok(tmp_path: Path) -> None:
    whole = write(tmp_path / "m.kifu.jsonl", finished())
    assert kifu("verify", str(whole)).exit_code == 0
    cut = prefix(whole, tmp_path / "cut.kifu.jsonl", 31)
    result = kifu("verify", str(cut))
    assert result.exit_code == 1
    assert "no end mark: in progress or cut at seq 30" in result.stderr
    allowed = kifu("verify", str(cut), "--in-progress")
    assert allowed.exit_code == 0, allowed.output
    assert "no end mark: in progress or cut at seq 30" in allowed.stdout and ": ok" not in allowed.stdout


def test_a_signed_records_prefix_never_verifies_ok(tmp_path: Path) -> None:
    signer = new_signer("club")
    key = f"club {public_b64(signer.key.public_key())}"
    whole = write(tmp_path / "m.kifu.jsonl", finished(), signer)
    assert "signed by 'club'" in kifu("verify", str(whole), "--key", key).stdout
    cut = prefix(whole, tmp_path / "cut.kifu.jsonl", 40)
    for args in ((), ("--key", key), ("--key", key, "--in-progress")):
        result = kifu("verify", str(cut), *args)
        assert result.exit_code == 1, (args, result.output)
        assert "no end mark" in result.stderr


def test_verify_refuses_a_served_record_whose_seed_reveal_was_removed(tmp_path: Path) -> None:
    match = finished()
    events = [e for e in match.envelopes if not isinstance(e.event, SeedRevealed)]
    assert len(events) == len(match.envelopes) - 1
    events = rehashed(match.header, [msgspec.structs.replace(e, seq=i) for i, e in enumerate(events, start=1)])
    path = tmp_path / "noseed.kifu.jsonl"
    path.write_bytes(encode_record(match.header, events, end_mark(match.header, events, "seat 1 wins", None)))
    result = kifu("verify", str(path))
    assert result.exit_code == 1
    assert "seed was never revealed" in result.stderr
    assert kifu("audit", str(path)).exit_code != 0          # audit refused it already


def test_verify_refuses_a_record_whose_seals_judge_copy_was_changed(tmp_path: Path) -> None:
    match = finished()
    events = list(match.envelopes)
    i = next(i for i, e in enumerate(events) if isinstance(e.event, ChoiceSealed))
    sealed = events[i].event
    events[i] = msgspec.structs.replace(events[i], event=msgspec.structs.replace(
        sealed, choice={**sealed.choice, "chips": sealed.choice["chips"] + 1}))
    events = rehashed(match.header, events)
    path = tmp_path / "seal.kifu.jsonl"
    path.write_bytes(encode_record(match.header, events, end_mark(match.header, events, "seat 1 wins", None)))
    result = kifu("verify", str(path))
    assert result.exit_code == 1
    assert f"commitment broken at seq {i + 1}" in result.stderr and "judge's copy" in result.stderr


# -- import ---------------------------------------------------------------------------------------
def test_import_refuses_a_record_without_an_end_mark_unless_in_progress(tmp_path: Path) -> None:
    whole = write(tmp_path / "m.kifu.jsonl", finished())
    cut = prefix(whole, tmp_path / "cut.kifu.jsonl")
    db = str(tmp_path / "k.db")
    refused = kifu("--db", db, "import", str(cut))
    assert refused.exit_code != 0 and f"no end mark: in progress or cut at seq {cut_at(cut)}" in refused.output
    taken = kifu("--db", db, "import", str(cut), "--in-progress")
    assert taken.exit_code == 0, taken.output
    assert "in progress" in taken.stdout


def test_import_with_keys_stores_only_records_a_trusted_key_signed(tmp_path: Path) -> None:
    club, other = new_signer("club"), new_signer("mallory")
    key = f"club {public_b64(club.key.public_key())}"
    match = finished()
    signed = write(tmp_path / "signed.kifu.jsonl", match, club)
    by_other = write(tmp_path / "other.kifu.jsonl", match, other)
    unsigned = write(tmp_path / "unsigned.kifu.jsonl", match)
    # a forger renames a player and re-hashes the whole record: the rulings still audit clean
    header = msgspec.structs.replace(match.header, players=("eve", "bob"))
    events = rehashed(header, list(match.envelopes))
    forged = tmp_path / "forged.kifu.jsonl"
    forged.write_bytes(encode_record(header, events, closing_mark(header, events, match.outcome, other)))
    db = str(tmp_path / "k.db")
    for path, reason in ((by_other, "not a trusted key"), (unsigned, "a trusted signature was required"),
                         (forged, "not a trusted key")):
        result = kifu("--db", db, "import", str(path), "--key", key)
        assert result.exit_code != 0 and reason in result.output, result.output
    stored = kifu("--db", db, "import", str(signed), "--key", key)
    assert stored.exit_code == 0 and "signature trusted" in stored.stdout, stored.output


def test_an_organiser_requires_trusted_records_by_configuration(tmp_path: Path) -> None:
    club = new_signer("club")
    trusted = tmp_path / "trusted.keys"
    trusted.write_text(f"# the club's key\nclub {public_b64(club.key.public_key())}\n")
    match = finished()
    env = {"KIFU_TRUSTED_KEYS": str(trusted)}
    db = str(tmp_path / "k.db")
    refused = kifu("--db", db, "import", str(write(tmp_path / "u.kifu.jsonl", match)), env=env)
    assert refused.exit_code != 0 and "a trusted signature was required" in refused.output
    stored = kifu("--db", db, "import", str(write(tmp_path / "s.kifu.jsonl", match, club)), env=env)
    assert stored.exit_code == 0, stored.output


# -- audit and the corpus -------------------------------------------------------------------------
def test_audit_keeps_its_exit_code_but_says_no_end_mark(tmp_path: Path) -> None:
    cut = prefix(write(tmp_path / "m.kifu.jsonl", finished()), tmp_path / "cut.kifu.jsonl")
    result = kifu("audit", str(cut))
    assert result.exit_code == 0, result.output
    assert f"no end mark: in progress or cut at seq {cut_at(cut)}" in result.stdout
    audited = audit_path(str(cut))
    assert audited.status == "clean" and not audited.end_mark


REPLAYS = Path(__file__).resolve().parents[2] / "replays"


@pytest.mark.parametrize("ruleset", sorted(p.name for p in REPLAYS.iterdir() if p.is_dir()))
def test_the_corpus_finished_matches_carry_end_marks_and_scenarios_are_in_progress(ruleset: str) -> None:
    rules = find_ruleset(ruleset)
    marked = 0
    for path in find_records([str(REPLAYS / ruleset)]):
        record = read_record(path)
        over = Match.fold(rules, record.header, record.envelopes).outcome is not None
        assert (record.end is not None) == over, path
        marked += over
        if not over:       # a ruling scenario, read by the pytest plugin as in progress: clean
            assert audit_path(str(path)).status == "clean"
    assert marked >= 20
