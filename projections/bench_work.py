"""What ``kifu bench`` runs: the workloads, the machine it runs on, and its child processes.

The workloads are played by the random bots from fixed seeds, so every run measures the same
work. ``python -m projections.bench_work CHILD …`` is how the bench starts a child process: one
that reports its own peak memory, or an audit worker for the all-cores figure.
"""
from __future__ import annotations

import json
import os
import platform
import sys
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

import msgspec

from domain.core.errors import KifuError
from domain.core.header import Header
from domain.core.match import Match
from domain.core.record import decode_record
from domain.core.ruleset import Ruleset, find_ruleset
from projections.audit import audit
from projections.timeline import Timeline

RULESET = "worlfard"
LONG_EVENTS = 10_000
LONG_DECK_COPIES = 10
LONG_LIFE = 1_000
MAX_DECISIONS = 50_000   # a random match that has not ended by then is a bug, not a long game


class BenchError(KifuError):
    """The engine misbehaved while being measured (a legal decision refused, a record that diverges)."""


# -- workloads ------------------------------------------------------------------------------------
def preset_pairs(ruleset: Ruleset[Any, Any, Any]) -> list[tuple[Any, Any]]:
    names = ruleset.presets()
    decks = [ruleset.load_deck(name) for name in names]
    return [(decks[i], decks[(i + 1) % len(decks)]) for i in range(len(decks))]


def play(ruleset: Ruleset[Any, Any, Any], seed: int, decks: Sequence[Any], *, start: Any = None,
         until: int | None = None) -> tuple[Match, int]:
    """A random-vs-random match (bots seeded as ``kifu play`` seeds them); returns it and its decision count."""
    match = Match.create(ruleset, match_id=str(uuid.UUID(int=seed)), seed=seed, decks=list(decks),
                         players=("random", "random"), start=start)
    bot = ruleset.bots["random"]
    bots = {1: bot(seed * 2 + 1), 2: bot(seed * 2 + 2)}
    decisions = 0
    while match.outcome is None and (until is None or match.seq < until):
        seat = match.awaiting
        assert seat is not None, "no outcome, yet nobody is awaited"
        command = bots[seat].choose(match.legal(seat), match.state, seat)
        try:
            match.submit(seat, command)
        except KifuError as exc:
            raise BenchError(f"seed {seed}, seq {match.seq}: the engine refused {command!r}, which legal() "
                             f"offered seat {seat}: {exc}") from exc
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise BenchError(f"seed {seed}: no outcome after {MAX_DECISIONS} decisions")
    return match, decisions


def long_record(ruleset: Ruleset[Any, Any, Any], events: int = LONG_EVENTS) -> tuple[Match, str]:
    """One match of at least ``events`` events from a prepared position (see the module doc)."""
    base = [ruleset.load_deck(name) for name in ruleset.presets()[:2]]
    big = tuple(msgspec.structs.replace(deck, cards=deck.cards * LONG_DECK_COPIES) for deck in base)
    for seed in range(1, 11):
        setup = Match.start(ruleset, Header(
            match_id=str(uuid.UUID(int=10_000 + seed)), ruleset=ruleset.name, rules_version=ruleset.rules_version,
            card_set=ruleset.card_set_digest(), seed=seed, players=("random", "random"), decks=big))
        state = setup.state
        prepared = msgspec.structs.replace(
            state, sides=tuple(msgspec.structs.replace(side, life=LONG_LIFE) for side in state.sides))
        match, _ = play(ruleset, seed, base, start=prepared, until=events)
        if match.seq >= events:
            cards = "/".join(str(len(deck.cards)) for deck in big)
            how = (f"seed {seed}: setup of {cards}-card decks ({LONG_DECK_COPIES}× presets "
                   f"{ruleset.presets()[0]}, {ruleset.presets()[1]}), life {LONG_LIFE}, prepared as one setup "
                   f"event; random play to {match.seq} events (turn {getattr(match.state, 'turn', '?')}, "
                   f"{'in progress' if match.outcome is None else 'over'})")
            return match, how
    raise BenchError(f"no prepared match reached {events} events in 10 seeds")


# -- the machine ----------------------------------------------------------------------------------
def allowed_cpus() -> set[int] | None:
    return set(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None


@contextmanager
def pinned(cpus: set[int] | None) -> Iterator[str]:
    """Pin this process to one core for the run, and give the affinity back afterwards."""
    if cpus is None or not hasattr(os, "sched_setaffinity"):
        yield "not pinned (no os.sched_setaffinity on this platform)"
        return
    cpu = max(cpus)
    os.sched_setaffinity(0, {cpu})
    try:
        yield f"pinned to CPU {cpu} (os.sched_setaffinity) of {len(cpus)} allowed"
    finally:
        os.sched_setaffinity(0, cpus)


def _unpin(cpus: set[int] | None) -> None:
    if cpus and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cpus)


def load_average() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "?"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def filesystem_of(path: Path) -> str:
    """The file system type of the mount holding ``path`` (SQLite commit latency depends on it)."""
    best, kind = "", "unknown file system"
    try:
        target = str(path.resolve())
        for line in Path("/proc/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) >= 3 and (target == parts[1] or target.startswith(parts[1].rstrip("/") + "/")):
                if len(parts[1]) >= len(best):
                    best, kind = parts[1], parts[2]
    except OSError:
        pass
    return kind


# -- child processes ----------------------------------------------------------------------------
def audit_bytes(data: bytes) -> bool:
    header, envelopes, ruleset = decode_record(data)
    return audit(ruleset, header, envelopes).clean


def _audit_worker(folder: str, allowed: str) -> None:
    if allowed:
        _unpin({int(cpu) for cpu in allowed.split(",")})
    corpus = [path.read_bytes() for path in sorted(Path(folder).iterdir())]
    audit_bytes(corpus[0])   # warm: every import done, every decoder built
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "go":
            break
        if not all(audit_bytes(data) for data in corpus):
            print("diverged", flush=True)
            return
        print("done", flush=True)


def _peak_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _child(args: list[str]) -> None:
    what = args[0]
    if what == "audit":
        _audit_worker(args[1], args[2])
        return
    ruleset = find_ruleset(RULESET)
    if what == "selfplay":
        pairs = preset_pairs(ruleset)
        kept = [play(ruleset, seed, pairs[seed % len(pairs)])[0] for seed in range(1, int(args[1]) + 1)]
        assert len(kept) == int(args[1])
    elif what == "replay":
        header, envelopes, rules = decode_record(Path(args[1]).read_bytes(), args[1])
        timeline = Timeline(rules, header, envelopes)
        for seq in range(timeline.last_seq + 1):
            rules.view(timeline.state_at(seq), None)
    elif what != "baseline":
        raise SystemExit(f"unknown child {what!r}")
    print(json.dumps({"peak_mb": _peak_mb()}))


if __name__ == "__main__":
    _child(sys.argv[1:])
