"""Seat and judge tokens: random secrets handed out once, kept only as SHA-256 digests.

A token is 32 random bytes (``secrets.token_urlsafe``): guessing is hopeless, so a plain SHA-256
digest is enough (no slow KDF; a leaked table still yields no usable token). Digests live in a
small table of our own, ``kifu_tokens``, in the match store's database (an SQLite file or the
PostgreSQL schema), so any service process on that database can check them and a restart
loses nothing. Each process keeps the ones it has looked up for a moment (``KNOWN_FOR``): a
match's tokens change only when ``kifu viewer --reissue`` replaces them, and an old link must stop
working in a running service too. A reissue is noted in the same table (role ``reissued``: how
many times, and when last).

``role_of`` compares the presented token's digest with every role's digest of the match using
``hmac.compare_digest``, so the answer takes the same time whichever role (if any) matches.
Tokens are never logged, never put in URLs, never echoed back after creation.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from typing import Protocol

from kifu.store import StoreConfig
from kifu.store.sidetable import PostgresTable, SQLiteTable

TABLE = "kifu_tokens"
ROLES = ("seat1", "seat2", "judge")
CACHED = 4096
KNOWN_FOR = 2.0            # seconds a process trusts the digests it looked up (a reissue takes this long to bite)
NOTE = "reissued"          # the row that records a match's reissues ("2 times, last at 2026-…Z")
DDL_LOCK = 0x4B4946550005  # advisory lock key ("KIFU" 5) held while creating the table

Digests = dict[str, str]  # role -> hex digest


def new_token() -> str:
    return secrets.token_urlsafe(32)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_of(role: str) -> int | None:
    """``seat1`` -> 1, ``seat2`` -> 2, ``judge`` -> None (the judge sees everything)."""
    return None if role == "judge" else int(role.removeprefix("seat"))


class Backend(Protocol):
    def put(self, match_id: str, digests: Digests) -> None: ...
    def get(self, match_id: str) -> Digests: ...
    def close(self) -> None: ...


class TokenStore:
    """Issues tokens for a match and tells which role a presented token is (or None)."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._known: OrderedDict[str, tuple[float, Digests]] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def open(cls, config: StoreConfig) -> TokenStore:
        if config.backend == "sqlite":
            return cls(SQLiteTokens(config.env["SQLITE_DBNAME"], float(config.env.get("SQLITE_LOCK_TIMEOUT") or 5)))
        if config.backend == "postgres":
            return cls(PostgresTokens(config.env, config.where))
        return cls(MemoryTokens())

    def issue(self, match_id: str) -> dict[str, str]:
        """New tokens for every role of ``match_id``, stored (as digests) before they are returned."""
        tokens = {role: new_token() for role in ROLES}
        digests = {role: digest(token) for role, token in tokens.items()}
        self._backend.put(match_id, digests)
        self._keep(match_id, digests)
        return tokens

    def reissue(self, match_id: str, when: str) -> dict[str, str]:
        """New tokens for every role of ``match_id`` in place of the old ones (which stop working:
        in this process at once, in a running service within ``KNOWN_FOR``), the reissue noted."""
        times = int(self.reissued(match_id).split(" ", 1)[0] or 0) + 1
        tokens = {role: new_token() for role in ROLES}
        digests = {role: digest(token) for role, token in tokens.items()}
        self._backend.put(match_id, {**digests, NOTE: f"{times} {'time' if times == 1 else 'times'}, last at {when}"})
        self._keep(match_id, self._backend.get(match_id))
        return tokens

    def reissued(self, match_id: str) -> str:
        """The note of ``match_id``'s reissues ("2 times, last at …"), "" if never."""
        return self._digests(match_id).get(NOTE, "")

    def role_of(self, match_id: str, token: str) -> str | None:
        """The role ``token`` grants on ``match_id``, or None; constant time in the token."""
        digests = self._digests(match_id)
        presented = digest(token).encode()
        found = None
        for role in ROLES:  # every comparison runs, whichever matches
            if hmac.compare_digest(presented, digests.get(role, "").encode()):
                found = role
        return found

    def has_tokens(self, match_id: str) -> bool:
        """Whether tokens were ever issued for ``match_id`` (issued once; replaced only by ``reissue``)."""
        return bool(self._digests(match_id))

    def close(self) -> None:
        self._backend.close()

    def _digests(self, match_id: str) -> Digests:
        with self._lock:
            known = self._known.get(match_id)
        if known is not None and time.monotonic() - known[0] < KNOWN_FOR:
            return known[1]
        digests = self._backend.get(match_id)
        if digests:  # a match created by another process: remember it; an unknown id: ask again next time
            self._keep(match_id, digests)
        return digests

    def _keep(self, match_id: str, digests: Digests) -> None:
        with self._lock:
            self._known[match_id] = (time.monotonic(), digests)
            self._known.move_to_end(match_id)
            if len(self._known) > CACHED:
                self._known.popitem(last=False)


class MemoryTokens:
    def __init__(self) -> None:
        self._rows: dict[str, Digests] = {}

    def put(self, match_id: str, digests: Digests) -> None:
        self._rows.setdefault(match_id, {}).update(digests)

    def get(self, match_id: str) -> Digests:
        return dict(self._rows.get(match_id, {}))

    def close(self) -> None:
        self._rows.clear()


COLUMNS = "match_id TEXT NOT NULL, role TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (match_id, role)"


class SQLiteTokens(SQLiteTable):
    """The table beside the store's in the same SQLite file (WAL mode is already on)."""

    def __init__(self, db_name: str, lock_timeout: float) -> None:
        super().__init__(db_name, TABLE, COLUMNS, lock_timeout=lock_timeout, what="tokens")

    def put(self, match_id: str, digests: Digests) -> None:
        with self._immediate() as db:
            db.executemany(f"INSERT INTO {TABLE} (match_id, role, digest) VALUES (?, ?, ?) "
                           "ON CONFLICT (match_id, role) DO UPDATE SET digest = excluded.digest",   # a reissue
                           [(match_id, role, d) for role, d in digests.items()])

    def get(self, match_id: str) -> Digests:
        with self._guard() as db:
            rows = db.execute(f"SELECT role, digest FROM {TABLE} WHERE match_id = ?", (match_id,)).fetchall()
        return {role: d for role, d in rows}


class PostgresTokens(PostgresTable):
    """The table in the store's schema; one connection, reopened if the server dropped it."""

    def __init__(self, env: dict[str, str], where: str) -> None:
        from psycopg.sql import SQL

        super().__init__(env, where, TABLE, COLUMNS, ddl_lock=DDL_LOCK)
        self._insert = SQL("INSERT INTO {} (match_id, role, digest) VALUES (%s, %s, %s) "
                           "ON CONFLICT (match_id, role) DO UPDATE SET digest = excluded.digest").format(self._table)
        self._select = SQL("SELECT role, digest FROM {} WHERE match_id = %s").format(self._table)

    def put(self, match_id: str, digests: Digests) -> None:
        with self._guard() as conn, conn.transaction(), conn.cursor() as cur:
            cur.executemany(self._insert, [(match_id, role, d) for role, d in digests.items()])

    def get(self, match_id: str) -> Digests:
        with self._guard() as conn:
            rows = conn.execute(self._select, (match_id,)).fetchall()
        return {role: d for role, d in rows}
