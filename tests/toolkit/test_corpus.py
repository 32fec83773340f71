"""The regression corpus replays/worlfard: what it holds, and that every event's clause is known."""
from __future__ import annotations

import re
from pathlib import Path

from corpus_helpers import CORPUS, generate

from kifu.domain.core.ruleset import find_ruleset
from kifu.projections.probes import load_probes
from kifu.projections.recordfile import read_record

RULES = find_ruleset("worlfard")
SCENARIO_NAME = re.compile(r"^(W-(?:Q?\d+(?:\.\d+)?))-[a-z0-9-]+$")


def stem(path: Path) -> str:
    return path.name.removesuffix(".kifu.jsonl")


def test_at_least_30_bot_matches_over_every_preset(corpus: list[Path]) -> None:
    bots = [p for p in corpus if p.name.startswith("bot-")]
    assert len(bots) >= 30
    decks = {read_record(p).header.decks[seat]["name"] for p in bots for seat in (0, 1)}
    assert decks == set(RULES.content.presets())
    assert all(any(type(e.event).__name__ == "MatchEnded" for e in read_record(p).envelopes[-5:]) for p in bots)


def test_at_least_15_scenarios_each_named_for_a_known_clause(corpus: list[Path]) -> None:
    scenarios = [p for p in corpus if p.name.startswith("W-")]
    assert len(scenarios) >= 15
    reference = RULES.content.clauses()
    for path in scenarios:
        found = SCENARIO_NAME.match(stem(path))
        assert found, f"{path.name}: a scenario is named W-<clause>-<what-it-shows>"
        assert found.group(1) in reference, f"{path.name}: no clause {found.group(1)} in the rules reference"


def test_no_event_cites_a_clause_unknown_to_the_rules_reference(corpus: list[Path]) -> None:
    unknown: dict[str, set[str]] = {}
    for path in corpus:
        record = read_record(path)
        reference = record.ruleset.content.clauses()
        for env in record.envelopes:
            if env.clause is not None and env.clause not in reference:
                unknown.setdefault(env.clause, set()).add(path.name)
    assert not unknown, f"clauses cited but not in the rules reference: {unknown}"


def test_probes_belong_to_records_and_name_known_clauses() -> None:
    reference = RULES.content.clauses()
    for probes_file in CORPUS.glob("*.probes.json"):
        record = CORPUS / probes_file.name.replace(".probes.json", ".kifu.jsonl")
        assert record.exists(), f"{probes_file.name} has no record"
        probes = load_probes(record)
        assert probes and all(p.illegal in reference for p in probes)
        assert all(0 <= p.after <= len(read_record(record).envelopes) for p in probes)


def test_scenarios_are_made_deterministically_and_still_show_their_rulings(fresh: list[Path], tmp_path: Path) -> None:
    again = generate(tmp_path)
    scenarios = [p for p in fresh if p.name.startswith("W-")]
    assert [p.name for p in again] == [p.name for p in scenarios] and len(again) >= 15
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(again, scenarios, strict=True))
