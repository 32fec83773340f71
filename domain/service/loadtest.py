"""The load test: bot matches driven through the API, timed, then audited from their records.

``concurrency`` workers (threads, each with its own connection pool) each take the next match:
create it, then play both seats with the ruleset's random bot until it ends, timing every
decision's round trip. Afterwards every match is fetched with its judge token and re-adjudicated
(``projections.audit``): clean, and exactly as many decisions recorded as were accepted — nothing
lost, nothing doubled. Bounded: at most ``max_decisions`` per match and ``deadline`` seconds.
"""
from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import msgspec

from domain.core.driver import DecisionLimit, drive
from domain.core.errors import KifuError
from domain.core.record import decode_record
from domain.core.ruleset import find_ruleset
from projections.audit import audit

from .client import KifuClient
from .player import RemoteTable
from .warmup import warm_rulesets


class Latency(msgspec.Struct, frozen=True, kw_only=True):
    p50: float
    p95: float
    p99: float
    max: float


class MatchRun(msgspec.Struct, kw_only=True):
    match_id: str = ""
    seed: int = 0
    decisions: int = 0
    finished: bool = False
    error: str | None = None
    audit: str = "not audited"   # clean | diverged: … | unreadable: … | lost or doubled: …


class LoadReport(msgspec.Struct, kw_only=True):
    server: str
    ruleset: str
    matches: int
    concurrency: int
    decisions: int
    seconds: float
    decisions_per_s: float
    latency_ms: Latency          # one decision's round trip (POST .../decisions)
    view_latency_ms: Latency     # one view's round trip (GET .../view), when the seat changes
    conflicts: int               # 409s: none expected, as every seat is driven by one worker
    finished: int
    clean: int
    runs: list[MatchRun]
    load: str = ""               # 1-minute load average before and after: the machine is shared
    client_cpu_ms: float = 0.0   # this load generator's CPU time per decision (bots, HTTP, decoding)

    @property
    def ok(self) -> bool:
        """Every match played without an error and audits clean (a capped match need not finish)."""
        return self.clean == self.matches and not any(r.error for r in self.runs)


def percentiles(samples: list[float]) -> Latency:
    if not samples:
        return Latency(p50=0.0, p95=0.0, p99=0.0, max=0.0)
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)

    return Latency(p50=at(0.50), p95=at(0.95), p99=at(0.99), max=round(ordered[-1] * 1000, 2))


class Stopped(Exception):
    """The load test's deadline passed: the match is left where it stands."""


class TimedTable(RemoteTable):
    """A remote table that times each decision's and each view's round trip, and stops at a deadline."""

    def __init__(self, *args: Any, stop_at: float, **kwargs: Any) -> None:
        self.timings: list[float] = []
        self.view_timings: list[float] = []
        self.stop_at = stop_at
        super().__init__(*args, **kwargs)

    def submit(self, seat: int, command: Any) -> list[Any]:
        if time.monotonic() > self.stop_at:
            raise Stopped()
        started = time.perf_counter()
        envelopes = super().submit(seat, command)
        if envelopes:
            self.timings.append(time.perf_counter() - started)
        return envelopes

    def _fetch(self, seat: int) -> Any:
        started = time.perf_counter()
        view = super()._fetch(seat)
        self.view_timings.append(time.perf_counter() - started)
        return view


def loadtest(server: str, *, matches: int, concurrency: int, ruleset: str = "worlfard", seed: int = 1,
             max_decisions: int = 5000, deadline: float = 600.0,
             progress: Callable[[MatchRun], None] | None = None) -> LoadReport:
    rules = find_ruleset(ruleset)
    warm_rulesets()   # the workers convert commands and decode records from several threads
    runs = [MatchRun(seed=seed + i) for i in range(matches)]
    tokens: dict[str, Any] = {}
    timings: list[float] = []
    view_timings: list[float] = []
    conflicts = [0]
    lock = threading.Lock()
    local = threading.local()
    stop_at = time.monotonic() + deadline
    opened: list[KifuClient] = []

    def client() -> KifuClient:
        if not hasattr(local, "client"):
            local.client = KifuClient(server)
            with lock:
                opened.append(local.client)
        return local.client

    def play(run: MatchRun) -> None:
        http = client()
        table: RemoteTable | None = None
        try:
            created = http.create(ruleset=ruleset, players=("bot 1", "bot 2"))
            run.match_id = created.match_id
            tokens[run.match_id] = created.tokens.judge
            table = TimedTable(http, run.match_id, {1: created.tokens.seat1, 2: created.tokens.seat2},
                               fresh_views=False, stop_at=stop_at)
            bots = {seat: rules.bots["random"](run.seed * 2 + seat) for seat in (1, 2)}
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
                    timings.extend(table.timings)
                    view_timings.extend(table.view_timings)
                    conflicts[0] += table.conflicts
            if progress is not None:
                progress(run)

    load_before = _load()
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        with ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="kifu-load") as pool:
            list(pool.map(play, runs))
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu_started
        load = f"1-minute load average {load_before} before, {_load()} after"
        checker = client()
        for run in runs:
            if run.match_id:
                run.audit = _audit(checker, run, tokens[run.match_id])
    finally:
        for c in opened:
            c.close()
    decisions = sum(r.decisions for r in runs)
    return LoadReport(server=server, ruleset=ruleset, matches=matches, concurrency=concurrency, decisions=decisions,
                      seconds=round(seconds, 3), decisions_per_s=round(decisions / seconds, 1) if seconds else 0.0,
                      latency_ms=percentiles(timings), view_latency_ms=percentiles(view_timings),
                      conflicts=conflicts[0], finished=sum(r.finished for r in runs),
                      clean=sum(r.audit == "clean" for r in runs), runs=runs, load=load,
                      client_cpu_ms=round(cpu * 1000 / decisions, 3) if decisions else 0.0)


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"


def _audit(http: KifuClient, run: MatchRun, judge: str) -> str:
    """Re-adjudicate the stored record; also check it holds exactly the decisions that landed."""
    try:
        header, envelopes, rules = decode_record(http.record(run.match_id, token=judge), run.match_id)
    except KifuError as exc:
        return f"unreadable: {exc}"
    result = audit(rules, header, envelopes)
    if result.divergence is not None:
        return f"diverged at seq {result.divergence.seq}: {result.divergence.reason}"
    if result.decisions != run.decisions:
        return f"lost or doubled: {run.decisions} decisions accepted, {result.decisions} recorded"
    return "clean"
