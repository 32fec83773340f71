"""``--compare``: a figure is marked worse or better only when it moved by more than its noise."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.errors import Malformed
from kifu.tools.bench_compare import BENCH_FLOOR, Point, compare, load_points, read_report


def _rate(median: float, low: float, high: float) -> Point:
    return Point("selfplay.matches_per_s", "self-play: matches", median, low, high, "higher")


def test_a_rate_that_falls_past_its_spread_is_worse_and_one_inside_it_is_the_same() -> None:
    base = [_rate(60, 57, 63), Point("seek.random_ms", "seek", 1.0, 0.9, 1.1, "lower")]
    fell = compare(base, [_rate(50, 49, 51), Point("seek.random_ms", "seek", 0.5, 0.45, 0.55, "lower")], BENCH_FLOOR)
    assert [c.verdict for c in fell] == ["worse", "better"]
    wobble = compare(base, [_rate(58, 56, 61), Point("seek.random_ms", "seek", 1.04, 1.0, 1.1, "lower")],
                     BENCH_FLOOR)
    assert [c.verdict for c in wobble] == ["same", "same"]


def test_a_noisy_baseline_widens_what_counts_as_noise() -> None:
    [change] = compare([_rate(60, 45, 75)], [_rate(47, 46, 48)], BENCH_FLOOR)   # ±25% spread in the baseline
    assert change.verdict == "same" and change.noise == pytest.approx(0.25)


def test_counts_without_a_direction_are_shown_but_never_judged() -> None:
    [change] = compare([Point("selfplay.events_per_match", "events", 1700, 1700, 1700, "")],
                       [Point("selfplay.events_per_match", "events", 900, 900, 900, "")], BENCH_FLOOR)
    assert change.verdict == "—" and change.ratio == pytest.approx(900 / 1700)


def test_load_reports_compare_rate_and_latencies() -> None:
    report = {"decisions_per_s": 200.0, "latency_ms": {"p50": 10, "p95": 20, "p99": 40},
              "view_latency_ms": {"p50": 5, "p95": 8, "p99": 9}, "client_cpu_ms": 1.2}
    slower = {**report, "decisions_per_s": 150.0, "latency_ms": {"p50": 10, "p95": 20, "p99": 80}}
    verdicts = {c.label: c.verdict for c in compare(load_points(report), load_points(slower), 0.15)}
    assert verdicts["decisions/s"] == "worse" and verdicts["decision p99 ms"] == "worse"
    assert verdicts["decision p50 ms"] == "same"


def test_an_unreadable_baseline_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(Malformed, match="cannot read the baseline"):
        read_report(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    result = CliRunner().invoke(cli, ["bench", "--quick", "--compare", str(bad)])
    assert result.exit_code != 0 and "not JSON" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_bench_compare_prints_each_figure_against_the_saved_run(tmp_path: Path) -> None:
    saved = CliRunner().invoke(cli, ["bench", "--quick", "--json"])
    assert saved.exit_code == 0, saved.output
    path = tmp_path / "base.json"
    path.write_text(saved.stdout)
    result = CliRunner().invoke(cli, ["bench", "--quick", "--compare", str(path)])
    assert result.exit_code == 0, result.output
    assert f"against {path}" in result.output
    assert json.loads(saved.stdout)["figures"][0]["label"] in result.output
