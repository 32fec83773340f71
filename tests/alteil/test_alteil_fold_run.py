"""``evolve_run`` folds a run of events with the sides' piles as lists changed in place and makes
the tuples once at the end: cut a record into runs anywhere (every corpus record, random matches,
the bench's long match), and every run must end in exactly the state the fold event by event
reaches there, with tuple piles, without touching the state it started from."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alteil_scenario import RULES
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.alteil import piles
from kifu.domain.alteil.evolve import evolve_run
from kifu.domain.alteil.state import State
from kifu.domain.core.match import Match
from kifu.projections.recordfile import read_record
from kifu.tools import fold_check
from kifu.tools.bench_work import play, preset_pairs

PAIRS = preset_pairs(RULES)
CORPUS = sorted((Path(__file__).resolve().parents[2] / "replays" / "alteil").glob("*.kifu.jsonl"))


def tupled(state: State) -> bool:
    """Every pile of every side a tuple again (no run's list left in the state)."""
    return all(type(getattr(side, pile)) is tuple for side in state.sides for pile in piles.PILES)


def check_runs(start: State, events: list[Any], cuts: list[int]) -> None:
    fold_check.check_runs(RULES, start, events, cuts, run=evolve_run, frozen=tupled)


def one_by_one(start: State, events: list[Any]) -> list[State]:
    return fold_check.one_by_one(RULES, start, events)


@pytest.mark.parametrize("record", CORPUS, ids=[p.name for p in CORPUS])
def test_corpus_records_fold_in_runs_as_one_by_one(record: Path) -> None:
    found = read_record(record)
    events = [env.event for env in found.envelopes]
    n = len(events)
    check_runs(RULES.decider.initial_state(found.header), events, [1, 2, 7, n // 5, n // 3, n // 2, n - 3, n - 1])
    assert Match.fold(RULES, found.header, found.envelopes).state == one_by_one(
        RULES.decider.initial_state(found.header), events)[-1]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(1, 10_000), cuts=st.lists(st.integers(0, 2_500), max_size=6),
       greedy=st.booleans())
def test_runs_of_a_random_match_fold_as_one_by_one(seed: int, cuts: list[int], greedy: bool) -> None:
    players = ("greedy", "random") if greedy else ("random", "random")
    match, _ = play(RULES, seed, PAIRS[seed % len(PAIRS)], players=players)
    check_runs(RULES.decider.initial_state(match.header), [env.event for env in match.envelopes], cuts)
    assert Match.fold(RULES, match.header, match.envelopes).state == match.state


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(1, 3), cuts=st.lists(st.integers(0, 3_000), max_size=4))
def test_runs_of_the_long_match_fold_as_one_by_one(seed: int, cuts: list[int]) -> None:
    """The long match starts with a prepared position (a whole state put in by the core, its decks
    of 2,000 cards), then cycles its decks through the soul pile."""
    decks, start = RULES.bench.long_match(seed)
    match, _ = play(RULES, seed, decks, start=start, until=3_000)
    check_runs(RULES.decider.initial_state(match.header), [env.event for env in match.envelopes], cuts)
