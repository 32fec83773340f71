"""SQLite recorder: eventsourcing's application recorder plus the match index, one transaction.

Writes to a file go through ``GroupCommit`` (one transaction and one fsync for the writes that
arrive together); reads use eventsourcing's connection pool, never waiting for a writer.

The index statement runs first in the write transaction, so the write lock is taken before
anything is read and a stale writer's compare-and-set finds no row (WAL readers never block).
"""
from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from contextlib import closing
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, OperationalError, StoredEvent
from eventsourcing.sqlite import (
    SQLiteApplicationRecorder,
    SQLiteCursor,
    SQLiteDatastore,
)

from .group_commit import sqlite_group
from .index import EVENTS_TABLE, MATCHES_TABLE, IndexRow, IndexWrite, conflict_message

ROWS_PER_INSERT = 100     # event rows per INSERT statement: 400 parameters, far below SQLite's limit


class KifuSQLiteRecorder(SQLiteApplicationRecorder):
    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = EVENTS_TABLE,
                 matches_table_name: str = MATCHES_TABLE) -> None:
        self.matches_table_name = matches_table_name  # read by construct_create_table_statements
        super().__init__(datastore, events_table_name)
        t = matches_table_name
        self._create_row = f"INSERT INTO {t} (match_id, ruleset, players, seq, outcome) VALUES (?,?,?,?,?)"
        self._advance_row = f"UPDATE {t} SET seq=?, outcome=COALESCE(?, outcome) WHERE match_id=? AND seq=?"
        self._select_row = f"SELECT match_id, ruleset, players, seq, outcome FROM {t} WHERE match_id=?"
        self._select_rows = f"SELECT match_id, ruleset, players, seq, outcome FROM {t} ORDER BY rowid"
        self._inserts = [f"INSERT INTO {events_table_name} VALUES " + ",".join(["(?,?,?,?)"] * n)
                         for n in range(ROWS_PER_INSERT + 1)]    # by row count
        pool = datastore.pool
        self._group = None if pool.is_sqlite_memory_mode else sqlite_group(
            pool.db_name, pool.lock_timeout or 5, self._write)

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if self._group is None:
            return super().insert_events(stored_events, **kwargs)
        self._group.write(stored_events, kwargs.get("index"))
        return None

    def close_writer(self) -> None:
        """Close the group-commit connection (eventsourcing's pool closes the others)."""
        if self._group is not None:
            self._group.close()

    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(),
                f"CREATE TABLE IF NOT EXISTS {self.matches_table_name} ("
                "match_id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, players TEXT NOT NULL, "
                "seq INTEGER NOT NULL, outcome TEXT)"]

    def create_table(self) -> None:
        """DDL in an IMMEDIATE transaction: stores opening a new file together wait their turn
        rather than fail to upgrade a read lock ("database is locked")."""
        with self.datastore.get_connection(commit=True) as conn:
            cursor = conn.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE")
                self._create_table(cursor)
                conn.commit()
            except sqlite3.Error as exc:
                conn.rollback()
                raise OperationalError(exc) from exc

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent],
                       **kwargs: Any) -> Sequence[int] | None:
        self._index_write(c, kwargs.get("index"))
        return super()._insert_events(c, stored_events, **kwargs)

    def _index_write(self, c: SQLiteCursor, index: IndexWrite | None) -> None:
        if index is not None:
            if index.expected is None:
                c.execute(self._create_row, (index.match_id, index.ruleset, index.players, index.seq, index.outcome))
            else:
                c.execute(self._advance_row, (index.seq, index.outcome, index.match_id, index.expected))
                if c.sqlite_cursor.rowcount != 1:
                    raise IntegrityError(conflict_message(index))

    def _write(self, cursor: sqlite3.Cursor, rows: Sequence[StoredEvent], index: IndexWrite | None) -> None:
        """One write of a group: the index row's compare-and-set, then the event rows in one
        ``INSERT`` (not one per row, as eventsourcing's recorder does). Under load each statement
        lets another thread take the interpreter lock while SQLite works, and taking it back is a
        context switch: a decision's ~4 events cost ~4 switches more than one statement does.
        Same rows, same order, so the same notification ids."""
        self._index_write(SQLiteCursor(cursor), index)
        for start in range(0, len(rows), ROWS_PER_INSERT):
            chunk = rows[start:start + ROWS_PER_INSERT]
            cursor.execute(self._inserts[len(chunk)], [value for row in chunk for value in _columns(row)])

    def select_index_row(self, match_id: str) -> IndexRow | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(self._select_row, (match_id,))
            row = c.fetchone()
        return None if row is None else IndexRow(*row)

    def select_index_rows(self) -> list[IndexRow]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(self._select_rows)
            return [IndexRow(*row) for row in c.fetchall()]


def _columns(row: StoredEvent) -> tuple[Any, ...]:
    """An event row's values in the events table's column order (as eventsourcing inserts them)."""
    key = row.originator_id
    return key.hex if isinstance(key, UUID) else key, row.originator_version, row.topic, row.state


def prepare_file(db_name: str, lock_timeout: float) -> None:
    """Switch a new database file to WAL before eventsourcing's pool connects.

    The pool does it on its first connection, but that switch needs the file to itself and
    fails at once, without waiting, when another process opens the new file at the same moment.
    """
    if ":memory:" in db_name or "mode=memory" in db_name:
        return
    deadline = time.monotonic() + lock_timeout
    while True:
        try:
            with closing(sqlite3.connect(db_name, uri=True, timeout=lock_timeout, isolation_level=None)) as db:
                if db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                    db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise OperationalError(exc) from exc
            time.sleep(0.005)
