"""Where the standings read model keeps its tables: the store's own database, beside its events.

``kifu.projections.standings`` folds and reports and knows no database; this module opens one
(SQLite or PostgreSQL, as the store is configured) and hands it the store's log.
"""
from __future__ import annotations

import sqlite3
from typing import Any

from kifu.projections.standings import Db, Standings

from .config import StoreConfig, connect_params
from .store import MatchStore


class SQLiteDb:
    lock_row = ""    # BEGIN IMMEDIATE took the writer lock already

    def __init__(self, path: str) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, timeout=30, uri=path.startswith("file:"))

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self.conn.execute(sql.replace("%s", "?"), params).fetchall()

    def begin(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")   # the writer lock first: a second catcher-up waits

    def commit(self) -> None:
        self.conn.execute("COMMIT")

    def rollback(self) -> None:
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    def close(self) -> None:
        self.conn.close()


class PostgresDb:
    lock_row = " FOR UPDATE"

    def __init__(self, env: dict[str, str]) -> None:
        import psycopg  # lazy: only a PostgreSQL store loads the driver (as kifu.store.store does)

        self.conn = psycopg.connect(**connect_params(env), autocommit=True)
        schema = env.get("POSTGRES_SCHEMA")
        if schema:
            self.conn.execute(f'SET search_path TO "{schema}"')

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        cursor = self.conn.execute(sql, params)
        return cursor.fetchall() if cursor.description else []

    def begin(self) -> None:
        self.conn.execute("BEGIN")

    def commit(self) -> None:
        self.conn.execute("COMMIT")

    def rollback(self) -> None:
        self.conn.execute("ROLLBACK")

    def close(self) -> None:
        self.conn.close()


def open_db(config: StoreConfig) -> Db:
    """The store's own database (its tables beside the store's); memory stores get a private one."""
    if config.backend == "postgres":
        return PostgresDb(config.env)
    return SQLiteDb(config.env["SQLITE_DBNAME"] if config.backend == "sqlite" else ":memory:")


def open_standings(store: MatchStore) -> Standings:
    """The standings of ``store``, kept in its database (a memory store's in a private one)."""
    return Standings(store, open_db(store.config))
