"""Group commit: the appends that arrive together share one transaction and one log flush.

Every append used to be a transaction of its own, and its commit waits for the database's log
to reach the disk (an fsync: several milliseconds on this machine). Both backends serialise
appends while that happens — SQLite has one writer per file; on PostgreSQL eventsourcing's
table lock (notification ids in commit order) is held until the commit returns — so one store
was capped near 1/fsync appends/s however idle its CPU was (PostgreSQL: 29 sessions on
average waiting for that lock under ``kifu loadtest``).

Here the first writer to arrive becomes the leader: it takes every write queued so far, hands
them to the backend's ``commit`` (one transaction in which a write whose version check fails is
refused alone), then wakes the others. Writes that arrive during that commit queue for the next
one, and the first of them is woken to lead it. Durability is unchanged: no caller returns
before the commit that holds its rows has returned, and a failed commit fails every write in it.
No thread of its own: the callers' threads take turns leading.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, OperationalError, PersistenceError, StoredEvent

from .index import IndexWrite


class Pending:
    """One write waiting for its group: the backend's ``commit`` sets ``error`` to refuse it alone.

    ``wake`` is held from the start and released once, by a leader: when the write is done, or
    when it is this write's turn to lead the next group."""

    __slots__ = ("rows", "index", "done", "error", "wake")

    def __init__(self, rows: Sequence[StoredEvent], index: IndexWrite | None) -> None:
        self.rows = rows
        self.index = index
        self.done = False
        self.error: BaseException | None = None
        self.wake = threading.Lock()
        self.wake.acquire()


Commit = Callable[[list[Pending]], None]   # one transaction for the batch; raises if nothing was stored


class GroupCommit:
    """``write`` returns once its rows are committed (with whatever else was queued with them)."""

    def __init__(self, commit: Commit, close: Callable[[], None] = lambda: None) -> None:
        self._commit_batch = commit
        self._close = close
        self._lock = threading.Lock()
        self._turn = threading.Condition(self._lock)
        self._queue: list[Pending] = []
        self._leading = False
        self.commits = 0          # transactions committed (writes / commits = the group size)
        self.writes = 0

    def write(self, rows: Sequence[StoredEvent], index: IndexWrite | None) -> None:
        """Store ``rows`` (and move the index row) in the next group; raises what that write raised."""
        mine = Pending(rows, index)
        with self._lock:
            self._queue.append(mine)
            lead = not self._leading
            if lead:
                batch, self._queue, self._leading = self._queue, [], True
        if not lead:
            mine.wake.acquire()        # done, or handed the lead: woken alone, not with every waiter
            if not mine.done:
                with self._lock:
                    batch, self._queue = self._queue, []   # ours is first in it
        if not mine.done:
            try:
                self._commit(batch)
            finally:
                self._hand_over(batch, mine)
        if mine.error is not None:
            raise mine.error

    def _hand_over(self, batch: list[Pending], mine: Pending) -> None:
        """Wake the writers of ``batch`` and, if writes queued meanwhile, the first of them to lead.

        One wake-up per writer: ``notify_all`` on one condition woke every waiting thread at each
        commit, those queued for the next group too, to fight for that condition's lock and then
        the interpreter lock, and all but one went back to sleep. Under ``kifu loadtest`` (SQLite,
        50 matches at 520/s) the service's context switches per decision fell from 22.6 to 19.1
        (three interleaved runs each)."""
        with self._lock:
            following = self._queue[0] if self._queue else None
            if following is None:
                self._leading = False
                self._turn.notify_all()    # only ``close`` waits on it
        for pending in batch:
            if pending is not mine:
                pending.wake.release()
        if following is not None:
            following.wake.release()

    def close(self) -> None:
        with self._lock:
            while self._leading:       # never close the connection under a commit
                self._turn.wait()
            self._close()

    def _commit(self, batch: list[Pending]) -> None:
        try:
            self._commit_batch(batch)
            self.commits += 1
            self.writes += len(batch)
        except BaseException as exc:
            for pending in batch:          # nothing of this group is stored: every write in it fails
                if pending.error is None:  # a failed version check stays a conflict
                    pending.error = _persistence_error(exc)
        finally:
            for pending in batch:
                pending.done = True


Write = Callable[[Any, Sequence[StoredEvent], IndexWrite | None], None]   # (cursor, rows, index) in a transaction


def sqlite_group(db_name: str, lock_timeout: float, write: Write) -> GroupCommit:
    """Group commit on its own connection to an SQLite file (WAL, ``synchronous=FULL`` kept):
    each write in a savepoint of one ``BEGIN IMMEDIATE`` transaction."""
    db = sqlite3.connect(db_name, uri=True, check_same_thread=False, isolation_level=None, timeout=lock_timeout)

    def commit(batch: list[Pending]) -> None:
        cursor = db.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
            for pending in batch:
                cursor.execute("SAVEPOINT one_write")
                try:
                    write(cursor, pending.rows, pending.index)
                except (IntegrityError, sqlite3.IntegrityError) as exc:   # a version check: this write only
                    cursor.execute("ROLLBACK TO one_write")
                    pending.error = exc if isinstance(exc, IntegrityError) else IntegrityError(exc)
                cursor.execute("RELEASE one_write")
            cursor.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                try:
                    db.rollback()
                except sqlite3.Error:
                    pass
            raise
        finally:
            cursor.close()

    return GroupCommit(commit, db.close)


def _persistence_error(exc: BaseException) -> BaseException:
    """A fresh error per waiting write (one exception object raised in many threads would share
    its traceback), as eventsourcing's own transactions would have raised it."""
    if not isinstance(exc, Exception):
        return exc
    if isinstance(exc, sqlite3.OperationalError):
        return OperationalError(exc)
    if isinstance(exc, PersistenceError):
        return type(exc)(*exc.args)
    if isinstance(exc, sqlite3.Error):
        return PersistenceError(exc)
    return PersistenceError(f"the group commit failed: {exc!r}")
