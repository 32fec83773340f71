"""Wakes live streams when their match has new events, whichever process stored them.

A decision taken in this process pokes the hub at once. Decisions taken by other service
processes (other hosts) on the same database arrive:

- on PostgreSQL, by LISTEN/NOTIFY (``kifu.store.live``): every commit names the matches it moved
  and their new seq, and one connection per process listens; nothing polls. While that
  connection is down the hub reconnects (backing off), then wakes every stream, which re-reads;
- on SQLite, by polling the store's notification log (one query per ``interval`` for the whole
  process, not one per stream), only while some stream is open.

Wake-ups are hints: a stream always re-reads the store after waking, and also every
``heartbeat`` seconds, so a missed notification delays an event but never loses it. A stream
says which seq it has read (``Wake.seen``), so a notification of what it already has (its own
process's decision, announced back to it) wakes nobody.
"""
from __future__ import annotations

import asyncio
import logging
from collections import defaultdict

import anyio.to_thread

from kifu.domain.core.errors import KifuError
from kifu.store import MatchStore
from kifu.store.live import Listener

log = logging.getLogger("kifu.service")

POLL_INTERVAL = 0.1
BATCH = 1000
RECONNECT = (0.05, 5.0)     # seconds: the first wait before listening again, and the longest
READY_WAIT = 2.0            # seconds a new stream waits for the listener before reading anyway


class Wake(asyncio.Event):
    """Set when the match may have moved past ``seen``, the seq its stream has read."""

    seen: int = -1


class Hub:
    def __init__(self, store: MatchStore, *, interval: float = POLL_INTERVAL) -> None:
        self.store = store
        self.interval = interval
        self.listens = store.config.backend == "postgres"   # else: poll the notification log
        self._waiters: dict[str, set[Wake]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._position = 0
        self._listening = asyncio.Event()
        self.polls = 0              # notification-log reads (SQLite); stays 0 on PostgreSQL
        self.notices = 0            # notifications received (PostgreSQL)

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if self.listens:
            self._listening = asyncio.Event()
            self._task = self._loop.create_task(self._listen(), name="kifu-hub-listen")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    async def ready(self) -> None:
        """Before a stream's first read: on PostgreSQL, until the process listens (a commit
        between that read and the LISTEN would otherwise wait for the heartbeat)."""
        if self.listens and not self._listening.is_set():
            try:
                await asyncio.wait_for(self._listening.wait(), READY_WAIT)
            except TimeoutError:
                log.warning("live streams are not listening yet; this stream re-reads on its heartbeat")

    def subscribe(self, match_id: str) -> Wake:
        """An event set whenever ``match_id`` may have changed; ``unsubscribe`` it when done."""
        event = Wake()
        self._waiters[match_id].add(event)
        if self.listens:
            if self._task is None or self._task.done():      # (an app whose startup did not run: tests)
                self._loop = asyncio.get_running_loop()
                self._task = self._loop.create_task(self._listen(), name="kifu-hub-listen")
        elif self._task is None or self._task.done():
            self._loop = asyncio.get_running_loop()
            self._task = self._loop.create_task(self._poll(), name="kifu-hub")
        return event

    def unsubscribe(self, match_id: str, event: Wake) -> None:
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

    def _wake(self, match_id: str, seq: int | None = None) -> None:
        for event in self._waiters.get(match_id, ()):
            if seq is None or seq > event.seen:
                event.set()

    def _wake_all(self) -> None:
        for events in self._waiters.values():
            for event in events:
                event.set()

    async def _listen(self) -> None:
        """LISTEN for the whole life of the process; reconnect after a loss, then wake everyone."""
        pause = RECONNECT[0]
        while True:
            try:
                async with Listener(self.store.config) as listener:
                    self._listening.set()
                    self._wake_all()          # whatever moved while not listening is read now
                    pause = RECONNECT[0]
                    async for changes in listener.changes():
                        self.notices += 1
                        for match_id, seq in changes:
                            self._wake(match_id, seq)
            except KifuError as exc:
                log.warning("live streams cannot hear other processes (retrying in %.2fs): %s", pause, exc)
            self._listening.clear()
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT[1])

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
            self.polls += 1
            try:
                notices = await anyio.to_thread.run_sync(store.notifications, self._position + 1, BATCH)
            except KifuError as exc:  # the database blinked: streams still re-read on heartbeat
                log.warning("notification log unavailable: %s", exc)
                continue
            for notice in notices:
                self._wake(notice.match_id)
            if notices:
                self._position = notices[-1].id
