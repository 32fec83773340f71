"""The WORLFARD rules reference (domain/worlfard/data/rules.toml) against the digest and the seed.

The digest (RULES-DIGEST.md, section 1) lists the clauses and open questions; the seed
(000_585b5df96e254f4a.txt) is the Japanese authority every ``original`` must quote verbatim.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import msgspec
import pytest

from kifu.domain.core.ruleset import ClauseEntry

REPO = Path(__file__).parents[2]
RULES = REPO / "domain" / "worlfard" / "data" / "rules.toml"
SHARED = REPO.parent / "shared"
DIGEST = SHARED / "rules" / "RULES-DIGEST.md"
SEED = SHARED / "seeds" / "000_585b5df96e254f4a.txt"

# An ``original`` quoting passages that are not adjacent in the seed separates them with a line
# holding only this mark (the seed itself never contains it).
FRAGMENT_SEPARATOR = re.compile(r"\n[ \t]*…[ \t]*\n")

needs_shared = pytest.mark.skipif(not (DIGEST.is_file() and SEED.is_file()),
                                  reason="../shared (digest and seeds) is not available")


def _entries() -> list[dict]:
    with RULES.open("rb") as fh:
        data = tomllib.load(fh)
    assert set(data) == {"clause"}, f"rules.toml holds only [[clause]] tables, found {sorted(data)}"
    return data["clause"]


def _section(text: str, start: str, end: str) -> str:
    """The digest text from the heading that starts with ``start`` up to the one with ``end``."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(start))
    last = next(i for i, line in enumerate(lines) if i > first and line.startswith(end))
    return "\n".join(lines[first:last])


def _digest_ids() -> tuple[list[str], list[str]]:
    """(clause ids of 1(a) in order, open-question ids of 1(c) in order)."""
    text = DIGEST.read_text("utf-8")
    summary = _section(text, "### 1(a)", "### 1(b)")
    questions = _section(text, "### 1(c)", "### 1(d)")
    clause_re = re.compile(r"^- (W-\d+\.\d+) |\*\*(W-\d+) ", re.M)
    clauses = [a or b for a, b in clause_re.findall(summary)]
    qs = re.findall(r"\*\*(W-Q\d+) ", questions)
    return clauses, qs


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_parses_and_ids_are_unique() -> None:
    ids = [e.get("id") for e in _entries()]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    assert not dupes, f"duplicate ids: {dupes}"


def test_every_entry_has_id_title_text() -> None:
    for entry in _entries():
        for key in ("id", "title", "text"):
            value = entry.get(key)
            assert isinstance(value, str) and value.strip(), f"{entry.get('id')!r}: missing or empty {key!r}"
        assert re.fullmatch(r"W-(\d+(\.\d+)?|Q\d+)", entry["id"]), f"unexpected id {entry['id']!r}"


def test_entries_fit_the_clause_entry_contract() -> None:
    for entry in _entries():
        msgspec.convert(entry, ClauseEntry)  # raises on unknown fields or wrong types
        # where a clause is implemented and tested is declared on code and found by test name, never
        # claimed by the data
        assert set(entry) <= {"id", "title", "text", "original", "interpretation"}


@needs_shared
def test_every_digest_clause_and_question_appears_in_digest_order() -> None:
    clauses, questions = _digest_ids()
    assert "W-6.4" in clauses and "W-15" in clauses and len(questions) == 20  # the parse worked
    ids = [e["id"] for e in _entries()]
    missing = [c for c in clauses + questions if c not in ids]
    assert not missing, f"digest ids missing from rules.toml: {missing}"
    extra = [i for i in ids if i not in clauses + questions]
    assert not extra, f"ids not in the digest: {extra}"
    assert ids == clauses + questions, "entries are not in digest order"


@needs_shared
def test_originals_are_verbatim_seed_quotes() -> None:
    seed = SEED.read_text("utf-8")
    assert "…" not in seed  # the fragment separator cannot be mistaken for seed text
    flat = _norm(seed)
    for entry in _entries():
        original = entry.get("original", "")
        if not original.strip():
            assert entry.get("interpretation", "").strip(), f"{entry['id']}: no original and no explanation"
            continue
        for fragment in FRAGMENT_SEPARATOR.split(original):
            assert fragment.strip(), f"{entry['id']}: empty fragment in original"
            assert _norm(fragment) in flat, f"{entry['id']}: not verbatim in the seed: {fragment[:60]!r}…"


def test_open_questions_state_their_proposal() -> None:
    for entry in _entries():
        if entry["id"].startswith("W-Q"):
            assert f"{entry['id']} PROPOSAL" in entry.get("interpretation", ""), \
                f"{entry['id']}: interpretation must state the PROPOSAL the engine implements"


def test_cited_ids_exist() -> None:
    entries = _entries()
    ids = {e["id"] for e in entries}
    for entry in entries:
        for field in ("text", "interpretation"):
            for cited in re.findall(r"\bW-(?:Q\d+|\d+(?:\.\d+)?)", entry.get(field, "")):
                assert cited in ids, f"{entry['id']}.{field} cites unknown clause {cited}"


def test_every_clause_is_declared_on_code_and_tested_by_name() -> None:
    from kifu.domain.core.reference import coverage
    from kifu.domain.worlfard.reference import clauses

    cov = coverage(clauses())
    assert list(cov.not_declared) == []
    assert list(cov.not_tested) == []
