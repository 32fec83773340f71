"""One load process's share of ``kifu loadtest``: its matches played by its threads, timed.

Each worker thread takes the next match of the share: creates it, then plays both seats with
the ruleset's random bot until it ends. Two ways to send decisions:

- closed loop (``rate`` None): each thread sends its next decision as soon as the last one was
  answered. With C matches in flight this measures saturation throughput, and by Little's law
  a decision's latency is then C / throughput (50 matches at 500/s: 100 ms) — it says how much
  the service can take, not how fast it answers at a given load;
- open loop (``rate`` R decisions/s over all ``concurrency`` matches): each match sends a
  decision every ``concurrency / R`` seconds on a fixed schedule (matches staggered evenly),
  and a decision's latency runs from its *scheduled* send time, as wrk2 measures it: when the
  service falls behind, the waiting it causes is counted, not hidden (coordinated omission).

With ``watch`` (another service host on the same database: ``kifu loadtest --cross-host``) each
match is also followed there, on its live stream with the judge token, from before its first
decision: the time from a decision's send to host A until host B's stream delivers it is the
cross-host latency (and from A's answer, too: B may deliver before A's answer is read).
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec

from kifu.domain.core.driver import DecisionLimit, drive
from kifu.domain.core.errors import KifuError
from kifu.domain.core.ruleset import find_ruleset

from .keepalive import KeepAliveClient
from .player import RemoteTable


class MatchRun(msgspec.Struct, kw_only=True):
    match_id: str = ""
    seed: int = 0
    decisions: int = 0
    finished: bool = False
    error: str | None = None
    audit: str = "not audited"   # clean | diverged: … | unreadable: … | lost or doubled: …


class Share(msgspec.Struct, kw_only=True):
    """What one load process measured (raw samples, so percentiles can be taken over all of them)."""

    runs: list[MatchRun]
    judges: dict[str, str]          # match id -> judge token, for the audit; never reported
    latencies: list[float]          # seconds: the round trip (closed) or from the scheduled send (open)
    round_trips: list[float]        # seconds: a decision's POST alone
    views: list[float]              # seconds: a view's GET
    conflicts: int
    started: float                  # time.monotonic() (system-wide on Linux: comparable across processes)
    ended: float
    cpu: float                      # this process's CPU seconds while playing
    cross: list[float] = []         # seconds from a decision's send to host A until host B streamed it
    cross_after: list[float] = []   # seconds from host A's answer until host B streamed it (may be < 0)
    missed: int = 0                 # decisions host B's stream never delivered


WATCH_READY = 10.0    # seconds a watcher may take to open its stream on host B
WATCH_DRAIN = 5.0     # seconds host B's stream gets to deliver the last decisions after play stops


class Watcher:
    """One match followed on another host's live stream (a thread), noting when each seq arrives."""

    def __init__(self, server: str, match_id: str, token: str, after: int) -> None:
        from .client import KifuClient

        self.client = KifuClient(server, token)
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.error: str | None = None
        self._moved = threading.Condition()
        self._thread = threading.Thread(target=self._run, args=(match_id, after), name="kifu-watch", daemon=True)
        self._thread.start()
        if not self.ready.wait(WATCH_READY):
            self.stop()
            raise KifuError(f"the stream on {server} did not open in {WATCH_READY:g}s")

    def _run(self, match_id: str, after: int) -> None:
        try:
            for message in self.client.stream(match_id, after=after):
                now = time.monotonic()
                if message.event == "envelope" and message.id is not None:
                    with self._moved:
                        self.arrived.setdefault(int(message.id), now)
                        self._moved.notify_all()
                elif message.event == "status":
                    self.ready.set()
                elif message.event == "end":
                    break
        except Exception as exc:   # the stream closed under it (stop) or the host failed: noted, not raised
            self.error = str(exc) or type(exc).__name__
        finally:
            self.ready.set()

    def drain(self, seq: int) -> None:
        """Until ``seq`` arrived, or ``WATCH_DRAIN`` seconds passed."""
        deadline = time.monotonic() + WATCH_DRAIN
        with self._moved:
            while seq not in self.arrived and self._thread.is_alive():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._moved.wait(min(left, 0.1))

    def stop(self) -> None:
        self.client.close()
        self._thread.join(timeout=2)


class Stopped(Exception):
    """The load test's deadline passed: the match is left where it stands."""


class Pace:
    """One thread's send schedule in the open loop: a decision is due every ``interval`` s."""

    def __init__(self, first: float, interval: float) -> None:
        self.due = first
        self.interval = interval

    def restart(self) -> None:
        """A new match (its creation is no decision): the schedule goes on from now at the latest."""
        self.due = max(self.due, time.monotonic())

    def wait(self) -> float:
        """Sleep until the next decision is due; its due time (latency is measured from it)."""
        due = self.due
        self.due += self.interval
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        return due


class TimedTable(RemoteTable):
    """A remote table that times each decision's and each view's round trip, paces its decisions
    (open loop) and stops at a deadline."""

    def __init__(self, *args: Any, stop_at: float, pace: Pace | None = None, **kwargs: Any) -> None:
        self.latencies: list[float] = []
        self.sent: list[tuple[int, float, float]] = []     # (the decision's seq, sent, answered)
        self.round_trips: list[float] = []
        self.view_timings: list[float] = []
        self.stop_at = stop_at
        self.pace = pace
        super().__init__(*args, **kwargs)

    def submit(self, seat: int, command: Any) -> list[Any]:
        due = self.pace.wait() if self.pace is not None else None
        if time.monotonic() > self.stop_at:
            raise Stopped()
        started = time.monotonic()
        envelopes = super().submit(seat, command)
        ended = time.monotonic()
        if envelopes:
            self.round_trips.append(ended - started)
            self.latencies.append(ended - (started if due is None else due))
            own = next((e.seq for e in envelopes if e.kind == "decision"), envelopes[0].seq)
            self.sent.append((own, started, ended))
        return envelopes

    def _fetch(self, seat: int) -> Any:
        started = time.perf_counter()
        view = super()._fetch(seat)
        self.view_timings.append(time.perf_counter() - started)
        return view


def play_share(server: str, runs: list[MatchRun], *, threads: int, ruleset: str, max_decisions: int,
               stop_at: float, start_at: float, interval: float | None, offsets: list[float],
               progress: Callable[[MatchRun], None] | None = None, watch: str | None = None) -> Share:
    """Play ``runs`` with ``threads`` threads; ``interval`` (open loop) is each match's time between
    decisions, ``offsets[i]`` the first due time of thread i after ``start_at`` (the stagger)."""
    rules = find_ruleset(ruleset)
    judges: dict[str, str] = {}
    latencies: list[float] = []
    round_trips: list[float] = []
    views: list[float] = []
    conflicts = [0]
    cross: list[float] = []
    cross_after: list[float] = []
    missed = [0]
    lock = threading.Lock()
    local = threading.local()
    opened: list[KeepAliveClient] = []
    numbered = iter(range(len(offsets)))

    def setup() -> tuple[KeepAliveClient, Pace | None]:
        if not hasattr(local, "client"):
            local.client = KeepAliveClient(server)
            with lock:
                opened.append(local.client)
                slot = next(numbered, 0)
            local.pace = Pace(start_at + offsets[slot], interval) if interval is not None else None
        return local.client, local.pace

    def play(run: MatchRun) -> None:
        if time.monotonic() > stop_at:
            run.audit = "not played: the deadline had passed"
            return                # a fixed-duration run with more matches than time: not an error
        http, pace = setup()
        table: TimedTable | None = None
        watcher: Watcher | None = None
        try:
            created = http.create(ruleset=ruleset, players=("bot 1", "bot 2"))
            run.match_id = created.match_id
            with lock:
                judges[run.match_id] = created.tokens.judge
            if watch is not None:
                watcher = Watcher(watch, run.match_id, created.tokens.judge, created.seq)
            if pace is not None:
                pace.restart()
            table = TimedTable(http, run.match_id, {1: created.tokens.seat1, 2: created.tokens.seat2},
                               fresh_views=False, stop_at=stop_at, pace=pace)
            bots = {seat: rules.content.bots["random"](run.seed * 2 + seat) for seat in (1, 2)}
            drive(table, bots, limit=max_decisions)
        except (Stopped, DecisionLimit):
            pass                  # bounded: a capped or stopped match need not finish
        except KifuError as exc:
            run.error = str(exc)
        finally:
            if watcher is not None:
                if table is not None and table.sent:
                    watcher.drain(table.sent[-1][0])
                watcher.stop()
                if table is not None:
                    with lock:
                        for seq, sent, answered in table.sent:
                            arrived = watcher.arrived.get(seq)
                            if arrived is None:
                                missed[0] += 1
                            else:
                                cross.append(arrived - sent)
                                cross_after.append(arrived - answered)
            if table is not None:
                run.decisions = table.accepted
                run.finished = table.outcome is not None
                with lock:
                    latencies.extend(table.latencies)
                    round_trips.extend(table.round_trips)
                    views.extend(table.view_timings)
                    conflicts[0] += table.conflicts
            if progress is not None:
                progress(run)

    delay = start_at - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    started, cpu_started = time.monotonic(), time.process_time()
    try:
        with ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="kifu-load") as pool:
            list(pool.map(play, runs))
    finally:
        for c in opened:
            c.close()
    return Share(runs=runs, judges=judges, latencies=latencies, round_trips=round_trips, views=views,
                 conflicts=conflicts[0], started=started, ended=time.monotonic(),
                 cpu=time.process_time() - cpu_started, cross=cross, cross_after=cross_after, missed=missed[0])
