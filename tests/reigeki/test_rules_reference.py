"""The rules reference: every clause implemented and tested, originals quoted verbatim from the seed."""
from __future__ import annotations

from pathlib import Path

from kifu.domain.core.reference import coverage
from kifu.domain.reigeki.cards import catalog

from .scenario import RULES

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "001_e28a7a72f7bdf1a9.txt"


def test_every_clause_is_declared_on_code_and_tested_by_name() -> None:
    clauses = RULES.content.clauses()
    assert len([k for k in clauses if k.startswith("R-")]) == 69
    cov = coverage(clauses)
    assert list(cov.not_declared) == [] and list(cov.not_tested) == []


def test_originals_are_quoted_verbatim() -> None:
    if not SEED.is_file():
        import pytest
        pytest.skip("the seed document is not beside this checkout")
    seed = SEED.read_text("utf-8")
    for clause in RULES.content.clauses().values():
        for passage in clause.original.strip().split("\n…\n"):
            for line in passage.strip().splitlines():
                assert line in seed, f"{clause.id}: {line!r} is not in the seed"


def test_every_card_has_text_and_says_what_is_invented() -> None:
    rows = RULES.content.catalogue().rows
    assert len(rows) == len(catalog())
    for card in catalog().values():
        assert card.text
        if card.type in ("character", "spell"):
            assert "level" in card.invented or card.level == "Ex"


def test_presets_hold_every_card() -> None:
    used: set[str] = set()
    for name in RULES.content.presets():
        deck = RULES.content.load_deck(name)
        used |= {deck.leader, *deck.deck, *deck.ex}
    assert used == set(catalog()) and len(RULES.content.presets()) >= 4
