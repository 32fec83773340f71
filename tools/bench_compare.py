"""Figures of a run set against a saved baseline (``kifu bench --compare``, ``kifu loadtest --compare``).

A figure has moved only when the change is larger than its noise: the spread (min–max around the
median) of either run, and never less than a floor, because two runs on a shared machine differ
by that much with no change to the code. Which way is worse comes from the figure's target, else
from its unit (rates are better higher; times, sizes and memory lower); counts are only shown.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, NamedTuple

import msgspec

from kifu.domain.core.errors import Malformed

Better = Literal["higher", "lower", ""]
BENCH_FLOOR = 0.05     # a bench figure is the median of repeats on a pinned core
LOAD_FLOOR = 0.15      # a load test is one run of two processes sharing the machine


class Point(NamedTuple):
    key: str
    label: str
    median: float
    low: float
    high: float
    better: Better


class Change(NamedTuple):
    label: str
    base: float
    now: float
    ratio: float        # now / base
    noise: float        # the relative change that counts as noise for this figure
    verdict: Literal["worse", "better", "same", "—"]


def better_of(unit: str, target_op: str | None) -> Better:
    if target_op is not None:
        return "higher" if target_op == ">=" else "lower"
    if unit.endswith("/s") or unit.startswith("×"):
        return "higher"
    if unit in ("ms", "MB", "B/event"):
        return "lower"
    return ""


def bench_points(report: dict[str, Any]) -> list[Point]:
    """The figures of a ``kifu bench --json`` report."""
    out = []
    for f in report.get("figures", []):
        target = f.get("target")
        out.append(Point(f["key"], f["label"], f["median"], f["min"], f["max"],
                         better_of(f["unit"], target["op"] if target else None)))
    return out


def load_points(report: dict[str, Any]) -> list[Point]:
    """The figures of a ``kifu loadtest --json`` report (one run: no spread of its own)."""
    rate = float(report["decisions_per_s"])
    out = [Point("decisions_per_s", "decisions/s", rate, rate, rate, "higher")]
    for name in ("latency_ms", "view_latency_ms"):
        for q in ("p50", "p95", "p99"):
            v = float(report[name][q])
            out.append(Point(f"{name}.{q}", f"{'decision' if name == 'latency_ms' else 'view'} {q} ms", v, v, v,
                             "lower"))
    if report.get("client_cpu_ms"):
        v = float(report["client_cpu_ms"])
        out.append(Point("client_cpu_ms", "load generator CPU ms per decision", v, v, v, "lower"))
    return out


def read_report(path: str) -> dict[str, Any]:
    """A saved ``--json`` report; a missing or unreadable file is one clear error."""
    try:
        data = msgspec.json.decode(Path(path).read_bytes())
    except OSError as exc:
        raise Malformed(f"cannot read the baseline ({exc.strerror})", path) from None
    except msgspec.DecodeError as exc:
        raise Malformed(f"the baseline is not JSON ({exc})", path) from None
    if not isinstance(data, dict):
        raise Malformed("the baseline is not a saved --json report", path)
    return data


def compare(base: list[Point], now: list[Point], floor: float) -> list[Change]:
    """Every figure present in both runs, in the current run's order."""
    known = {p.key: p for p in base}
    out = []
    for p in now:
        b = known.get(p.key)
        if b is None or b.median == 0:
            continue
        noise = max(floor, _spread(b), _spread(p))
        ratio = p.median / b.median
        verdict: Literal["worse", "better", "same", "—"] = "—"
        if p.better:
            worse = ratio < 1 - noise if p.better == "higher" else ratio > 1 + noise
            improved = ratio > 1 + noise if p.better == "higher" else ratio < 1 - noise
            verdict = "worse" if worse else "better" if improved else "same"
        out.append(Change(p.label, b.median, p.median, ratio, noise, verdict))
    return out


def _spread(p: Point) -> float:
    """Half the min–max range around the median, relative to it."""
    return (p.high - p.low) / 2 / p.median if p.median else 0.0
