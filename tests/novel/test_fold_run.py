"""``evolve_run`` folds a run of events on a scratch copy of the state changed in place (its own
case per event, mirroring ``evolve``'s) and makes the frozen state once at the end; cut a record
into runs anywhere, and every run must end in exactly the state the fold event by event reaches
there, without touching the state it started from."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core.envelope import canonical
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.record import decode_record
from kifu.domain.novel.run import evolve_run
from kifu.tools import fold_check
from kifu.tools.bench_work import play, preset_pairs

from .scenario import RULES

PAIRS = preset_pairs(RULES)
FOLD = record_evolve(RULES)


def one_by_one(start: Any, events: list[Any]) -> list[Any]:
    return fold_check.one_by_one(RULES, start, events)


def check_runs(match: Match, cuts: list[int]) -> None:
    fold_check.check_runs(RULES, RULES.decider.initial_state(match.header),
                          [env.event for env in match.envelopes], cuts, run=evolve_run,
                          frozen=lambda state: type(state.cards) is tuple)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(1, 10_000), cuts=st.lists(st.integers(0, 400), max_size=6))
def test_runs_of_a_random_match_fold_as_one_by_one(seed: int, cuts: list[int]) -> None:
    match, _ = play(RULES, seed, PAIRS[seed % len(PAIRS)])
    check_runs(match, cuts)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(1, 3), cuts=st.lists(st.integers(0, 1_500), max_size=4))
def test_runs_from_a_prepared_position_fold_as_one_by_one(seed: int, cuts: list[int]) -> None:
    """The long match starts with a prepared position (a whole state put in by the core), and spans
    new turns, whose marks the run clears in place."""
    decks, start = RULES.bench.long_match(seed)
    match, _ = play(RULES, seed, decks, start=start, until=1_500)
    check_runs(match, cuts)


def test_match_fold_reaches_the_played_state() -> None:
    match, _ = play(RULES, 7, PAIRS[0])
    folded = Match.fold(RULES, match.header, match.envelopes)
    assert folded.state == match.state and canonical(folded.state) == canonical(match.state)


CORPUS = sorted((Path(__file__).resolve().parents[2] / "replays" / "novel").glob("*.kifu.jsonl"))


def test_every_corpus_record_folds_as_one_by_one() -> None:
    """The corpus's scenarios start from prepared positions and end every way a match ends."""
    assert CORPUS
    for path in CORPUS:
        header, envelopes, _ = decode_record(path.read_bytes(), path.name)
        match = Match.fold(RULES, header, envelopes)        # (a run: ``SpeedUps.evolve_run``)
        events = [env.event for env in envelopes]
        start = RULES.decider.initial_state(header)
        expected = one_by_one(start, events)[-1]
        assert match.state == expected and canonical(match.state) == canonical(expected), path.name
        assert evolve_run(start, events, FOLD) == expected, path.name
