"""The rules reference: every clause of the digest's section 3 is implemented and tested."""
from __future__ import annotations

import re
from pathlib import Path

from kifu.domain.core.reference import coverage

from .scenario import RULESET

DIGEST = Path(__file__).resolve().parents[3] / "shared" / "rules" / "RULES-DIGEST.md"


def test_every_clause_is_declared_on_code_and_tested_by_name():
    cov = coverage(RULESET.content.clauses())
    assert cov.clauses == len(RULESET.content.clauses()) and not cov.not_declared and not cov.not_tested, cov


def test_the_reference_holds_every_clause_id_the_digest_names():
    if not DIGEST.is_file():
        return
    text = DIGEST.read_text("utf-8")
    section = text[text.index("## 3. Homebrew TCG"):text.index("## 4. Alteil")]
    named = set(re.findall(r"\*?\*?(M-(?:\d+(?:\.\d+)?|Q\d+|C\d+))\b", section))
    assert named <= set(RULESET.content.clauses()), sorted(named - set(RULESET.content.clauses()))


def test_seed_clauses_quote_the_seed_verbatim():
    seed = (Path(__file__).resolve().parents[3] / "shared" / "seeds" / "002_25400be832998b0e.txt")
    if not seed.is_file():
        return
    text = seed.read_text("utf-8")
    for clause in RULESET.content.clauses().values():
        for part in clause.original.strip().split("\n…\n"):
            for line in part.strip().splitlines():
                assert line.strip() in text, (clause.id, line)
