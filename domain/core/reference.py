"""A ruleset's rules reference, loaded from its ``data/rules.toml``, for any clause prefix.

``implemented_in`` is derived from the ruleset's own source (the modules that cite the clause)
and ``tested_in`` from the tests named for it (``test_R_3_2_…`` tests R-3.2), so the reference
can never claim an implementation or a test that is not there. A section heading (``R-3``) is
tested through its sub-clauses' tests.
"""
from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Callable

import msgspec

from .commit import CORE_CLAUSES
from .ruleset import ClauseEntry


class _Reference(msgspec.Struct, frozen=True):
    clause: tuple[ClauseEntry, ...] = ()


_CORE_TEST = re.compile(r"^\s*def (test_K_(seal|reveal|seed|prepared)_\w*)\(", re.M)


@cache
def core_tests(tests_root: Path) -> dict[str, tuple[str, ...]]:
    """Core clause id (K-seal, …) -> the tests named for it (``test_K_seal_…``)."""
    found: dict[str, list[str]] = {}
    if tests_root.is_dir():
        for path in sorted(tests_root.rglob("test_*.py")):
            for name, clause in _CORE_TEST.findall(path.read_text("utf-8")):
                found.setdefault(f"K-{clause}", []).append(f"{path.relative_to(tests_root.parent)}::{name}")
    return {k: tuple(v) for k, v in found.items()}


def core_clauses(tests_root: Path | None = None) -> dict[str, ClauseEntry]:
    """The core's own clauses (sealed decisions, reveals, the seed), cited by every ruleset."""
    tests = core_tests(tests_root or Path(__file__).resolve().parents[2] / "tests")
    return {cid: ClauseEntry(id=cid, title=title, text=text, implemented_in="domain/core/match.py",
                             tested_in=f"{len(tests[cid])} tests, e.g. {tests[cid][0]}" if cid in tests else "")
            for cid, (title, text) in CORE_CLAUSES.items()}


class RulesReference:
    """The reference of one ruleset package whose clause ids start with ``prefix`` ("W", "R", …)."""

    def __init__(self, package: str, prefix: str, tests_root: Path | None = None) -> None:
        self.package = package
        self.prefix = prefix
        self.cited_pattern = re.compile(rf"\b({prefix}-(?:\d+(?:\.\d+)*|Q\d+|C\d+))(?![\d])")
        self.test_pattern = re.compile(rf"^\s*def (test_{prefix}_([QC]?\d+)((?:_\d+)*)_\w*)\(", re.M)
        self.tests_root = tests_root if tests_root is not None else Path(__file__).resolve().parents[2] / "tests"
        self.clauses: Callable[[], dict[str, ClauseEntry]] = cache(self._clauses)

    def citations(self) -> dict[str, tuple[str, ...]]:
        """Clause id -> the modules of the package whose code or docstrings cite it."""
        root = resources.files(self.package)
        found: dict[str, set[str]] = {}
        folder = self.package.replace(".", "/")
        for entry in root.iterdir():
            if entry.name.endswith(".py"):
                for clause in self.cited_pattern.findall(entry.read_text("utf-8")):
                    found.setdefault(clause, set()).add(f"{folder}/{entry.name}")
        return {k: tuple(sorted(v)) for k, v in found.items()}

    def tests_by_clause(self) -> dict[str, tuple[str, ...]]:
        """Clause id -> the tests named for it (in a source checkout, where tests/ sits beside domain/)."""
        if not self.tests_root.is_dir():
            return {}
        found: dict[str, list[str]] = {}
        for path in sorted(self.tests_root.rglob("test_*.py")):
            for name, major, minor in self.test_pattern.findall(path.read_text("utf-8")):
                clause = f"{self.prefix}-{major}" + ("" if major[0] in "QC" else minor.replace("_", "."))
                found.setdefault(clause, []).append(f"{path.relative_to(self.tests_root.parent)}::{name}")
        return {k: tuple(v) for k, v in found.items()}

    def _clauses(self) -> dict[str, ClauseEntry]:
        path = resources.files(f"{self.package}.data").joinpath("rules.toml")
        data = tomllib.loads(path.read_text("utf-8"))
        cited = self.citations()
        tests = self.tests_by_clause()
        out = {}
        for entry in msgspec.convert(data, _Reference).clause:
            if not entry.implemented_in and entry.id in cited:
                entry = msgspec.structs.replace(entry, implemented_in=", ".join(cited[entry.id]))
            tested = tests.get(entry.id) or self._section_tests(entry.id, tests)
            if tested and not entry.tested_in:
                entry = msgspec.structs.replace(entry, tested_in=f"{len(tested)} tests, e.g. {tested[0]}")
            out[entry.id] = entry
        out.update(core_clauses(self.tests_root))
        return out

    def _section_tests(self, clause: str, tests: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        if "." in clause or clause[len(self.prefix) + 1] in "QC":
            return ()
        prefix = clause + "."
        return tuple(t for k, found in tests.items() if k.startswith(prefix) for t in found)
