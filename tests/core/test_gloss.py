"""Every card of every ruleset reads in English too (issue 17): a name and a gloss from ``gloss.toml``.

The seed's Japanese stays the card; these tests only check the gloss files are complete, keyed by
names the catalogue really has, written in English, and tell the cards apart.
"""
from __future__ import annotations

import re
from importlib.metadata import entry_points

import pytest

from kifu.domain.core.catalogue import CardRow
from kifu.domain.core.gloss import glosses
from kifu.domain.core.ruleset import ENTRY_POINT_GROUP, find_ruleset, ruleset_names

SEED_RULESETS = ("worlfard", "reigeki", "masters", "alteil", "novel")

# Kana, kanji and half-width kana: what makes a string Japanese.
JAPANESE_SCRIPT = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")
# Japanese punctuation and full-width forms, except the seed's notation marks a gloss keeps:
# 【…】 (targets) and 〔n〕 (points of cost) in WORLFARD's text.
JAPANESE_PUNCT = re.compile(r"[\u3000-\u300f\u3012\u3013\u3016-\u303f\uff01-\uff65]")
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")


def _rows(ruleset: str) -> tuple[CardRow, ...]:
    return find_ruleset(ruleset).content.catalogue().rows


def _japanese(s: str) -> bool:
    return bool(JAPANESE_SCRIPT.search(s))


def _package(ruleset: str) -> str:
    """The package whose ``gloss.toml`` the ruleset's catalogue reads: where its ``build`` lives."""
    (ep,) = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name.lower() == ruleset]
    return ep.module.rpartition(".")[0]


def test_the_seed_rulesets_are_registered_and_ship_glosses() -> None:
    assert set(SEED_RULESETS) <= set(ruleset_names())
    for ruleset in SEED_RULESETS:
        assert glosses(_package(ruleset)), f"{ruleset} ships no gloss.toml"


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_card_has_an_english_name_and_every_text_a_gloss(ruleset: str) -> None:
    rows = _rows(ruleset)
    japanese = ruleset in SEED_RULESETS or any(_japanese(r.name + r.text) for r in rows)
    if not japanese:
        pytest.skip(f"{ruleset}'s cards are written in English already")
    assert [r.name for r in rows if not r.name_en.strip()] == []
    assert [r.name for r in rows if r.text.strip() and not r.gloss.strip()] == []
    assert [r.name for r in rows if not r.text.strip() and r.gloss] == [], "a card with no text gets a name only"


@pytest.mark.parametrize("ruleset", SEED_RULESETS)
def test_gloss_files_name_only_cards_the_catalogue_has(ruleset: str) -> None:
    names = {r.name for r in _rows(ruleset)}
    assert sorted(set(glosses(_package(ruleset))) - names) == []


@pytest.mark.parametrize("ruleset", SEED_RULESETS)
def test_glosses_are_english_outside_quoted_names(ruleset: str) -> None:
    for row in _rows(ruleset):
        bare = QUOTED.sub("", row.gloss)
        assert not JAPANESE_SCRIPT.search(bare) and not JAPANESE_PUNCT.search(bare), (row.name, row.gloss)
        assert not _japanese(row.name_en), (row.name, row.name_en)


@pytest.mark.parametrize("ruleset", SEED_RULESETS)
def test_english_names_tell_the_cards_apart(ruleset: str) -> None:
    seen: dict[str, str] = {}
    for row in _rows(ruleset):
        key = row.name_en.casefold()
        assert key not in seen, f"{row.name} and {seen[key]} are both {row.name_en!r}"
        seen[key] = row.name


def test_the_english_check_catches_japanese_outside_quotes() -> None:
    """The checker itself: kana in a gloss fails, inside a quoted name it is allowed."""
    assert JAPANESE_SCRIPT.search(QUOTED.sub("", "Deal 3 ダメージ"))
    assert JAPANESE_PUNCT.search("Deal 3 damage。")
    assert not JAPANESE_SCRIPT.search(QUOTED.sub("", 'Summon "炎の剣士" from your deck.'))
    assert not JAPANESE_PUNCT.search("○ Deal 3 damage to 【1 unit】; {Cost: 〔2〕}")
