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
        return envelopes

    def _fetch(self, seat: int) -> Any:
        started = time.perf_counter()
        view = super()._fetch(seat)
        self.view_timings.append(time.perf_counter() - started)
        return view


def play_share(server: str, runs: list[MatchRun], *, threads: int, ruleset: str, max_decisions: int,
               stop_at: float, start_at: float, interval: float | None, offsets: list[float],
               progress: Callable[[MatchRun], None] | None = None) -> Share:
    """Play ``runs`` with ``threads`` threads; ``interval`` (open loop) is each match's time between
    decisions, ``offsets[i]`` the first due time of thread i after ``start_at`` (the stagger)."""
    rules = find_ruleset(ruleset)
    judges: dict[str, str] = {}
    latencies: list[float] = []
    round_trips: list[float] = []
    views: list[float] = []
    conflicts = [0]
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
        try:
            created = http.create(ruleset=ruleset, players=("bot 1", "bot 2"))
            run.match_id = created.match_id
            with lock:
                judges[run.match_id] = created.tokens.judge
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
                 cpu=time.process_time() - cpu_started)
