"""Live changes across processes on one PostgreSQL database: LISTEN/NOTIFY, no polling.

Every group commit (``kifu.store.postgres``: the ``kifu_append_batch`` function) sends one
notification on the store's live channel naming the matches it moved and their new seq,
``<match_id>:<seq>`` comma-separated (several notifications when that passes PostgreSQL's
8,000-byte payload limit). PostgreSQL delivers it when the transaction commits, so a listener
that is woken always finds the rows. ``changes`` listens on its own connection and yields
those (match id, seq) pairs; a service's live streams (``kifu.service.hub``) wake on them.

The channel is named from the schema and events table (hashed: a channel name is an identifier
of at most 63 bytes), so stores in other schemas of the same database never wake each other.
"""
from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from typing import Any

from .config import StoreConfig
from .errors import StoreError
from .index import EVENTS_TABLE

PAYLOAD_MAX = 7900      # bytes of one notification's payload (PostgreSQL refuses 8,000 and more)


def live_channel(schema: str, table: str = EVENTS_TABLE) -> str:
    """The channel a store's commits are announced on."""
    return "kifu_live_" + hashlib.blake2b(f"{schema or 'public'}.{table}".encode(), digest_size=8).hexdigest()


def channel_of(config: StoreConfig) -> str:
    return live_channel(config.env.get("POSTGRES_SCHEMA") or "public")


def parse(payload: str) -> list[tuple[str, int]]:
    """``id:seq,id:seq`` as pairs; a piece that is not one is skipped (a hint, never trusted)."""
    out = []
    for piece in payload.split(","):
        match_id, _, seq = piece.rpartition(":")
        if match_id and seq.isdigit():
            out.append((match_id, int(seq)))
    return out


class Listener:
    """One connection that LISTENs on a store's live channel. ``async with``, then iterate."""

    def __init__(self, config: StoreConfig) -> None:
        if config.backend != "postgres":
            raise StoreError(f"{config.where} has no LISTEN/NOTIFY: only PostgreSQL stores announce commits")
        self.config = config
        self.channel = channel_of(config)
        self._conn: Any = None

    async def __aenter__(self) -> Listener:
        import psycopg  # lazy, as everywhere in the store: only a PostgreSQL store loads the driver
        from psycopg.sql import SQL, Identifier

        env = self.config.env
        try:
            self._conn = await psycopg.AsyncConnection.connect(
                dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
                user=env["POSTGRES_USER"], password=env.get("POSTGRES_PASSWORD") or None, autocommit=True,
                connect_timeout=int(float(env.get("POSTGRES_CONNECT_TIMEOUT", "5"))))
            await self._conn.execute(SQL("LISTEN {}").format(Identifier(self.channel)))
        except psycopg.Error as exc:
            await self.close()
            raise StoreError(f"cannot listen on {self.config.where}: {str(exc).strip()}") from None
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await conn.close()

    async def changes(self) -> AsyncIterator[list[tuple[str, int]]]:
        """Each notification's (match id, seq) pairs, as they arrive; ``StoreError`` when the
        connection is lost (the caller reconnects, and re-reads what it follows)."""
        import psycopg

        if self._conn is None:
            raise StoreError("the listener is not connected")
        try:
            async for note in self._conn.notifies():
                yield parse(note.payload)
        except psycopg.Error as exc:
            raise StoreError(f"lost the listening connection to {self.config.where}: {str(exc).strip()}") from None
