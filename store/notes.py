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

import threading
from typing import Protocol

import msgspec

from kifu.domain.core.notes import Note

from .config import StoreConfig
from .errors import StoreError
from .sidetable import PostgresTable, SQLiteTable

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


COLUMNS = "match_id TEXT NOT NULL, number INTEGER NOT NULL, body TEXT NOT NULL, PRIMARY KEY (match_id, number)"


class SQLiteNotes(SQLiteTable):
    """The table in the store's SQLite file; ``BEGIN IMMEDIATE`` makes the number and the row one step."""

    def __init__(self, db_name: str, lock_timeout: float) -> None:
        super().__init__(db_name, TABLE, COLUMNS, lock_timeout=max(lock_timeout, 30), what="notes")

    def add(self, match_id: str, body: str) -> int:
        with self._immediate() as db:
            row = db.execute(f"INSERT INTO {TABLE} (match_id, number, body) "
                             f"SELECT ?, COALESCE(MAX(number), 0) + 1, ? FROM {TABLE} WHERE match_id = ? "
                             "RETURNING number",
                             (match_id, body, match_id)).fetchone()
        return int(row[0])

    def rows(self, match_id: str) -> list[tuple[int, str]]:
        with self._guard() as db:
            return [(int(n), str(b)) for n, b in
                    db.execute(f"SELECT number, body FROM {TABLE} WHERE match_id = ? ORDER BY number", (match_id,))]


class PostgresNotes(PostgresTable):
    """The table in the store's schema; a writer that lost the race for a number tries the next."""

    def __init__(self, env: dict[str, str], where: str) -> None:
        import psycopg
        from psycopg.sql import SQL

        self._passed = (psycopg.errors.UniqueViolation,)     # add() takes the next number
        super().__init__(env, where, TABLE, COLUMNS, ddl_lock=DDL_LOCK)
        self._insert = SQL("INSERT INTO {t} (match_id, number, body) SELECT %s, COALESCE(MAX(number), 0) + 1, %s "
                           "FROM {t} WHERE match_id = %s RETURNING number").format(t=self._table)
        self._select = SQL("SELECT number, body FROM {} WHERE match_id = %s ORDER BY number").format(self._table)

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
