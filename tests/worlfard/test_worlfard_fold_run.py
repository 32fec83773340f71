"""``evolve_run`` (the fold a record is read with) holds the phase, combat and window changes of
a run of events in local copies and builds one state for them: from any state and over any run
of events, it reaches exactly the state ``evolve`` reaches one event at a time — over every
corpus record, and over self-played matches."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core.envelope import canonical
from kifu.domain.core.match import record_evolve
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard.evolve import evolve_run
from kifu.projections.recordfile import read_record
from kifu.tools.bench_work import play, preset_pairs

RECORDS = sorted((Path(__file__).resolve().parents[2] / "replays" / "worlfard").glob("*.kifu.jsonl"))
LONGEST_RUN = 24     # a combat's events from its declaration to its end, and then some


def assert_runs_fold_one_by_one(start: Any, events: list[Any], where: str) -> None:
    """Every run of up to LONGEST_RUN events, from every state of the record, folds to the state
    the events folded one by one reach."""
    fold = record_evolve(find_ruleset("worlfard"))
    states = [start]
    for event in events:
        states.append(fold(states[-1], event))
    for at in range(len(events)):
        for end in range(at + 1, min(len(events), at + LONGEST_RUN) + 1):
            found = evolve_run(states[at], events[at:end], fold)
            assert found == states[end], f"{where}: events {at + 1}..{end}"
    whole = evolve_run(start, events, fold)
    assert whole == states[-1] and canonical(whole) == canonical(states[-1]), where


@pytest.mark.parametrize("record", RECORDS, ids=[r.name for r in RECORDS])
def test_corpus_records_fold_as_one_by_one(record: Path) -> None:
    found = read_record(record)
    start = found.ruleset.decider.initial_state(found.header)
    assert_runs_fold_one_by_one(start, [env.event for env in found.envelopes], record.name)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(1, 10_000))
def test_played_matches_fold_as_one_by_one(seed: int) -> None:
    rules = find_ruleset("worlfard")
    pairs = preset_pairs(rules)
    match, _ = play(rules, seed, pairs[seed % len(pairs)])
    start = rules.decider.initial_state(match.header)
    assert_runs_fold_one_by_one(start, [env.event for env in match.envelopes], f"seed {seed}")
