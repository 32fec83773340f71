"""``evolve_run`` folds a run of events on a State of its own, changing the commonest events in
place and holding the sides' rows as lists (``piles``, ``mana.LooseRow``) made tuples at the end,
and ``mana`` pays and untaps at the tapped cards' count it kept instead of reading every card:
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
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.record import decode_record
from kifu.domain.masters import events as ev
from kifu.domain.masters import mana
from kifu.domain.masters.evolve import evolve_run
from kifu.domain.masters.state import Mana
from kifu.tools import fold_check
from kifu.tools.bench_work import play, preset_pairs

from .scenario import RULESET as RULES

PAIRS = preset_pairs(RULES)
FOLD = record_evolve(RULES)
CORPUS = sorted((Path(__file__).parents[2] / "replays" / "masters").glob("*.kifu.jsonl"))


def one_by_one(start: Any, events: list[Any]) -> list[Any]:
    return fold_check.one_by_one(RULES, start, events)


def prepared(events: list[Any]) -> list[bytes]:
    """The prepared positions' states, encoded: a run must leave the events' own states as they are."""
    return [msgspec.json.encode(e.state) for e in events if hasattr(e, "state")]


def same(a: Any, b: Any) -> bool:
    return fold_check.same(RULES, a, b)


def tupled(state: Any) -> bool:
    """No run's list left in the state: every row of every side a tuple again."""
    return not any(isinstance(getattr(side, name), list) for side in state.sides for name in side.__struct_fields__)


def check_runs(match: Match, cuts: list[int]) -> None:
    events = [env.event for env in match.envelopes]
    start = RULES.decider.initial_state(match.header)
    positions, after = prepared(events), one_by_one(start, events)
    fold_check.check_runs(RULES, start, events, cuts, run=evolve_run, frozen=tupled)
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
    assert same(folded.state, match.state)
    assert all(type(row) is tuple for side in folded.state.sides for row in (side.deck, side.hand, side.grave,
                                                                            side.mana))


def test_a_run_that_makes_no_new_side_keeps_the_sides_themselves() -> None:
    """The initial state's sides are the field's default object, left out of its encoding: a run
    that changes no side must give them back, not an equal copy (which would be written out)."""
    match, _ = play(RULES, 3, PAIRS[0])
    events = [env.event for env in match.envelopes]
    start = RULES.decider.initial_state(match.header)
    untouched = [e for e in events if type(e) in (ev.CoinTossed, ev.PriorityPassed, ev.PhaseBegan)]
    for run in ([], untouched[:1], untouched):
        state = evolve_run(start, run, FOLD)
        assert state.sides is start.sides and same(state, one_by_one(start, run)[-1] if run else start)
    side_event = next(e for e in events if type(e) is ev.MasterPlaced)
    state = evolve_run(start, [side_event], FOLD)
    assert state.sides[2 - side_event.seat] is start.sides[2 - side_event.seat]
    assert same(state, FOLD(start, side_event))


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


@settings(max_examples=200, deadline=None)
@given(row=rows, todo=steps, seat=st.sampled_from([1, 2]))
def test_a_runs_mana_rows_change_as_the_tuples_do(row: tuple[Mana, ...], todo: list[Any], seat: int) -> None:
    """A run's ``LooseRow`` through the same steps: changed in place, equal to the tuple path's row
    after each; ``any_tapped`` says of both whether an untap changes the row (a new tuple)."""
    memo.clear_all()
    plain: mana.Rows = row
    loose: mana.Rows = mana.loose(seat, row)
    for step, arg in todo:
        before, was = plain, loose
        if step == "pay":
            amount = min(arg, sum(not m.tapped for m in plain))
            plain, loose = mana.paid(seat, plain, amount), mana.paid(seat, loose, amount)
            assert loose is was
        elif step == "untap":
            tapped = mana.any_tapped(seat, plain)
            assert mana.any_tapped(seat, loose) == tapped
            plain, loose = mana.untapped(seat, plain), mana.untapped(seat, loose)
            assert loose is was and (plain is not before) == tapped
        else:
            card = Mana(card=150 + len(plain), face_up=arg)
            plain, loose = mana.charged(seat, plain, card), mana.charged(seat, loose, card)
            assert loose is was
        assert type(loose) is mana.LooseRow and list(loose) == list(plain)
    assert mana.frozen(seat, loose) == plain


