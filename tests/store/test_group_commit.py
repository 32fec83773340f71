"""SQLite group commit: writes that share a transaction keep their own outcomes; nothing is
acknowledged that is not committed; many concurrent deciders lose and double nothing."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from eventsourcing.persistence import IntegrityError, OperationalError

from kifu.domain.core.errors import Conflict
from kifu.domain.core.match import Match
from kifu.store import MatchStore
from kifu.store.group_commit import GroupCommit, Pending, sqlite_group


def _rows(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as conn:
        return sorted(conn.execute("SELECT name, n FROM t").fetchall())


def _group(db: Path, lock_timeout: float = 5) -> GroupCommit:
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (name TEXT PRIMARY KEY, n INTEGER)")

    def write(cursor: Any, rows: Any, index: Any) -> None:
        for name, n in rows:
            cursor.execute("INSERT INTO t VALUES (?, ?)", (name, n))

    return sqlite_group(str(db), lock_timeout, write)


def test_a_failed_write_in_a_group_is_rolled_back_alone(tmp_path: Path) -> None:
    group = _group(tmp_path / "g.db")
    batch = [Pending([("a", 1)], None), Pending([("b", 1), ("a", 2)], None), Pending([("c", 1)], None)]
    group._commit(batch)       # one transaction: the second write's duplicate key fails it alone
    group.close()
    assert [p.done for p in batch] == [True, True, True]
    assert batch[0].error is None and batch[2].error is None
    assert isinstance(batch[1].error, IntegrityError)
    assert _rows(tmp_path / "g.db") == [("a", 1), ("c", 1)]     # nothing of the failed write ("b") stored


def test_when_the_transaction_fails_every_write_in_it_fails_and_nothing_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    group = _group(db, lock_timeout=0.05)
    batch = [Pending([("a", 1)], None), Pending([("b", 1)], None)]
    blocker = sqlite3.connect(db, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")   # another writer holds the file: BEGIN IMMEDIATE times out
    group._commit(batch)
    blocker.execute("ROLLBACK")
    blocker.close()
    group.close()
    assert all(isinstance(p.error, OperationalError) for p in batch)
    assert batch[0].error is not batch[1].error      # each waiting writer raises its own exception
    assert _rows(db) == []


def test_concurrent_writes_all_land_once(tmp_path: Path) -> None:
    group = _group(tmp_path / "g.db")
    errors: list[BaseException] = []

    def writer(i: int) -> None:
        try:
            for k in range(20):
                group.write([(f"{i}-{k}", k)], None)
        except BaseException as exc:
            errors.append(exc)

    with ThreadPoolExecutor(12) as pool:
        list(pool.map(writer, range(12)))
    group.close()
    assert errors == []
    assert len(_rows(tmp_path / "g.db")) == 12 * 20 and group.writes == 12 * 20


def test_many_matches_decided_at_once_through_one_store_lose_and_double_nothing(
        shared_db_url: str, open_store: Callable[[str], MatchStore], make_match: Callable[..., Match],
        add: Any) -> None:
    url = shared_db_url            # SQLite's group commit, and PostgreSQL's batch function
    store = open_store(url)
    matches = [make_match() for _ in range(10)]
    for match in matches:
        store.create(match)
    stale: list[BaseException] = []
    errors: list[BaseException] = []

    def play(match: Match) -> None:
        mid = match.header.match_id
        try:
            for _ in range(12):
                now = store.load(mid)
                assert now.deciding is not None
                envelopes, _ = now.decide(now.deciding, add(1))
                store.append(mid, now.seq, envelopes)
                try:                        # the same append again: stale, rolled back alone
                    store.append(mid, now.seq, envelopes)
                except Conflict as exc:
                    stale.append(exc)
        except BaseException as exc:
            errors.append(exc)

    with ThreadPoolExecutor(len(matches)) as pool:
        list(pool.map(play, matches))
    assert errors == [] and len(stale) == 10 * 12
    reread = open_store(url)
    for match in matches:
        stored = reread.load(match.header.match_id)
        assert stored.state.total == 12 and stored.seq == match.seq + 12 * 2   # Added + Passed per decision


def test_writes_queued_during_a_commit_form_the_next_group_led_by_the_first_of_them() -> None:
    """The leader wakes its own group's writers and hands the lead to the first queued write
    (not every waiting thread at once); that write commits all the queued ones together."""
    import threading
    import time

    first_commit_started, release_first = threading.Event(), threading.Event()
    groups: list[list[str]] = []

    def commit(batch: list[Pending]) -> None:
        groups.append([rows[0] for rows in (p.rows for p in batch)])   # type: ignore[misc]
        if len(groups) == 1:
            first_commit_started.set()
            release_first.wait(5)

    group = GroupCommit(commit)
    with ThreadPoolExecutor(4) as pool:
        leader = pool.submit(group.write, ["a"], None)
        assert first_commit_started.wait(5)
        queued = [pool.submit(group.write, [name], None) for name in ("b", "c", "d")]
        deadline = time.monotonic() + 5
        while len(group._queue) < 3 and time.monotonic() < deadline:
            time.sleep(0.005)
        release_first.set()
        for future in [leader, *queued]:
            future.result(timeout=5)
    assert groups[0] == ["a"] and sorted(groups[1]) == ["b", "c", "d"] and len(groups) == 2
    assert group.commits == 2 and group.writes == 4
    assert not group._leading       # the last leader let go: close() does not wait
    group.close()


def test_a_write_split_over_several_inserts_keeps_its_rows_in_seq_order(
        tmp_path: Path, open_store: Callable[[str], MatchStore], make_match: Callable[..., Match], add: Any,
        monkeypatch: Any) -> None:
    """SQLite stores a write's event rows with one multi-row INSERT per ROWS_PER_INSERT rows;
    their notification ids follow seq, as one INSERT per row gave them."""
    import kifu.store.sqlite as sqlite_recorder

    monkeypatch.setattr(sqlite_recorder, "ROWS_PER_INSERT", 1)     # each decision's two events: two INSERTs
    url = str(tmp_path / "kifu.db")
    store = open_store(url)
    match = make_match()
    store.create(match)
    now = store.load(match.header.match_id)
    for _ in range(4):
        envelopes, _ = now.decide(now.deciding, add(1))
        store.append(now.header.match_id, now.seq, envelopes)
        now = store.load(now.header.match_id)
    notices = store.notifications(1, 100)
    assert [n.seq for n in notices] == list(range(0, now.seq + 1))
    assert [n.id for n in notices] == sorted(n.id for n in notices)
    assert open_store(url).load(now.header.match_id).state == now.state
