"""Where notes live: an append-only stream per match, the ``kifu_notes`` table beside the store's.

Notes are kept apart from the match's events (``kifu.domain.core.notes``): adding one never
touches the events, their chain, the match index or the notification log the read models pull.
Each note gets the next number of its match in the insert itself (``MAX(number) + 1`` over the
match's rows), and the primary key (match, number) refuses a second writer that computed the
same number: it retries with the next one, so writers racing on one match lose no note
(SQLite serialises them with ``BEGIN IMMEDIATE``; PostgreSQL's unique key catches the race).
Rows are never updated or deleted.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import msgspec

from kifu.domain.core.notes import Note

from .config import StoreConfig, connect_params
from .errors import StoreError

TABLE = "kifu_notes"
DDL_LOCK = 0x4B4946550007  # advisory lock key ("KIFU" 7) held while creating the table
ATTEMPTS = 50              # numbers tried by one writer that keeps losing races (PostgreSQL)

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Note)


def _body(note: Note) -> str:
    return _encoder.encode(msgspec.structs.replace(note, number=0)).decode()


def _note(number: int, body: str | bytes) -> Note:
    return msgspec.structs.replace(_decoder.decode(body), number=number)


class Backend(Protocol):
    def add(self, match_id: str, body: str) -> int: ...
    def rows(self, match_id: str) -> list[tuple[int, str]]: ...
    def close(self) -> None: ...


class NoteStore:
    """The notes of every match of one database."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    @classmethod
    def open(cls, config: StoreConfig) -> NoteStore:
        if config.backend == "sqlite":
            return cls(SQLiteNotes(config.env["SQLITE_DBNAME"], float(config.env.get("SQLITE_LOCK_TIMEOUT") or 5)))
        if config.backend == "postgres":
            return cls(PostgresNotes(config.env, config.where))
        return cls(MemoryNotes())

    def add(self, note: Note) -> Note:
        """Store ``note`` as the next of its match; returns it with its number."""
        return msgspec.structs.replace(note, number=self._backend.add(note.match_id, _body(note)))

    def notes(self, match_id: str) -> list[Note]:
        """The match's notes in the order they were added (by number)."""
        return [_note(number, body) for number, body in self._backend.rows(match_id)]

    def close(self) -> None:
        self._backend.close()

    def __enter__(self) -> NoteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MemoryNotes:
    def __init__(self) -> None:
        self._rows: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def add(self, match_id: str, body: str) -> int:
        with self._lock:
            rows = self._rows.setdefault(match_id, [])
            rows.append(body)
            return len(rows)

    def rows(self, match_id: str) -> list[tuple[int, str]]:
        with self._lock:
            return list(enumerate(self._rows.get(match_id, []), start=1))

    def close(self) -> None:
        pass


class SQLiteNotes:
    """The table in the store's SQLite file; ``BEGIN IMMEDIATE`` makes the number and the row one step."""

    def __init__(self, db_name: str, lock_timeout: float) -> None:
        self._where = f"SQLite database {db_name}"
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(db_name, uri=True, check_same_thread=False, isolation_level=None,
                                       timeout=max(lock_timeout, 30))
            self._db.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (match_id TEXT NOT NULL, number INTEGER NOT NULL, "
                             "body TEXT NOT NULL, PRIMARY KEY (match_id, number))")
        except sqlite3.Error as exc:
            raise StoreError(f"{self._where}: cannot keep notes ({exc})") from exc

    @contextmanager
    def _guard(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise StoreError(f"{self._where}: {exc}") from exc

    def add(self, match_id: str, body: str) -> int:
        with self._guard() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute(f"INSERT INTO {TABLE} (match_id, number, body) "
                                 f"SELECT ?, COALESCE(MAX(number), 0) + 1, ? FROM {TABLE} WHERE match_id = ? "
                                 "RETURNING number",
                                 (match_id, body, match_id)).fetchone()
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return int(row[0])

    def rows(self, match_id: str) -> list[tuple[int, str]]:
        with self._guard() as db:
            return [(int(n), str(b)) for n, b in
                    db.execute(f"SELECT number, body FROM {TABLE} WHERE match_id = ? ORDER BY number", (match_id,))]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresNotes:
    """The table in the store's schema; one connection (autocommit), reopened if the server dropped it."""

    def __init__(self, env: dict[str, str], where: str) -> None:
        from psycopg.sql import SQL, Identifier

        self._where = where
        self._params: dict[str, Any] = connect_params(env)
        table = SQL("{}.{}").format(Identifier(env.get("POSTGRES_SCHEMA") or "public"), Identifier(TABLE))
        self._create = SQL("CREATE TABLE IF NOT EXISTS {} (match_id text NOT NULL, number integer NOT NULL, "
                           "body text NOT NULL, PRIMARY KEY (match_id, number))").format(table)
        self._insert = SQL("INSERT INTO {t} (match_id, number, body) SELECT %s, COALESCE(MAX(number), 0) + 1, %s "
                           "FROM {t} WHERE match_id = %s RETURNING number").format(t=table)
        self._select = SQL("SELECT number, body FROM {} WHERE match_id = %s ORDER BY number").format(table)
        self._lock = threading.Lock()
        self._conn: Any = None
        with self._guard() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (DDL_LOCK,))
            conn.execute(self._create)

    @contextmanager
    def _guard(self) -> Iterator[Any]:
        import psycopg

        with self._lock:
            try:
                if self._conn is None or self._conn.closed:
                    self._conn = psycopg.connect(autocommit=True, **self._params)
                yield self._conn
            except psycopg.OperationalError as exc:
                if self._conn is not None:
                    self._conn.close()
                self._conn = None
                raise StoreError(f"{self._where} is unavailable: {exc}") from exc
            except psycopg.errors.UniqueViolation:
                raise
            except psycopg.Error as exc:
                raise StoreError(f"{self._where}: {exc}") from exc

    def add(self, match_id: str, body: str) -> int:
        import psycopg

        for _ in range(ATTEMPTS):
            try:
                with self._guard() as conn:
                    row = conn.execute(self._insert, (match_id, body, match_id)).fetchone()
                return int(row[0])
            except psycopg.errors.UniqueViolation:
                continue       # another writer took this number first: the next one
        raise StoreError(f"{self._where}: a note of match {match_id} lost {ATTEMPTS} races for its number")

    def rows(self, match_id: str) -> list[tuple[int, str]]:
        with self._guard() as conn:
            return [(int(n), str(b)) for n, b in conn.execute(self._select, (match_id,)).fetchall()]

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
