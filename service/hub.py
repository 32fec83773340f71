"""Wakes live streams when their match has new events, whichever process stored them.

A decision taken in this process pokes the hub at once. Decisions taken by other service
processes on the same database are seen by polling the store's notification log (one query per
``interval`` for the whole process, not one per stream), only while some stream is open.
Wake-ups are hints: a stream always re-reads the store after waking, and also every
``heartbeat`` seconds, so a missed notification delays an event but never loses it.
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict

import anyio.to_thread

from kifu.domain.core.errors import KifuError
from kifu.store import MatchStore

log = logging.getLogger("kifu.service")

POLL_INTERVAL = 0.1
BATCH = 1000


class Hub:
    def __init__(self, store: MatchStore, *, interval: float = POLL_INTERVAL) -> None:
        self.store = store
        self.interval = interval
        self._waiters: dict[str, set[asyncio.Event]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._position = 0

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    def subscribe(self, match_id: str) -> asyncio.Event:
        """An event set whenever ``match_id`` may have changed; ``unsubscribe`` it when done."""
        event = asyncio.Event()
        self._waiters[match_id].add(event)
        if self._task is None or self._task.done():
            self._loop = asyncio.get_running_loop()
            self._task = self._loop.create_task(self._poll(), name="kifu-hub")
        return event

    def unsubscribe(self, match_id: str, event: asyncio.Event) -> None:
        waiters = self._waiters.get(match_id)
        if waiters is not None:
            waiters.discard(event)
            if not waiters:
                del self._waiters[match_id]

    def poke(self, match_id: str) -> None:
        """Thread-safe: called by request handlers (in worker threads) after they stored events."""
        loop = self._loop
        if loop is not None and match_id in self._waiters:
            try:
                loop.call_soon_threadsafe(self._wake, match_id)
            except RuntimeError:  # the loop is closed: nobody is listening any more
                pass

    def _wake(self, match_id: str) -> None:
        for event in self._waiters.get(match_id, ()):
            event.set()

    async def _poll(self) -> None:
        """Follows the notification log while anyone listens; stops when the last stream ends."""
        store = self.store
        try:
            self._position = await anyio.to_thread.run_sync(store.last_notification_id)
        except KifuError as exc:
            log.warning("live streams cannot follow other processes: %s", exc)
            return
        while self._waiters:
            await asyncio.sleep(self.interval)
            try:
                notices = await anyio.to_thread.run_sync(store.notifications, self._position + 1, BATCH)
            except KifuError as exc:  # the database blinked: streams still re-read on heartbeat
                log.warning("notification log unavailable: %s", exc)
                continue
            for notice in notices:
                self._wake(notice.match_id)
            if notices:
                self._position = notices[-1].id
