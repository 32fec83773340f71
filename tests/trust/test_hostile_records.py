"""Hostile records, generated here: each is refused by every command that reads records with a
one-line error and exit 2, within 2 seconds and 200 MB, never a traceback (issue 14).

Each case runs ``kifu verify|import|replay --at 5|why … 1|audit`` in a child process under a
200 MB address-space-independent watch: the child's peak RSS (``ru_maxrss``) and CPU time are
measured, so a reader that decompresses or splits a whole record in memory fails here. The time
bound is on the child's CPU seconds net of start-up — what the wall clock would show on a core of
its own — since on a shared machine wall time measures the neighbours; a hang still fails on the
30 s wall-clock timeout.
"""
from __future__ import annotations

import gzip
import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

KIFU = [sys.executable, "-c", "from kifu.cli.main import main; main()"]
BUDGET_S = 2.0
BUDGET_MB = 200
COMMANDS = [["verify"], ["import"], ["replay", "--at", "5"], ["why", "{}", "1"], ["audit"]]


def good_record(tmp: Path) -> bytes:
    out = tmp / "good.kifu.jsonl"
    subprocess.run([*KIFU, "--db", "memory", "play", "worlfard", "--seed", "7", "-q", "--out", str(out)],
                   check=True, capture_output=True)
    return out.read_bytes()


def corrupt_gzip(good: bytes) -> bytes:
    packed = bytearray(gzip.compress(good, mtime=0))
    packed[len(packed) // 2: len(packed) // 2 + 64] = b"\x00" * 64
    return bytes(packed)


def newline_bomb(_: bytes) -> bytes:
    """~2 MB of gzip that inflates to 2 GiB of newlines: 2,048 gzip members of 1 MiB each."""
    return gzip.compress(b"\n" * (1 << 20), mtime=0) * 2048


def deep_header(_: bytes) -> bytes:
    return b'{"kifu":"match","format":1,"start":' + b"[" * 200_000 + b"]" * 200_000 + b"}\n"


def huge_header_line(good: bytes) -> bytes:
    header = json.loads(good.split(b"\n", 1)[0])
    header["players"] = ["x" * (200 << 20), "b"]
    return json.dumps(header).encode() + b"\n" + good.split(b"\n", 1)[1]


def bad_utf8_event(good: bytes) -> bytes:
    lines = good.split(b"\n")
    lines[3] = lines[3].replace(b'"kind"', b'"ki\xc3\x28nd"', 1)
    return b"\n".join(lines)


def truncated_gzip(good: bytes) -> bytes:
    packed = gzip.compress(good, mtime=0)
    return packed[: len(packed) // 3]


def binary_junk(_: bytes) -> bytes:
    return bytes(range(256)) * 4096


def deep_event(good: bytes) -> bytes:
    lines = good.split(b"\n")
    lines[2] = b'{"seq":2,"kind":"rule","event":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    return b"\n".join(lines)


CASES: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "corrupt-gzip-block": (corrupt_gzip, ".kifu.jsonl.gz"),
    "truncated-gzip": (truncated_gzip, ".kifu.jsonl.gz"),
    "gzip-of-2GiB-newlines": (newline_bomb, ".kifu.jsonl.gz"),
    "header-nested-200000-deep": (deep_header, ".kifu.jsonl"),
    "event-nested-100000-deep": (deep_event, ".kifu.jsonl"),
    "200MB-header-line": (huge_header_line, ".kifu.jsonl"),
    "invalid-utf8-in-an-event-line": (bad_utf8_event, ".kifu.jsonl"),
    "binary-junk": (binary_junk, ".kifu.jsonl"),
}


def children_cpu() -> float:
    """CPU seconds (user + system) of every child this process has waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.fixture(scope="module")
def startup() -> float:
    """CPU seconds the interpreter takes to start and import kifu (the least of two runs)."""
    times = []
    for _ in range(2):
        before = children_cpu()
        subprocess.run([*KIFU, "--version"], check=True, capture_output=True)
        times.append(children_cpu() - before)
    return min(times)


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return good_record(tmp_path_factory.mktemp("good"))


def run_bounded(args: list[str], cwd: Path) -> tuple[int, str, float, float]:
    """(exit code, stderr, CPU seconds, peak RSS in MB) of one kifu command in a child process."""
    start = children_cpu()
    proc = subprocess.Popen([*KIFU, "--db", str(cwd / "store.db"), *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "200"})
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    OUT.append(out.decode("utf-8", "replace"))
    elapsed = children_cpu() - start
    _, status, usage = os.wait4(proc.pid, 0) if proc.returncode is None else (0, 0, None)
    peak = (usage.ru_maxrss if usage else _child_peak()) / 1024
    return proc.returncode, err.decode("utf-8", "replace"), elapsed, peak


OUT: list[str] = []


def _child_peak() -> int:
    """The largest RSS (KiB) any waited-for child reached since the last call's maximum."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_hostile_record_is_refused_in_one_line_exit_2_quickly_and_in_bounded_memory(
        case: str, command: list[str], good: bytes, startup: float, tmp_path: Path) -> None:
    make, suffix = CASES[case]
    path = tmp_path / f"hostile{suffix}"
    path.write_bytes(make(good))
    args = [a.replace("{}", str(path)) for a in command]
    if "{}" not in " ".join(command):
        args.insert(1, str(path))
    code, err, seconds, _ = run_bounded(args, tmp_path)
    assert "Traceback" not in err, err[-2000:]
    assert code == 2, (code, err[-500:])
    if command[0] == "audit":   # audit reports each record on stdout ("unreadable FILE: why"), wrapped to the terminal
        assert OUT[-1].startswith("unreadable ") and "Traceback" not in OUT[-1], OUT[-1][-1000:]
    else:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), err[-1000:]
    assert seconds - startup < BUDGET_S, f"{case}: {seconds:.2f} CPU s, of which {startup:.2f}s start-up"
    print(f"\nhostile {case} / {command[0]}: exit 2, one line, {seconds:.2f} CPU s "
          f"({seconds - startup:.2f}s net of the {startup:.2f}s start-up)")


def test_the_hostile_records_stay_under_200_MB(good: bytes, tmp_path: Path) -> None:
    """Peak memory of the costliest cases, each read by `verify` in a fresh child (RUSAGE_CHILDREN
    only grows, so each case runs in its own grandchild and reports its own peak)."""
    for case in ("gzip-of-2GiB-newlines", "200MB-header-line", "header-nested-200000-deep"):
        make, suffix = CASES[case]
        path = tmp_path / f"{case}{suffix}"
        path.write_bytes(make(good))
        probe = ("import resource, subprocess, sys; "
                 f"subprocess.run({[*KIFU, 'verify', str(path)]!r}, capture_output=True); "
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
        peak_kb = int(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                     check=True).stdout.strip())
        assert peak_kb / 1024 < BUDGET_MB, f"{case}: peak RSS {peak_kb / 1024:.0f} MB"
        print(f"\nhostile {case} / verify: peak RSS {peak_kb / 1024:.0f} MB")
