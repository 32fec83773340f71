"""``evolve_run`` folds a run of events on a State of its own, changing the commonest events in
place, and ``mana`` pays and untaps at the tapped cards' count it kept instead of reading every card:
cut a record into runs anywhere, and every run must end in exactly the state the fold event by
event reaches there, without touching the state it started from (or a prepared position's)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core import memo
from kifu.domain.core.envelope import canonical
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.record import decode_record
from kifu.domain.masters import mana
from kifu.domain.masters.evolve import evolve_run
from kifu.domain.masters.state import Mana
from kifu.tools.bench_work import play, preset_pairs

from .scenario import RULESET as RULES

PAIRS = preset_pairs(RULES)
FOLD = record_evolve(RULES)
CORPUS = sorted((Path(__file__).parents[2] / "replays" / "masters").glob("*.kifu.jsonl"))


def one_by_one(state: Any, events: list[Any]) -> list[Any]:
    """The state after each event, folded one at a time (the from-scratch answer)."""
    out = []
    for event in events:
        state = FOLD(state, event)
        out.append(state)
    return out


def prepared(events: list[Any]) -> list[bytes]:
    """The prepared positions' states, encoded: a run must leave the events' own states as they are."""
    return [msgspec.json.encode(e.state) for e in events if hasattr(e, "state")]


def check_runs(match: Match, cuts: list[int]) -> None:
    events = [env.event for env in match.envelopes]
    start = RULES.decider.initial_state(match.header)
    positions = prepared(events)
    after = one_by_one(start, events)
    state, at = start, 0
    for cut in sorted({min(c, len(events)) for c in cuts} | {len(events)}):
        before, encoded = state, canonical(state)
        state = evolve_run(state, events[at:cut], FOLD)
        assert state is not before and canonical(before) == encoded, f"run {at}..{cut} changed its start"
        if cut > at:
            assert state == after[cut - 1] and canonical(state) == canonical(after[cut - 1]), f"run {at}..{cut}"
        at = cut
    assert prepared(events) == positions
    assert one_by_one(start, events) == after     # and the fold after the runs still reaches the same states


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name.split(".kifu")[0])
def test_runs_of_every_corpus_record_fold_as_one_by_one(path: Path) -> None:
    header, envelopes, _ = decode_record(path.read_bytes(), path.name)
    match = Match.fold(RULES, header, envelopes)
    n = len(envelopes)
    check_runs(match, [1, n // 3, n // 2, n - 2])
    memo.clear_all()              # cold caches: the mana counts are worked out again, to the same states
    check_runs(match, [n // 4, n - 1])


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(1, 10_000), cuts=st.lists(st.integers(0, 600), max_size=6))
def test_runs_of_a_random_match_fold_as_one_by_one(seed: int, cuts: list[int]) -> None:
    match, _ = play(RULES, seed, PAIRS[seed % len(PAIRS)])
    check_runs(match, cuts)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(1, 3), cuts=st.lists(st.integers(0, 1_500), max_size=4))
def test_runs_from_a_prepared_position_fold_as_one_by_one(seed: int, cuts: list[int]) -> None:
    """The bench's long match: a prepared position (a whole state the core puts in, which the run
    must copy before changing), rows of 100 mana and more."""
    decks, start = RULES.bench.long_match(seed)
    match, _ = play(RULES, seed, decks, start=start, until=1_500)
    check_runs(match, cuts)


def test_match_fold_reaches_the_played_state() -> None:
    match, _ = play(RULES, 7, PAIRS[0])
    folded = Match.fold(RULES, match.header, match.envelopes)
    assert folded.state == match.state and canonical(folded.state) == canonical(match.state)


# -- the mana rows, against the plain reading of every card ----------------------------------------
def plain_paid(row: tuple[Mana, ...], amount: int) -> tuple[Mana, ...]:
    out = []
    for m in row:
        if amount and not m.tapped:
            m = msgspec.structs.replace(m, tapped=True)
            amount -= 1
        out.append(m)
    return tuple(out)


def plain_untapped(row: tuple[Mana, ...]) -> tuple[Mana, ...]:
    return tuple(msgspec.structs.replace(m, tapped=False) for m in row)


rows = st.lists(st.builds(Mana, card=st.integers(100, 140), face_up=st.booleans(), tapped=st.booleans()),
                max_size=12).map(tuple)
steps = st.lists(st.one_of(st.tuples(st.just("pay"), st.integers(0, 5)), st.tuples(st.just("untap"), st.just(0)),
                           st.tuples(st.just("charge"), st.booleans())), max_size=12)


@settings(max_examples=200, deadline=None)
@given(row=rows, todo=steps, seat=st.sampled_from([1, 2]))
def test_mana_rows_change_as_every_card_read_would(row: tuple[Mana, ...], todo: list[Any], seat: int) -> None:
    """Any row (a hand-made one's tapped cards need not be its first) through any payments, untaps
    and charges: the same cards as the plain reading, whether the count was kept or not."""
    memo.clear_all()
    plain = row
    for step, arg in todo:
        if step == "pay":
            amount = min(arg, sum(not m.tapped for m in plain))     # ``decide`` never pays more than it has
            row, plain = mana.paid(seat, row, amount), plain_paid(plain, amount)
        elif step == "untap":
            row, plain = mana.untapped(seat, row), plain_untapped(plain)
        else:
            card = Mana(card=150 + len(row), face_up=arg)
            row, plain = mana.charged(seat, row, card), plain + (card,)
        assert row == plain
