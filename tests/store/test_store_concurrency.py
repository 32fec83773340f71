"""Several writers on one database: exactly one decision lands per seq; nothing lost or doubled.

Every writer is its own ``MatchStore`` (its own connections, as separate service processes
would have), on one SQLite file or one PostgreSQL schema.
"""
from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from kifu.domain.core.errors import Conflict, NotYourDecision
from kifu.domain.core.match import Match
from kifu.domain.core.record import first_broken_link
from kifu.store import MatchStore


def _race(writes: list[Callable[[], None]]) -> list[BaseException | None]:
    """Run the writes in threads released together; each one's exception, or None if it landed."""
    barrier = threading.Barrier(len(writes))
    results: list[BaseException | None] = [None] * len(writes)

    def run(i: int) -> None:
        barrier.wait()
        try:
            writes[i]()
        except BaseException as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(writes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_two_writers_racing_on_one_seq_exactly_one_lands(shared_db_url: str, open_store: Callable[[str], MatchStore],
                                                      make_match: Callable[..., Match], add: Any) -> None:
    one, two = open_store(shared_db_url), open_store(shared_db_url)
    match = make_match()
    one.create(match)
    mid = match.header.match_id
    for round_ in range(20):
        now = one.load(mid)
        seq, seat = now.seq, now.deciding
        assert seat is not None
        decided = [store.load(mid).decide(seat, add(n))[0] for store, n in ((one, 1), (two, 2))]
        results = _race([partial(one.append, mid, seq, decided[0]), partial(two.append, mid, seq, decided[1])])
        assert [r is None for r in results].count(True) == 1, (round_, results)
        winner = results.index(None)
        loser = results[1 - winner]
        assert isinstance(loser, Conflict) and (loser.expected, loser.actual) == (seq, seq + 2)
        assert one.events(mid, after_seq=seq) == two.events(mid, after_seq=seq) == decided[winner]
    final = two.load(mid)
    assert final.seq == 1 + 20 * 2
    assert first_broken_link(final.header, final.envelopes) is None


def _decide_until(store: MatchStore, mid: str, add: Any, wins: int) -> int:
    """Submit ``wins`` decisions, retrying each on Conflict; returns how many conflicts it met."""
    conflicts = 0
    while wins:
        match = store.load(mid)
        assert match.deciding is not None
        try:
            store.submit(mid, match.deciding, add(1), expected_seq=match.seq)
        except Conflict:
            conflicts += 1
            continue
        wins -= 1
    return conflicts


def _check_nothing_lost(store: MatchStore, mid: str, decisions: int) -> None:
    final = store.load(mid)
    assert final.state.total == decisions
    assert [env.seq for env in final.envelopes] == list(range(1, 2 + 2 * decisions))
    assert first_broken_link(final.header, final.envelopes) is None
    assert store.list_matches()[0].seq == final.seq


def test_many_writer_threads_lose_nothing(shared_db_url: str, open_store: Callable[[str], MatchStore],
                                          make_match: Callable[..., Match], add: Any) -> None:
    stores = [open_store(shared_db_url) for _ in range(4)]
    match = make_match()
    stores[0].create(match)
    mid = match.header.match_id
    errors: list[BaseException] = []

    def writer(store: MatchStore) -> None:
        try:
            _decide_until(store, mid, add, 15)
        except BaseException as exc:  # reported below, with its type
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    _check_nothing_lost(stores[1], mid, 4 * 15)


def _process_writer(url: str, mid: str, add: Any, wins: int, out: Any) -> None:
    """Runs in a forked child: the parent's modules and registry are there, its connections unused."""
    try:
        with MatchStore.open(url, environ={}) as store:
            out.put(("ok", _decide_until(store, mid, add, wins)))
    except BaseException as exc:
        out.put(("error", repr(exc)))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_writer_processes_lose_nothing(shared_db_url: str, open_store: Callable[[str], MatchStore],
                                       make_match: Callable[..., Match], add: Any) -> None:
    store = open_store(shared_db_url)
    match = make_match()
    store.create(match)
    mid = match.header.match_id
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    workers = [context.Process(target=_process_writer, args=(shared_db_url, mid, add, 10, out)) for _ in range(3)]
    for w in workers:
        w.start()
    results = [out.get(timeout=60) for _ in workers]
    for w in workers:
        w.join(timeout=10)
    assert [status for status, _ in results] == ["ok"] * 3, results
    _check_nothing_lost(store, mid, 3 * 10)


def test_stores_opening_one_new_database_at_once_all_work(shared_db_url: str,
                                                         open_store: Callable[[str], MatchStore]) -> None:
    """Service processes start together: creating the tables must not collide."""
    barrier = threading.Barrier(6)
    opened: list[Any] = []

    def opener() -> None:
        barrier.wait()
        try:
            opened.append(open_store(shared_db_url).list_matches())
        except BaseException as exc:
            opened.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert opened == [[]] * 6


def test_a_store_whose_cached_match_is_behind_decides_on_the_stored_state(
        shared_db_url: str, open_store: Callable[[str], MatchStore], make_match: Callable[..., Match],
        add: Any) -> None:
    """Decisions are made on the cached match without reading first: another process's
    decision makes that cache stale, and the stale store must still land a decision that is
    legal on the stored state, and refuse one that is not, without storing anything for it."""
    one, two = open_store(shared_db_url), open_store(shared_db_url)
    match = make_match()
    one.create(match)
    mid = match.header.match_id
    first = one.load(mid).deciding
    assert first is not None
    two.submit(mid, first, add(1))                       # two caches the match after its decision
    second = 1 - first
    one.submit(mid, second, add(2))                      # two's cache is now one decision behind
    landed = two.submit(mid, first, add(3))              # wrong seat on two's stale cache, right on the store
    assert landed[0].seat == first
    with pytest.raises(NotYourDecision):
        one.submit(mid, first, add(4))                   # legal on one's stale cache, not on the store
    final = one.load(mid)
    assert final.state.total == 1 + 2 + 3
    assert [env.seq for env in final.envelopes] == list(range(1, 2 + 2 * 3))
    assert first_broken_link(final.header, final.envelopes) is None
