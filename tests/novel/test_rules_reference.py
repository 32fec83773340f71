"""The rules reference: every N- clause of the digest, its original quoted verbatim from the seed,
implemented (cited by the engine) and tested (a test named for it)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kifu.domain.core.reference import coverage

from .scenario import RULES

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT.parent / "shared" / "seeds" / "004_4fc52bf4756385e1.txt"
DIGEST = ROOT.parent / "shared" / "rules" / "RULES-DIGEST.md"


def _novel() -> dict:
    return {k: v for k, v in RULES.content.clauses().items() if k.startswith("N-")}


def test_every_clause_is_declared_on_code_and_tested_by_name():
    cov = coverage(RULES.content.clauses())
    assert list(cov.not_declared) == [] and list(cov.not_tested) == []


@pytest.mark.skipif(not SEED.exists(), reason="the seed sits beside the repository (../shared) only in the workspace")
def test_originals_are_quoted_verbatim_from_the_seed():
    seed = SEED.read_text("utf-8")
    for cid, clause in _novel().items():
        for line in clause.original.strip().splitlines():
            if line.strip() and line.strip() != "…":
                assert line.strip() in seed, f"{cid}: {line!r} is not in the seed"


@pytest.mark.skipif(not DIGEST.exists(), reason="the digest sits beside the repository only in the workspace")
def test_every_digest_clause_is_in_the_reference():
    digest = DIGEST.read_text("utf-8")
    section = digest[digest.index("## 5. Card game from a web novel"):digest.index("## 6. Source list")]
    ids = set(re.findall(r"\b(N-(?:\d+(?:\.\d+)*|Q\d+|C\d+))\b", section))
    ids = {i.rstrip(".") for i in ids if not i.startswith("N-F")}
    assert ids - set(_novel()) == set()
