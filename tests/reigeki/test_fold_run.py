"""``evolve_run`` folds a run of events on a mutable copy of the state (``loose``), with cases of
its own beside ``evolve``'s; cut a record into runs anywhere, and every run must end in exactly the
state the fold event by event reaches there (equal, and encoded to the same bytes: the record's
digests are of them), without touching the state it started from."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core.commit import PositionPrepared
from kifu.domain.core.judging import JudgeBackup, JudgeCall, JudgeResult
from kifu.domain.core.match import Match
from kifu.domain.core.record import decode_record
from kifu.domain.reigeki import events as e
from kifu.domain.reigeki.evolve import HANDLERS
from kifu.domain.reigeki.loose import CASES, Loose, LooseSide, evolve_run
from kifu.domain.reigeki.state import Battle, Mod, Result, Side, State, Unit
from kifu.tools import fold_check
from kifu.tools.bench_work import play, preset_pairs

from .scenario import RULES

CORPUS = sorted((Path(__file__).resolve().parents[2] / "replays" / "reigeki").glob("*.kifu.jsonl"))
PAIRS = preset_pairs(RULES)


def same(a: State, b: State) -> bool:
    return fold_check.same(RULES, a, b)


def one_by_one(start: State, events: list[Any]) -> list[State]:
    return fold_check.one_by_one(RULES, start, events)


def check_runs(start: State, events: list[Any], cuts: list[int]) -> None:
    """Fold ``events`` as runs cut at ``cuts`` and compare each run's end with the one-by-one fold."""
    fold_check.check_runs(RULES, start, events, cuts, run=evolve_run)


def test_the_cases_cover_the_event_types_evolve_folds() -> None:
    assert CASES.keys() == HANDLERS.keys()


def test_the_loose_copy_has_every_field_and_freezes_to_an_equal_state() -> None:
    unit = Unit(card=101, under=102, burst=True, entered=3, under_entered=2)
    side = Side(keys=("a", "b"), deck=(103,), hand=(104,), discard=(105,), exdeck=(106,), exdiscard=(107,),
                reiryoku=(108,), damage=(109,), flipped=(109,), stage=(unit, None, None, None, None, None),
                mulliganed=True, spell_turn=3, lost="deck out")
    state = State(sides=(side, Side(stage=(None,) * 6)), first=2, active=1, turn=4, phase="main", moved=(101,),
                  battle=Battle(attacker=101, attacker_place=1, target=201, target_place=2, guards=1),
                  mods=(Mod(card=101, power=1),), result=Result(termination="x", winner=1))
    assert set(LooseSide.__slots__) == set(Side.__struct_fields__)
    assert set(Loose.__slots__) == set(State.__struct_fields__)
    assert same(Loose(state).frozen(), state)


@pytest.mark.parametrize("path", CORPUS, ids=[p.name.removesuffix(".kifu.jsonl") for p in CORPUS])
def test_every_corpus_record_folds_in_runs_as_one_by_one(path: Path) -> None:
    header, envelopes, rules = decode_record(path.read_bytes(), path.name)
    events = [env.event for env in envelopes]
    start, n = RULES.decider.initial_state(header), len(events)
    check_runs(start, events, [1, 3, 6, n // 4, n // 2, n // 2 + 1, n - 1])
    check_runs(start, events, [])
    assert same(Match.fold(rules, header, envelopes).state, one_by_one(start, events)[-1])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(1, 10_000), cuts=st.lists(st.integers(0, 2_000), max_size=6))
def test_runs_of_a_random_match_fold_as_one_by_one(seed: int, cuts: list[int]) -> None:
    match, _ = play(RULES, seed, PAIRS[seed % len(PAIRS)])
    check_runs(RULES.decider.initial_state(match.header), [env.event for env in match.envelopes], cuts)
    assert same(Match.fold(RULES, match.header, match.envelopes).state, match.state)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(1, 10_000), at=st.lists(st.integers(0, 2_000), min_size=1, max_size=4),
       cuts=st.lists(st.integers(0, 2_000), max_size=4))
def test_the_cores_events_inside_a_run_fold_as_one_by_one(seed: int, at: list[int], cuts: list[int]) -> None:
    """A judge's call (nothing changes), backup (a whole state put in: here the start, whose sides
    are the defaults, or a state from earlier in the match), result (the state ended), and a
    prepared position, put anywhere in a random match."""
    match, _ = play(RULES, seed, PAIRS[seed % len(PAIRS)])
    events: list[Any] = [env.event for env in match.envelopes]
    start = RULES.decider.initial_state(match.header)
    earlier = one_by_one(start, events[:40])[-1]
    acts = [JudgeCall(judge="j", seat=1, at=3, question="?"), JudgeBackup(judge="j", to=1, state=start),
            JudgeBackup(judge="j", to=40, state=earlier), JudgeResult(judge="j", result="draw", reason="time"),
            PositionPrepared(state=msgspec.json.decode(msgspec.json.encode(earlier), type=State))]
    for i, where in enumerate(at):
        events.insert(min(where, len(events)), acts[(seed + i) % len(acts)])
    check_runs(start, events, cuts)


def test_an_empty_stage_folds_one_by_one_until_it_is_made() -> None:
    """A prepared position with seat 2's stage left empty (decoded: the default itself) stays so
    through a run of seat 1's events, and its first change makes it anew as ``evolve`` does."""
    match, _ = play(RULES, 3, PAIRS[0])
    mid = one_by_one(State(), [env.event for env in match.envelopes][:60])[-1]
    empty = msgspec.json.decode(msgspec.json.encode(msgspec.structs.replace(
        mid, sides=(mid.sides[0], msgspec.structs.replace(mid.sides[1], stage=Side().stage)))), type=State)
    assert empty.sides[1].stage is Side().stage
    events: list[Any] = [PositionPrepared(state=empty), e.StepBegan(step="guard"),
                         e.Drew(seat=1, cards=mid.sides[0].deck[:1]), e.PhaseBegan(phase="main"),
                         e.Burst(seat=2, card=0, place=3), e.StepBegan(step="end")]
    check_runs(State(), events, [1, 2, 4])
