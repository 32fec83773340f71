"""The pytest plugin: which records it collects (ini option, command line, testpaths) and how it fails."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from corpus_helpers import copy_records

pytest_plugins = ["pytester"]


@pytest.fixture()
def two(fresh: list[Path]) -> list[Path]:
    """Two short scenario records (one with probes)."""
    names = ("W-6.4-redundant-tower-rejected", "W-11.3-top-most-broken-heart-recovers")
    return [p for p in fresh if p.name.removesuffix(".kifu.jsonl") in names]


def test_testpaths_runs_also_collect_the_default_replays_folder(pytester: pytest.Pytester, two: list[Path]) -> None:
    pytester.makeini("[pytest]\ntestpaths = tests\n")
    pytester.mkdir("tests")
    pytester.makepyfile(**{"tests/test_nothing": "def test_ok():\n    pass\n"})
    copy_records(two, pytester.path / "replays" / "worlfard")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=3)
    assert "W-6.4-redundant-tower-rejected.kifu.jsonl::readjudicate PASSED" in result.stdout.str()
    only_tests = pytester.runpytest_inprocess("-p", "no:cacheprovider", "tests")
    only_tests.assert_outcomes(passed=1)


def test_the_ini_option_names_the_folders(pytester: pytest.Pytester, two: list[Path]) -> None:
    pytester.makeini("[pytest]\nkifu_replays = corpus\n")
    copy_records(two, pytester.path / "corpus")
    copy_records(two, pytester.path / "elsewhere")   # records outside the configured folders are data
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_failures_name_the_problem(pytester: pytest.Pytester, two: list[Path]) -> None:
    """An unreadable record names its line and format; a probe the engine now accepts names its clause."""
    [record, _] = sorted(copy_records(two, pytester.path / "replays"), key=lambda p: not p.name.startswith("W-6.4"))
    (pytester.path / "replays" / "broken.kifu.jsonl").write_text('{"kifu":"match","format":99}\n')
    probes = record.with_name(record.name.replace(".kifu.jsonl", ".probes.json"))
    data = json.loads(probes.read_text())
    data["probes"][0]["command"]["towers"] = [1]   # the payment the record itself makes: accepted
    probes.write_text(json.dumps(data))
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=2, passed=1)
    out = result.stdout.str()
    assert "unreadable" in out and "format 99" in out
    assert "clause W-6.4" in out and "expects to be refused citing W-6.4" in out and "update or remove the probe" in out
