"""A table of Kifu's own beside the event store's, in the same database: the connection, its lock,
the table's creation and the errors it may raise, once for every such table (the service's
tokens, the notes).

Each keeps one connection behind one lock (a few short statements a request), not the event
store's pool: SQLite serialises writers anyway, and on PostgreSQL the connection is reopened on
the next use when the server dropped it.
"""
from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .config import connect_params
from .errors import StoreError


class SQLiteTable:
    """The table in the store's SQLite file, made if missing (``columns``: its SQL column list)."""

    def __init__(self, db_name: str, name: str, columns: str, *, lock_timeout: float, what: str) -> None:
        self._where = f"SQLite database {db_name}"
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(db_name, uri=True, check_same_thread=False, isolation_level=None,
                                       timeout=lock_timeout)
            self._db.execute(f"CREATE TABLE IF NOT EXISTS {name} ({columns})")
        except sqlite3.Error as exc:
            raise StoreError(f"{self._where}: cannot keep {what} ({exc})") from exc

    @contextmanager
    def _guard(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise StoreError(f"{self._where}: {exc}") from exc

    @contextmanager
    def _immediate(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken before it reads (``BEGIN IMMEDIATE``): rolled back on any error."""
        with self._guard() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresTable:
    """The table in the store's schema, made if missing under the advisory lock ``ddl_lock`` (two
    processes starting at once); ``self._table`` names it, schema-qualified, for the statements.

    ``_passed``: psycopg errors a subclass handles itself (a lost race on a unique key), raised as
    they are instead of as a ``StoreError``."""

    _passed: tuple[type[BaseException], ...] = ()

    def __init__(self, env: dict[str, str], where: str, name: str, columns: str, *, ddl_lock: int) -> None:
        from psycopg.sql import SQL, Identifier

        self._where = where
        self._params: dict[str, Any] = connect_params(env)
        self._table = SQL("{}.{}").format(Identifier(env.get("POSTGRES_SCHEMA") or "public"), Identifier(name))
        self._lock = threading.Lock()
        self._conn: Any = None
        with self._guard() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (ddl_lock,))
            conn.execute(SQL("CREATE TABLE IF NOT EXISTS {} (" + columns + ")").format(self._table))

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
                self._conn = None  # reconnect on next use
                raise StoreError(f"{self._where} is unavailable: {exc}") from exc
            except self._passed:
                raise
            except psycopg.Error as exc:
                raise StoreError(f"{self._where}: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
