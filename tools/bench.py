"""``kifu bench``: the engine, the replayer and the store measured against their targets.

One run, one process pinned to one core where the OS allows it (``os.sched_setaffinity``);
every figure is the median over its repeats with the min and max, and says whether its target
is met. Memory is measured in child processes (their own peak RSS), the all-cores audit in
worker processes allowed on every core the run started with. Nothing here asserts a timing:
speed is reported, never tested (``--quick`` is a smoke run, its figures only indicative).

The workloads (``kifu.tools.bench_work``) are built in the run from fixed seeds, so two runs
measure the same work:
- self-play: random-vs-random matches of the ruleset (WORLFARD by default), the preset decks paired in rotation;
- the long record: one match of at least 10,000 events. No natural match gets near that (decks
  run out within ~1,000–2,500 events), so it starts from a prepared position, recorded as its
  setup event: the engine's own setup (shuffle, hearts, coin) of two preset decks each repeated
  ``LONG_DECK_COPIES`` times, with ``LONG_LIFE`` life per player; random bots then play it, and
  the record is cut at the first decision boundary at or past 10,000 events (a match in
  progress, as a store holds one). See ``bench_work.long_record``.
"""
from __future__ import annotations

import gc
import gzip
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import msgspec

from kifu.domain.core.driver import LocalTable, drive
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.record import decode_record, encode_record
from kifu.domain.core.ruleset import Ruleset, find_ruleset
from kifu.projections.timeline import Timeline

from . import bench_chess
from .bench_work import (
    LONG_EVENTS,
    RULESET,
    BenchError,
    allowed_cpus,
    audit_bytes,
    cpu_model,
    filesystem_of,
    interpreter,
    load_average,
    long_record,
    pinned,
    play,
    preset_pairs,
)

if TYPE_CHECKING:   # the store is imported by the workload that uses it
    from kifu.store import MatchStore

Progress = Callable[[str], None]


# -- figures --------------------------------------------------------------------------------------
class Target(msgspec.Struct, frozen=True):
    op: Literal[">=", "<="]
    value: float

    def met_by(self, figure: float) -> bool:
        return figure >= self.value if self.op == ">=" else figure <= self.value

    def __str__(self) -> str:
        return f"{'≥' if self.op == '>=' else '≤'} {fmt(self.value)}"


class Figure(msgspec.Struct, frozen=True, kw_only=True):
    """One measured figure: median over ``samples`` repeats, with min and max."""

    key: str
    label: str
    unit: str
    median: float
    min: float
    max: float
    samples: int
    target: Target | None = None
    met: bool | None = None
    note: str = ""


class Machine(msgspec.Struct, frozen=True, kw_only=True):
    nproc: int
    cpu: str
    python: str
    platform: str
    pinned: str
    load: str             # load average before and after: the run shares the machine with whatever runs
    scratch: str          # where the SQLite file and records were written, and its file system


class Report(msgspec.Struct, frozen=True, kw_only=True):
    mode: Literal["quick", "full"]
    machine: Machine
    ruleset: str = "worlfard"
    workloads: dict[str, str]
    figures: list[Figure]
    seconds: float


def figure(key: str, label: str, unit: str, samples: Sequence[float], target: Target | None = None,
           note: str = "") -> Figure:
    values = list(samples)
    median = statistics.median(values)
    return Figure(key=key, label=label, unit=unit, median=median, min=min(values), max=max(values),
                  samples=len(values), target=target, met=None if target is None else target.met_by(median),
                  note=note)


def fmt(x: float) -> str:
    """A figure as the table shows it: thousands separated, about three significant digits."""
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}" if x >= 0.1 else f"{x:.3f}"


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


# -- plans ----------------------------------------------------------------------------------------
class Plan(NamedTuple):
    repeats: int            # repeats of every timed figure but seek (one sample per seek)
    selfplay_matches: int   # matches per self-play repeat (the same seeds each repeat)
    seeks: int
    store_matches: int      # matches per store repeat, each into a fresh SQLite file
    audit_records: int
    memory_matches: int
    greedy_matches: int     # greedy-vs-random matches per repeat (a greedy bot simulates its options)
    chess_games: int        # python-chess random games per repeat, the yardstick


FULL = Plan(repeats=5, selfplay_matches=20, seeks=500, store_matches=2, audit_records=20, memory_matches=100,
            greedy_matches=8, chess_games=bench_chess.GAMES)
QUICK = Plan(repeats=3, selfplay_matches=2, seeks=50, store_matches=1, audit_records=2, memory_matches=5,
             greedy_matches=1, chess_games=2)


# -- the run --------------------------------------------------------------------------------------
def run(quick: bool = False, progress: Progress | None = None, ruleset_name: str = RULESET) -> Report:
    plan = QUICK if quick else FULL
    say = progress or (lambda _msg: None)
    started = time.perf_counter()
    load_before = load_average()
    ruleset = find_ruleset(ruleset_name)
    all_cpus = allowed_cpus()
    with tempfile.TemporaryDirectory(prefix="kifu-bench-") as scratch, pinned(all_cpus) as pin_note:
        work = Path(scratch)
        figures: list[Figure] = []
        workloads: dict[str, str] = {}

        say("self-play")
        selfplay_figures, matches, desc = bench_selfplay(ruleset, plan)
        figures += selfplay_figures
        workloads["self-play"] = desc

        say(f"building the {LONG_EVENTS:,}-event record")
        long_match, how = long_record(ruleset)
        workloads["long record"] = how
        long_path = work / "long.kifu.jsonl"
        long_path.write_bytes(encode_record(long_match.header, long_match.envelopes))

        if ruleset.bench.longest is not None:
            say(f"playing the longest record, to {LONGEST_EVENTS:,} events")
            longest_figures, desc = bench_longest(ruleset)
            figures += longest_figures
            workloads["longest record"] = desc
        say("fold")
        figures += bench_fold(ruleset, long_path, plan)
        say("seek")
        figures += bench_seek(ruleset, long_path, plan)
        say("audit")
        audit_figures, desc = bench_audit(matches[:plan.audit_records], plan, all_cpus, work)
        figures += audit_figures
        workloads["audit"] = desc
        say("store")
        store_figures, db_sizes, desc = bench_store(ruleset, work, plan)
        figures += store_figures
        workloads["store"] = desc
        say("size")
        size_figures, desc = bench_size(matches, db_sizes)
        figures += size_figures
        workloads["size"] = desc
        say("memory")
        memory_figures, desc = bench_memory(long_path, plan, ruleset.name)
        figures += memory_figures
        workloads["memory"] = desc
        machine = describe_machine(pin_note, work, load_before)
    return Report(mode="quick" if quick else "full", machine=machine, ruleset=ruleset.name, workloads=workloads,
                  figures=figures, seconds=time.perf_counter() - started)


def bench_selfplay(ruleset: Ruleset[Any, Any, Any], plan: Plan) -> tuple[list[Figure], list[Match], str]:
    """Self-play with the record kept (every decision digested and chained as it is taken, as
    ``kifu play --out`` keeps it: the headline), the same matches with sealing left out
    (``seal_later``, never read), and python-chess random games, the three timed in turns within
    each repeat so a busy minute weighs on all of them alike."""
    chess = bench_chess.chess_module()
    pairs = preset_pairs(ruleset)
    players = ("random", "random")
    sealed: list[Rates] = []
    unsealed: list[Rates] = []
    plies: list[Rates] = []
    matches: list[Match] = []
    for _ in range(plan.repeats):
        matches, rates = _selfplay(ruleset, pairs, plan.selfplay_matches, players, sealed=True)
        sealed.append(rates)
        unsealed.append(_selfplay(ruleset, pairs, plan.selfplay_matches, players, sealed=False)[1])
        if chess is not None:
            gc.collect()
            n, wall, cpu = bench_chess.random_games(chess, plan.chess_games)
            plies.append(Rates(plan.chess_games, n, n, wall, cpu))
    decided = sum(1 for m in matches if m.outcome is not None)
    desc = (f"{plan.selfplay_matches} random-vs-random matches (seeds 1–{plan.selfplay_matches}, preset pairs "
            f"in rotation: {', '.join(ruleset.content.presets())}) × {plan.repeats} repeats, in process, no store, "
            f"each repeat played twice: sealed (the record kept: digest and chain link of every decision as it is "
            f"taken) and unsealed (seal_later, the record never read); {decided} of {len(matches)} ended by an "
            f"outcome")
    on_cpu = statistics.median(r.cpu / r.wall for r in sealed)
    figures = [
        figure("selfplay.matches_per_s", "self-play, record kept: matches", "matches/s",
               [r.matches_per_s for r in sealed],
               note=f"wall clock; the process was on its core {on_cpu:.0%} of that time"),
        figure("selfplay.matches_per_cpu_s", "self-play, record kept: matches per CPU second", "matches/s",
               [r.matches_per_cpu_s for r in sealed], note="process time instead of wall clock: what the figure "
                                                           "would be on a core nobody else used"),
        figure("selfplay.decisions_per_s", "self-play, record kept: decisions", "decisions/s",
               [r.decisions_per_s for r in sealed]),
        figure("selfplay.decisions_per_cpu_s", "self-play, record kept: decisions per CPU second", "decisions/s",
               [r.decisions_per_cpu_s for r in sealed]),
        figure("selfplay.events_per_s", "self-play, record kept: events", "events/s", [r.events_per_s for r in sealed]),
        figure("selfplay.events_per_match", "self-play: mean events per match", "events",
               [r.events / r.matches for r in sealed]),
        figure("selfplay.unsealed_decisions_per_cpu_s", "self-play, unsealed: decisions per CPU second",
               "decisions/s", [r.decisions_per_cpu_s for r in unsealed],
               note="the same matches under seal_later, their record never read: no digest, no chain link"),
    ]
    if plies:
        target = Target(">=", CHESS_TARGETS.get(ruleset.name, CHESS_TARGET))
        version = getattr(chess, "__version__", "?")
        per_game = statistics.median(r.decisions for r in plies) / plan.chess_games
        figures += [
            figure("chess.plies_per_cpu_s", "python-chess random games: plies per CPU second", "plies/s",
                   [r.decisions_per_cpu_s for r in plies],
                   note=f"{plan.chess_games} random games per repeat (python-chess {version}), timed between "
                        f"Kifu's runs; {per_game:,.0f} plies per game"),
            figure("selfplay.vs_chess", "self-play, record kept: decisions ÷ chess plies", "×",
                   [s.decisions_per_cpu_s / c.decisions_per_cpu_s for s, c in zip(sealed, plies, strict=True)],
                   target, note="per CPU second, within each repeat"),
            figure("selfplay.unsealed_vs_chess", "self-play, unsealed: decisions ÷ chess plies", "×",
                   [s.decisions_per_cpu_s / c.decisions_per_cpu_s for s, c in zip(unsealed, plies, strict=True)]),
        ]
        desc += f"; python-chess: {plan.chess_games} random games per repeat, between Kifu's runs"
    else:
        desc += "; python-chess is not installed, so no yardstick (pip install -e '.[bench]', which make setup does)"
    if "greedy" in ruleset.content.bots:
        greedy = [_selfplay(ruleset, pairs, plan.greedy_matches, ("greedy", "random"), sealed=True)[1]
                  for _ in range(plan.repeats)]
        figures.append(figure("selfplay.greedy_matches_per_s", "self-play, record kept: greedy vs random",
                              "matches/s", [r.matches_per_s for r in greedy],
                              note=f"{plan.greedy_matches} matches (seeds 1–{plan.greedy_matches}), greedy bot as "
                                   f"seat 1; on its core {statistics.median(r.cpu / r.wall for r in greedy):.0%} "
                                   f"of the time"))
        figures.append(figure("selfplay.greedy_matches_per_cpu_s", "self-play, record kept: greedy vs random per "
                              "CPU second", "matches/s", [r.matches_per_cpu_s for r in greedy],
                              Target(">=", GREEDY_TARGET), note="process time instead of wall clock"))
        desc += f"; greedy vs random: {plan.greedy_matches} matches × {plan.repeats} repeats, record kept"
    return figures, matches, desc


GREEDY_TARGET = 30
CHESS_TARGET = 1.5                                     # self-play decisions ÷ python-chess plies, record kept
CHESS_TARGETS = {"worlfard": 1.0, "novel": 1.0}        # the two whose decisions do the most


class Rates(NamedTuple):
    """One timed run: matches, decisions, events, wall and CPU seconds."""

    matches: int
    decisions: int
    events: int
    wall: float
    cpu: float

    @property
    def matches_per_s(self) -> float:
        return self.matches / self.wall

    @property
    def matches_per_cpu_s(self) -> float:
        return self.matches / self.cpu

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.wall

    @property
    def decisions_per_cpu_s(self) -> float:
        return self.decisions / self.cpu

    @property
    def events_per_s(self) -> float:
        return self.events / self.wall


def _selfplay(ruleset: Ruleset[Any, Any, Any], pairs: list[tuple[Any, Any]], count: int,
              players: tuple[str, str], *, sealed: bool) -> tuple[list[Match], Rates]:
    """``count`` bot matches from seeds 1.. and how fast they were played. Sealed, each decision
    is digested and chained as it is taken; unsealed, under ``seal_later``, whose record is not read."""
    gc.collect()
    matches: list[Match] = []
    decisions = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for seed in range(1, count + 1):
        match, n = play(ruleset, seed, pairs[seed % len(pairs)], players=players, sealed=sealed)
        matches.append(match)
        decisions += n
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return matches, Rates(len(matches), decisions, sum(m.seq for m in matches), wall, max(cpu, 1e-9))


LONGEST_EVENTS = 100_000


def bench_longest(ruleset: Ruleset[Any, Any, Any]) -> tuple[list[Figure], str]:
    """How long a record the engine keeps: random play, every decision sealed, from the ruleset's
    ``longest`` position until ``LONGEST_EVENTS`` events (or the match ends)."""
    assert ruleset.bench.longest is not None
    decks, start = ruleset.bench.longest(1)
    gc.collect()
    t0, c0 = time.perf_counter(), time.process_time()
    match, decisions = play(ruleset, 1, decks, start=start, until=LONGEST_EVENTS)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    ended = "in progress" if match.outcome is None else f"over: {match.outcome.describe()}"
    figures = [figure("long.events", "long record: events reached", "events", [match.seq],
                      Target(">=", LONGEST_EVENTS),
                      note=f"{decisions:,} decisions sealed in {wall:.1f} s ({match.seq / cpu:,.0f} events per CPU "
                           f"second); {ended}")]
    return figures, (f"seed 1 from the ruleset's longest position (its longest hook), random play with the record "
                     f"kept until {LONGEST_EVENTS:,} events or the end")


cpu_clock = time.process_time   # the CPU time of this process: the figures with targets hold on a shared machine
FOLD_RATIO_TARGET = 20    # Match.fold ÷ eventsourcing's default projector, in the same run
SEEK_TARGET_MS = 1.0      # state at a seq of the 10k-event record, with the judge view


def bench_fold(ruleset: Ruleset[Any, Any, Any], path: Path, plan: Plan) -> list[Figure]:
    from kifu.tools import bench_baseline as baseline

    header, envelopes, _ = decode_record(path.read_bytes(), path.name)
    n = len(envelopes)
    es_events = baseline.aggregate_events(ruleset.decider.initial_state(header), record_evolve(ruleset), envelopes,
                                          uuid.UUID(header.match_id))
    ours: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    for _ in range(plan.repeats):
        gc.collect()
        t0 = cpu_clock()         # CPU time: what the machine's other work takes is not counted against either
        folded = Match.fold(ruleset, header, envelopes)
        t1 = cpu_clock()
        es_state = baseline.fold(es_events)
        t2 = cpu_clock()
        if es_state != folded.state:
            raise BenchError("eventsourcing's projector and ours folded the record to different states")
        ours.append(n / (t1 - t0))
        theirs.append(n / (t2 - t1))
        ratios.append((t2 - t1) / (t1 - t0))
    return [
        figure("fold.events_per_s", "fold: rebuild state from decoded events", "events/s", ours,
               Target(">=", 500_000), note=f"Match.fold of the {n:,}-event record, per CPU second"),
        figure("fold.eventsourcing_events_per_s", "fold: same, eventsourcing default projector", "events/s",
               theirs, note="Aggregate events wrapping ours, project_aggregate → Event.mutate"),
        figure("fold.ratio", "fold: Kifu vs eventsourcing", "× faster", ratios, Target(">=", FOLD_RATIO_TARGET),
               note="ratio of the two folds within each repeat"),
    ]


def bench_seek(ruleset: Ruleset[Any, Any, Any], path: Path, plan: Plan) -> list[Figure]:
    opens: list[float] = []
    for _ in range(plan.repeats):
        gc.collect()
        t0 = time.perf_counter()
        header, envelopes, rules = decode_record(path.read_bytes(), path.name)
        timeline = Timeline(rules, header, envelopes)
        opens.append((time.perf_counter() - t0) * 1e3)
    gc.collect()   # what opening left behind is collected once, not inside a timed seek
    view = ruleset.decider.view
    rng = random.Random(6)
    seeks: list[float] = []
    backs: list[float] = []
    folds: list[float] = []   # the state_at part of each, the rest is the view
    last = timeline.last_seq
    for _ in range(plan.seeks):
        seq = rng.randint(1, last)
        t0 = cpu_clock()        # CPU time: a seek the scheduler interrupts is not charged for the wait
        state = timeline.state_at(seq)
        t1 = cpu_clock()
        view(state, None)
        t2 = cpu_clock()
        state = timeline.state_at(seq - 1)
        t3 = cpu_clock()
        view(state, None)
        t4 = cpu_clock()
        seeks.append((t2 - t0) * 1e3)
        backs.append((t4 - t2) * 1e3)
        folds += [(t1 - t0) * 1e3, (t3 - t2) * 1e3]
    every = f"checkpoints every {timeline.every} events"
    split = f"state_at alone: median {fmt(statistics.median(folds))} ms, the rest is the judge view"
    return [
        figure("seek.open_ms", "seek: open the record (read, decode, fold)", "ms", opens,
               note=f"{last:,} events, {path.stat().st_size:,} bytes; {every}"),
        figure("seek.random_ms", "seek: state at a random seq", "ms", seeks, Target("<=", SEEK_TARGET_MS),
               note=f"state_at + judge view, CPU time, {plan.seeks} random seqs; "
                    f"p99 {fmt(percentile(seeks, 99))} ms; {split}"),
        figure("seek.back_ms", "seek: one event back", "ms", backs, Target("<=", SEEK_TARGET_MS),
               note=f"from each of those seqs; p99 {fmt(percentile(backs, 99))} ms"),
    ]


def bench_audit(matches: list[Match], plan: Plan, cpus: set[int] | None, work: Path) -> tuple[list[Figure], str]:
    corpus = [encode_record(m.header, m.envelopes) for m in matches]
    events = sum(m.seq for m in matches)
    one: list[float] = []
    for _ in range(plan.repeats):
        gc.collect()
        t0 = time.perf_counter()
        clean = [audit_bytes(data) for data in corpus]
        one.append(len(corpus) / (time.perf_counter() - t0))
    if not all(clean):
        raise BenchError("a freshly played record does not re-adjudicate clean: the engine is not deterministic")
    figures = [figure("audit.records_per_s", "audit: records re-adjudicated, one core", "records/s", one,
                      note=f"{events / len(corpus):,.0f} events per record; read + decode + audit")]
    workers = len(cpus) if cpus else (os.cpu_count() or 1)
    if workers > 1:
        many = _audit_all_cores(corpus, workers, cpus, plan.repeats, work)
        figures.append(figure("audit.records_per_s_all_cores", f"audit: records re-adjudicated, {workers} cores",
                              "records/s", many, note=f"{workers} worker processes, each auditing the whole corpus"))
    desc = f"{len(corpus)} self-play records ({events:,} events), each read from bytes, decoded and re-adjudicated"
    return figures, desc


def _audit_all_cores(corpus: list[bytes], workers: int, cpus: set[int] | None, repeats: int,
                     work: Path) -> list[float]:
    """Records/s of ``workers`` child processes auditing the corpus at once, from a common start.

    Plain child processes (not multiprocessing): nothing of this process is re-imported or
    forked into them. Each loads the corpus and imports Kifu first, says it is ready, and
    then audits the whole corpus each time it is told to go; the wall time runs from the go
    to the last one done."""
    folder = work / "audit"
    folder.mkdir()
    for number, data in enumerate(corpus):
        (folder / f"{number:03}.kifu.jsonl").write_bytes(data)
    allowed = ",".join(map(str, sorted(cpus))) if cpus else ""
    children = [subprocess.Popen([sys.executable, "-m", "kifu.tools.bench_work", "audit", str(folder), allowed],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=_child_env())
                for _ in range(workers)]
    inputs = [child.stdin for child in children if child.stdin is not None]   # (all: stdin=PIPE)
    rates: list[float] = []
    try:
        for child in children:
            _expect(child, "ready")
        for _ in range(repeats):
            t0 = time.perf_counter()
            for pipe in inputs:
                pipe.write("go\n")
                pipe.flush()
            for child in children:
                _expect(child, "done")
            rates.append(workers * len(corpus) / (time.perf_counter() - t0))
    finally:
        for child in children:
            if child.stdin:
                child.stdin.close()
            child.wait(timeout=60)
    return rates


def _expect(child: subprocess.Popen[str], word: str) -> None:
    line = child.stdout.readline().strip() if child.stdout else ""
    if line != word:
        raise BenchError(f"an audit worker answered {line!r} instead of {word!r} (exit {child.poll()})")


def bench_store(ruleset: Ruleset[Any, Any, Any], work: Path, plan: Plan) -> tuple[list[Figure], tuple[int, int], str]:
    from kifu.store import MatchStore

    pairs = preset_pairs(ruleset)
    rates: list[float] = []
    p50s: list[float] = []
    p99s: list[float] = []
    db_bytes = db_events = 0
    for repeat in range(plan.repeats):
        gc.collect()
        path = work / f"store-{repeat}.db"
        latencies: list[float] = []
        store = MatchStore.open(str(path))
        try:
            append = _timed_append(ruleset, store, latencies)
            events = 0
            for seed in range(1, plan.store_matches + 1):
                events += _store_play(ruleset, store, seed, pairs[seed % len(pairs)], append).seq
        finally:
            store.close()
        rates.append(len(latencies) / sum(latencies))
        p50s.append(percentile(latencies, 50) * 1e3)
        p99s.append(percentile(latencies, 99) * 1e3)
        db_bytes = sum(p.stat().st_size for p in work.glob(f"store-{repeat}.db*"))
        db_events = events
    desc = (f"{plan.store_matches} self-play match(es) per repeat into a fresh SQLite file (WAL, SQLite's default "
            f"synchronous=FULL: each commit is fsync'd), one MatchStore.append (one transaction) per decision; "
            f"only the append is timed")
    return [
        figure("store.decisions_per_s", "store: decisions appended to SQLite", "decisions/s", rates,
               note="one transaction each"),
        figure("store.p50_ms", "store: append latency p50", "ms", p50s),
        figure("store.p99_ms", "store: append latency p99", "ms", p99s, Target("<=", 5)),
    ], (db_bytes, db_events), desc


def _timed_append(ruleset: Ruleset[Any, Any, Any], store: MatchStore,
                  latencies: list[float]) -> Callable[[Match, list[Envelope[Any]], Any], None]:
    """A decision's events appended to ``store`` (one transaction), only the append timed into ``latencies``."""
    def append(match: Match, envelopes: list[Envelope[Any]], state: Any) -> None:
        t0 = time.perf_counter()
        store.append(match.header.match_id, match.seq, envelopes, outcome=ruleset.decider.outcome(state))
        latencies.append(time.perf_counter() - t0)
        match.accept(envelopes, state)

    return append


def _store_play(ruleset: Ruleset[Any, Any, Any], store: Any, seed: int, decks: Sequence[Any],
                append: Callable[[Match, list[Envelope[Any]], Any], None]) -> Match:
    match = Match.create(ruleset, match_id=str(uuid.UUID(int=seed)), seed=seed, decks=list(decks),
                         players=("random", "random"))
    store.create(match)
    bot = ruleset.content.bots["random"]

    def submit(m: Match, seat: int, command: Any, basis: int) -> list[Envelope[Any]]:
        envelopes, state = m.decide(seat, command, basis)
        append(m, envelopes, state)
        return envelopes

    drive(LocalTable(match, submit), {1: bot(seed * 2 + 1), 2: bot(seed * 2 + 2)})
    return match


def bench_size(matches: list[Match], db: tuple[int, int]) -> tuple[list[Figure], str]:
    plain = gz = events = 0
    for match in matches:
        data = encode_record(match.header, match.envelopes)
        packed = gzip.compress(data, compresslevel=6)
        if decode_record(packed)[1] != match.envelopes:
            raise BenchError("a gzip-compressed record does not read back as the same envelopes")
        plain += len(data)
        gz += len(packed)
        events += match.seq
    db_bytes, db_events = db
    figures = [
        figure("size.jsonl_bytes_per_event", "size: .kifu.jsonl", "B/event", [plain / events], Target("<=", 200),
               note="whole file (header included) / events"),
        figure("size.gz_bytes_per_event", "size: .kifu.jsonl.gz", "B/event", [gz / events],
               note="gzip -6; read back transparently (checked)"),
        figure("size.sqlite_bytes_per_event", "size: SQLite store", "B/event", [db_bytes / db_events],
               note="whole database file (tables, index, matches row) / events"),
    ]
    return figures, f"the {len(matches)} self-play records ({events:,} events); the last store repeat's database"


def bench_memory(long_path: Path, plan: Plan, ruleset: str) -> tuple[list[Figure], str]:
    base = _child_peak(["baseline", "0", ruleset])
    selfplay = [_child_peak(["selfplay", str(plan.memory_matches), ruleset])]
    replay = [_child_peak(["replay", str(long_path)])]
    note = f"child process peak RSS; python + kifu imports alone {fmt(base)} MB"
    figures = [
        figure("memory.selfplay_mb", f"memory: self-play of {plan.memory_matches} matches", "MB", selfplay,
               Target("<=", 200), note=note + "; every finished match kept"),
        figure("memory.replay_mb", f"memory: replay a {LONG_EVENTS:,}-event record", "MB", replay,
               Target("<=", 200), note=note + "; open, then show every seq"),
    ]
    return figures, "each figure measured once, in its own child process (VmHWM, else ru_maxrss)"


def _child_peak(args: list[str]) -> float:
    out = subprocess.run([sys.executable, "-m", "kifu.tools.bench_work", *args], check=True,
                         capture_output=True, text=True, env=_child_env())
    return float(json.loads(out.stdout.strip().splitlines()[-1])["peak_mb"])


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def describe_machine(pin_note: str, scratch: Path, load_before: str) -> Machine:
    return Machine(nproc=os.cpu_count() or 1, cpu=cpu_model(), python=interpreter(),
                   platform=platform.platform(terse=True), pinned=pin_note,
                   load=f"1-minute load average {load_before} before, {load_average()} after",
                   scratch=f"{tempfile.gettempdir()} ({filesystem_of(scratch)})")
