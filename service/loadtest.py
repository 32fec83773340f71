"""The load test: bot matches driven through the API, timed, then audited from their records.

``concurrency`` matches are in flight at a time, played by threads in ``processes`` load
processes (one process's threads share one interpreter lock; a second process lets the load
generator use a second core). Closed loop or open loop at a given ``rate``: see
``kifu.service.loadshare``. Afterwards every match is fetched with its judge token and
re-adjudicated (``kifu.projections.audit``): clean, and exactly as many decisions recorded as were
accepted — nothing lost, nothing doubled. Bounded: at most ``max_decisions`` per match and
``deadline`` seconds.
"""
from __future__ import annotations

import multiprocessing
import multiprocessing.queues
import os
import queue
import time
from collections.abc import Callable
from typing import Any, TypeAlias

import msgspec

from kifu.domain.core.errors import KifuError
from kifu.domain.core.record import decode_record
from kifu.projections.audit import audit

from .client import KifuClient
from .keepalive import KeepAliveClient
from .loadshare import MatchRun, Share, play_share
from .warmup import warm_rulesets

Results: TypeAlias = "multiprocessing.queues.Queue[tuple[str, bytes]]"   # (kind, body) from the load processes
START_SLACK = 0.3     # seconds between "go" and the first decision, so every process starts together


class Latency(msgspec.Struct, frozen=True, kw_only=True):
    p50: float
    p95: float
    p99: float
    max: float


class LoadReport(msgspec.Struct, kw_only=True):
    server: str
    ruleset: str
    matches: int
    concurrency: int
    decisions: int
    seconds: float
    decisions_per_s: float
    latency_ms: Latency          # closed loop: a decision's round trip; open loop: from its scheduled send
    view_latency_ms: Latency     # one view's round trip (GET .../view), when the seat changes
    conflicts: int               # 409s: none expected, as every seat is driven by one worker
    finished: int
    clean: int
    runs: list[MatchRun]
    load: str = ""               # 1-minute load average before and after: the machine is shared
    client_cpu_ms: float = 0.0   # the load generator's CPU time per decision (bots, HTTP, decoding)
    mode: str = "closed"         # closed: saturation throughput; open: latency at the offered rate
    rate: float = 0.0            # open loop: the offered decisions/s over all matches
    round_trip_ms: Latency | None = None   # a decision's POST alone (open loop: without waiting for its turn)
    processes: int = 1           # load generator processes
    server_cpu_ms: float = 0.0   # the service processes' CPU time per decision (given --server-pid)

    played: int = 0              # matches created (with --deadline, later ones may never start)
    cross_host: str = ""         # --cross-host: the second host every match was watched on
    cross_host_ms: Latency | None = None         # a decision's send to host A until host B streamed it
    cross_host_after_ms: Latency | None = None   # host A's answer until host B streamed it
    cross_host_missed: int = 0   # decisions host B's stream never delivered (a failure)

    @property
    def ok(self) -> bool:
        """Every match played without an error and audits clean (a capped match need not finish)."""
        return self.clean == self.played and not any(r.error for r in self.runs) and not self.cross_host_missed


def percentiles(samples: list[float]) -> Latency:
    if not samples:
        return Latency(p50=0.0, p95=0.0, p99=0.0, max=0.0)
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)

    return Latency(p50=at(0.50), p95=at(0.95), p99=at(0.99), max=round(ordered[-1] * 1000, 2))


def loadtest(server: str, *, matches: int, concurrency: int, ruleset: str = "worlfard", seed: int = 1,
             max_decisions: int = 5000, deadline: float = 600.0, rate: float | None = None, processes: int = 1,
             server_pids: tuple[int, ...] = (), cross_host: str | None = None,
             progress: Callable[[MatchRun], None] | None = None) -> LoadReport:
    warm_rulesets()   # the workers convert commands and decode records from several threads
    concurrency = max(1, min(concurrency, matches))
    processes = max(1, min(processes, concurrency))
    runs = [MatchRun(seed=seed + i) for i in range(matches)]
    interval = concurrency / rate if rate else None
    # thread t (of all processes) sends its first decision t/concurrency of an interval after the start
    offsets = [(interval or 0.0) * t / concurrency for t in range(concurrency)]
    shares = [_Part(runs[p::processes], list(range(p, concurrency, processes))) for p in range(processes)]
    options: dict[str, Any] = dict(ruleset=ruleset, max_decisions=max_decisions, interval=interval, watch=cross_host)

    load_before = _load()
    server_cpu = _cpu_seconds(server_pids)
    cpu_started = time.process_time()
    if processes == 1:
        start_at = time.monotonic()
        played = [play_share(server, runs, threads=concurrency, stop_at=start_at + deadline, start_at=start_at,
                             offsets=offsets, progress=progress, **options)]
    else:
        played = _in_processes(server, shares, offsets, deadline, options, progress)
    parent_cpu = time.process_time() - cpu_started
    server_cpu = _cpu_seconds(server_pids) - server_cpu
    load = f"1-minute load average {load_before} before, {_load()} after"

    by_id = {r.seed: r for share in played for r in share.runs}
    runs = [by_id.get(r.seed, r) for r in runs]
    judges = {k: v for share in played for k, v in share.judges.items()}
    with KeepAliveClient(server) as checker:
        for run in runs:
            if run.match_id in judges:
                run.audit = _audit(checker, run, judges[run.match_id])
    seconds = max(s.ended for s in played) - min(s.started for s in played)
    decisions = sum(r.decisions for r in runs)
    per = (lambda total: round(total * 1000 / decisions, 3)) if decisions else (lambda total: 0.0)
    cpu = parent_cpu + (sum(s.cpu for s in played) if processes > 1 else 0.0)
    return LoadReport(
        server=server, ruleset=ruleset, matches=matches, concurrency=concurrency, decisions=decisions,
        seconds=round(seconds, 3), decisions_per_s=round(decisions / seconds, 1) if seconds else 0.0,
        latency_ms=percentiles([x for s in played for x in s.latencies]),
        round_trip_ms=percentiles([x for s in played for x in s.round_trips]),
        view_latency_ms=percentiles([x for s in played for x in s.views]),
        conflicts=sum(s.conflicts for s in played), finished=sum(r.finished for r in runs),
        clean=sum(r.audit == "clean" for r in runs), played=sum(bool(r.match_id) for r in runs), runs=runs, load=load,
        client_cpu_ms=per(cpu),
        mode="open" if rate else "closed", rate=float(rate or 0.0), processes=processes,
        server_cpu_ms=per(server_cpu) if server_pids else 0.0,
        cross_host=cross_host or "",
        cross_host_ms=percentiles([x for s in played for x in s.cross]) if cross_host else None,
        cross_host_after_ms=percentiles([x for s in played for x in s.cross_after]) if cross_host else None,
        cross_host_missed=sum(s.missed for s in played))


class _Part(msgspec.Struct):
    runs: list[MatchRun]
    slots: list[int]      # which of the concurrency's threads (and so stagger offsets) this process runs


def _in_processes(server: str, parts: list[_Part], offsets: list[float], deadline: float, options: dict[str, Any],
                  progress: Callable[[MatchRun], None] | None) -> list[Share]:
    """Each part in a process of its own (spawned: no threads are forked); they start together."""
    ctx = multiprocessing.get_context("spawn")
    results: Results = ctx.Queue()
    starts = [ctx.Queue() for _ in parts]
    children = [ctx.Process(target=_child, name=f"kifu-load-{i}", daemon=True,
                            args=(server, msgspec.json.encode(part), [offsets[t] for t in part.slots], options,
                                  deadline, starts[i], results))
                for i, part in enumerate(parts)]
    for child in children:
        child.start()
    try:
        ready = 0
        while ready < len(children):
            kind, _ = _next(results, children)
            ready += kind == "ready"
        start_at = time.monotonic() + START_SLACK
        for queue in starts:
            queue.put(start_at)
        shares: list[Share] = []
        while len(shares) < len(children):
            kind, body = _next(results, children)
            if kind == "run" and progress is not None:
                progress(msgspec.json.decode(body, type=MatchRun))
            elif kind == "share":
                shares.append(msgspec.json.decode(body, type=Share))
            elif kind == "failed":
                raise KifuError(f"a load process failed: {body.decode()}")
        return shares
    finally:
        for child in children:
            child.join(timeout=5)
            if child.is_alive():
                child.kill()


def _next(results: Results, children: list[Any]) -> tuple[str, bytes]:
    while True:
        try:
            return results.get(timeout=1.0)
        except queue.Empty:   # check the children are still there
            if any(c.exitcode not in (None, 0) for c in children):
                raise KifuError("a load process died; see its error above") from None


def _child(server: str, part: bytes, offsets: list[float], options: dict[str, Any], deadline: float,
           start: Any, results: Results) -> None:
    try:
        warm_rulesets()
        share = msgspec.json.decode(part, type=_Part)
        results.put(("ready", b""))
        start_at = start.get()
        played = play_share(server, share.runs, threads=len(share.slots), stop_at=start_at + deadline,
                            start_at=start_at, offsets=offsets,
                            progress=lambda run: results.put(("run", msgspec.json.encode(run))), **options)
        results.put(("share", msgspec.json.encode(played)))
    except BaseException as exc:
        results.put(("failed", f"{type(exc).__name__}: {exc}".encode()))
        raise


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"


def _cpu_seconds(pids: tuple[int, ...]) -> float:
    """User + system CPU seconds of ``pids`` and every live descendant (uvicorn's worker processes)."""
    if not pids:
        return 0.0
    stats: dict[int, tuple[int, float]] = {}      # pid -> (parent, cpu seconds)
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    wanted, total, frontier = set(pids), 0.0, list(pids)
    while frontier:
        pid = frontier.pop()
        total += stats.get(pid, (0, 0.0))[1]
        for child, (parent, _) in stats.items():
            if parent == pid and child not in wanted:
                wanted.add(child)
                frontier.append(child)
    return total


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
