"""What ``kifu bench`` runs: the workloads, the machine it runs on, and its child processes.

The workloads are played by the random bots from fixed seeds, so every run measures the same
work. ``python -m kifu.tools.bench_work CHILD …`` is how the bench starts a child process: one
that reports its own peak memory, or an audit worker for the all-cores figure
(``selfplay N RULESET``: N matches with the record kept; ``selfplay-unsealed N RULESET``: the same
under ``seal_later``; ``baseline 0 RULESET``: the imports alone).
"""
from __future__ import annotations

import json
import os
import platform
import sys
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kifu.domain.core.driver import LocalTable, drive
from kifu.domain.core.errors import KifuError
from kifu.domain.core.match import Match
from kifu.domain.core.record import decode_record
from kifu.domain.core.ruleset import Ruleset, find_ruleset
from kifu.projections.audit import audit
from kifu.projections.timeline import Timeline

RULESET = "worlfard"     # the default; `kifu bench --ruleset` measures any
LONG_EVENTS = 10_000
MAX_DECISIONS = 50_000   # a random match that has not ended by then is a bug, not a long game


class BenchError(KifuError):
    """The engine misbehaved while being measured (a legal decision refused, a record that diverges)."""


# -- workloads ------------------------------------------------------------------------------------
def preset_pairs(ruleset: Ruleset[Any, Any, Any]) -> list[tuple[Any, Any]]:
    names = ruleset.content.presets()
    decks = [ruleset.content.load_deck(name) for name in names]
    return [(decks[i], decks[(i + 1) % len(decks)]) for i in range(len(decks))]


def play(ruleset: Ruleset[Any, Any, Any], seed: int, decks: Sequence[Any], *, start: Any = None,
         until: int | None = None, players: tuple[str, str] = ("random", "random"),
         sealed: bool = True) -> tuple[Match, int]:
    """A bot match, random vs random unless ``players`` names other bots (seeded as ``kifu play``
    seeds them); returns it and its decision count. Sealed (the default), each decision is
    digested and chained as it is taken, as ``kifu play --out`` keeps its record; unsealed, under
    ``seal_later`` (sealed only if the record is read)."""
    match = Match.create(ruleset, match_id=str(uuid.UUID(int=seed)), seed=seed, decks=list(decks),
                         players=players, start=start)
    if not sealed:
        match.seal_later()
    bots = {1: ruleset.content.bots[players[0]](seed * 2 + 1), 2: ruleset.content.bots[players[1]](seed * 2 + 2)}
    decisions = drive(LocalTable(match, _checked(seed)), bots, limit=MAX_DECISIONS,
                      until=None if until is None else (lambda: match.seq >= until))
    return match, decisions


def _checked(seed: int) -> Any:
    def submit(match: Match, seat: int, command: Any, basis: int) -> Any:
        try:
            return match.submit(seat, command, basis)
        except KifuError as exc:
            raise BenchError(f"seed {seed}, seq {match.seq}: the engine refused {command!r}, which legal() "
                             f"offered seat {seat}: {exc}") from exc
    return submit


def long_record(ruleset: Ruleset[Any, Any, Any], events: int = LONG_EVENTS) -> tuple[Match, str]:
    """One match of at least ``events`` events: from the ruleset's ``long_match`` position where it
    has one, else the longest natural random match of a few seeds (cut at ``events``)."""
    if ruleset.bench.long_match is not None:
        for seed in range(1, 11):
            decks, start = ruleset.bench.long_match(seed)
            match, _ = play(ruleset, seed, decks, start=start, until=events)
            if match.seq >= events:
                return match, (f"seed {seed}: the ruleset's long-match position (its long_match hook: bigger "
                               f"decks, a longer life), prepared as one setup event; random play to {match.seq} "
                               f"events (turn {ruleset.presentation.turn(match.state)}, "
                               f"{'in progress' if match.outcome is None else 'over'})")
        raise BenchError(f"no prepared match reached {events} events in 10 seeds")
    pairs = preset_pairs(ruleset)
    longest = max((play(ruleset, seed, pairs[seed % len(pairs)], until=events)[0] for seed in range(1, 21)),
                  key=lambda m: m.seq)
    return longest, (f"the longest of 20 natural random matches ({longest.seq} events; the ruleset has no "
                     "long_match position)")


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


def interpreter() -> str:
    """Which CPython build runs the bench: its version, executable, and whether the interpreter is
    in a shared libpython (an ``--enable-shared`` build without PGO, such as pyenv's, runs Kifu
    10–20 % slower than Debian's statically linked, PGO-built one: the figures depend on it)."""
    try:
        maps = Path("/proc/self/maps").read_text()
        linked = "shared libpython" if "libpython" in maps else "libpython linked in"
    except OSError:
        linked = "libpython linkage unknown"
    return f"{platform.python_version()} ({os.path.realpath(sys.executable)}, {linked})"


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
    ruleset = find_ruleset(args[2] if len(args) > 2 else RULESET)
    if what in ("selfplay", "selfplay-unsealed"):   # (the second also how docs/performance.md counts instructions)
        pairs = preset_pairs(ruleset)
        kept = [play(ruleset, seed, pairs[seed % len(pairs)], sealed=what == "selfplay")[0]
                for seed in range(1, int(args[1]) + 1)]
        assert len(kept) == int(args[1])
    elif what == "replay":
        header, envelopes, rules = decode_record(Path(args[1]).read_bytes(), args[1])
        timeline = Timeline(rules, header, envelopes)
        for seq in range(timeline.last_seq + 1):
            rules.decider.view(timeline.state_at(seq), None)
    elif what != "baseline":
        raise SystemExit(f"unknown child {what!r}")
    print(json.dumps({"peak_mb": _peak_mb()}))


if __name__ == "__main__":
    _child(sys.argv[1:])
