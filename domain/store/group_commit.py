"""Group commit for SQLite: the appends that arrive together share one transaction and one fsync.

SQLite has one writer per file, and in WAL mode with ``synchronous=FULL`` (the default kept
here) every commit waits for an fsync of the log — several milliseconds on this machine's disk,
so one commit per decision capped a service near 1/fsync decisions/s however idle its CPU was.
Here the first writer to arrive becomes the leader: it takes every write queued so far, runs
each in a savepoint of one ``BEGIN IMMEDIATE`` transaction (a write whose version check fails is
rolled back alone and gets its own error), commits once, then wakes the others. Writes that
arrive during that commit queue for the next one. Durability is unchanged: no caller returns
before the commit that holds its rows has returned, and a failed commit fails every write in it.
No thread of its own: the callers' threads take turns leading.
"""
from __future__ import annotations

import sqlite3
import threading
from typing import Any, Callable, Sequence

from eventsourcing.persistence import IntegrityError, OperationalError, PersistenceError, StoredEvent

from .index import IndexWrite

Write = Callable[[Any, Sequence[StoredEvent], IndexWrite | None], None]   # (cursor, rows, index) inside a transaction


class _Pending:
    __slots__ = ("rows", "index", "done", "error")

    def __init__(self, rows: Sequence[StoredEvent], index: IndexWrite | None) -> None:
        self.rows = rows
        self.index = index
        self.done = False
        self.error: BaseException | None = None


class GroupCommit:
    """One write connection to an SQLite file; ``write`` returns once its rows are committed."""

    def __init__(self, db_name: str, lock_timeout: float, write: Write) -> None:
        self._db = sqlite3.connect(db_name, uri=True, check_same_thread=False, isolation_level=None,
                                   timeout=lock_timeout)
        self._write = write
        self._lock = threading.Lock()
        self._turn = threading.Condition(self._lock)
        self._queue: list[_Pending] = []
        self._leading = False
        self.commits = 0          # transactions committed (writes / commits = the group size)
        self.writes = 0

    def write(self, rows: Sequence[StoredEvent], index: IndexWrite | None) -> None:
        """Store ``rows`` (and move the index row) in the next group; raises what that write raised."""
        mine = _Pending(rows, index)
        with self._lock:
            self._queue.append(mine)
            while self._leading and not mine.done:
                self._turn.wait()
            if not mine.done:      # nobody is committing and ours is still queued: lead this group
                batch, self._queue, self._leading = self._queue, [], True
        if not mine.done:
            try:
                self._commit(batch)
            finally:
                with self._lock:
                    self._leading = False
                    self._turn.notify_all()
        if mine.error is not None:
            raise mine.error

    def close(self) -> None:
        with self._lock:
            while self._leading:       # never close the connection under a commit
                self._turn.wait()
            self._db.close()

    def _commit(self, batch: list[_Pending]) -> None:
        cursor = self._db.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
            for pending in batch:
                cursor.execute("SAVEPOINT one_write")
                try:
                    self._write(cursor, pending.rows, pending.index)
                except (IntegrityError, sqlite3.IntegrityError) as exc:   # a version check: this write only
                    cursor.execute("ROLLBACK TO one_write")
                    pending.error = exc if isinstance(exc, IntegrityError) else IntegrityError(exc)
                cursor.execute("RELEASE one_write")
            cursor.execute("COMMIT")
            self.commits += 1
            self.writes += len(batch)
        except BaseException as exc:
            if self._db.in_transaction:
                try:
                    self._db.rollback()
                except sqlite3.Error:
                    pass
            for pending in batch:          # nothing of this group is stored: every write in it fails
                if pending.error is None:   # a failed version check stays a conflict
                    pending.error = _persistence_error(exc)
        finally:
            cursor.close()
            for pending in batch:
                pending.done = True


def _persistence_error(exc: BaseException) -> BaseException:
    """A fresh error per waiting write (one exception object raised in many threads would share
    its traceback), as eventsourcing's own transactions would have raised it."""
    if not isinstance(exc, Exception):
        return exc
    if isinstance(exc, sqlite3.OperationalError):
        return OperationalError(exc)
    if isinstance(exc, (sqlite3.Error, PersistenceError)):
        return PersistenceError(exc)
    return PersistenceError(f"the group commit failed: {exc!r}")
