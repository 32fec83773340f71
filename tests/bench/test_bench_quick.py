"""``kifu bench --quick --json`` as CI runs it: every figure is there and positive; no timing is asserted."""
from __future__ import annotations

import json
import os
import platform

from click.testing import CliRunner

from kifu.cli.main import cli

EXPECTED = {
    "selfplay.matches_per_s", "selfplay.matches_per_cpu_s",
    "selfplay.greedy_matches_per_s", "selfplay.greedy_matches_per_cpu_s",
    "selfplay.decisions_per_s", "selfplay.decisions_per_cpu_s", "selfplay.events_per_s", "selfplay.events_per_match",
    "selfplay.unsealed_decisions_per_cpu_s",
    "chess.plies_per_cpu_s", "selfplay.vs_chess", "selfplay.unsealed_vs_chess",
    "fold.events_per_s", "fold.eventsourcing_events_per_s", "fold.ratio",
    "seek.open_ms", "seek.random_ms", "seek.back_ms", "long.events",
    "store.decisions_per_s", "store.p50_ms", "store.p99_ms",
    "audit.records_per_s",
    "size.jsonl_bytes_per_event", "size.gz_bytes_per_event", "size.sqlite_bytes_per_event",
    "memory.selfplay_mb", "memory.replay_mb",
}


def test_the_quick_benchmark_reports_every_figure_with_its_target() -> None:
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    result = CliRunner().invoke(cli, ["bench", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["mode"] == "quick"
    figures = {f["key"]: f for f in report["figures"]}
    assert EXPECTED <= set(figures)
    for key, f in figures.items():
        assert f["median"] > 0 and 0 < f["min"] <= f["median"] <= f["max"], key
        assert f["samples"] >= 1, key
        if f.get("target") is not None:
            assert isinstance(f["met"], bool), key
    assert figures["fold.events_per_s"]["target"] == {"op": ">=", "value": 500_000}
    assert figures["selfplay.vs_chess"]["target"] == {"op": ">=", "value": 1.0}   # WORLFARD, record kept
    assert figures["selfplay.greedy_matches_per_cpu_s"]["target"] == {"op": ">=", "value": 30}
    assert figures["fold.ratio"]["target"] == {"op": ">=", "value": 20}
    assert figures["seek.random_ms"]["target"] == {"op": "<=", "value": 1.0}
    assert report["machine"]["nproc"] >= 1
    # the interpreter build is part of the figures: version, executable, how libpython is linked
    assert report["machine"]["python"].startswith(platform.python_version() + " (")
    assert "libpython" in report["machine"]["python"]
    assert {"self-play", "long record", "store", "audit", "size", "memory"} <= set(report["workloads"])
    if affinity is not None:   # the run pins itself to one core, and gives the affinity back
        assert os.sched_getaffinity(0) == affinity
