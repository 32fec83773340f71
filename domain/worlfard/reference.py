"""The WORLFARD rules reference: every clause id with its text, loaded from data/rules.toml.

``implemented_in`` is derived from the engine's own source (the modules that cite the clause),
so the reference can never claim an implementation that is not there.
"""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from functools import cache
from importlib import resources

import msgspec

from domain.core.ruleset import ClauseEntry


class _Reference(msgspec.Struct, frozen=True):
    clause: tuple[ClauseEntry, ...] = ()


_CITED = re.compile(r"\b(W-(?:\d+(?:\.\d+)?|Q\d+))(?![\d])")


@cache
def citations() -> dict[str, tuple[str, ...]]:
    """Clause id -> the engine modules whose code or docstrings cite it."""
    package = resources.files("domain.worlfard")
    found: dict[str, set[str]] = {}
    for entry in package.iterdir():
        if entry.name.endswith(".py"):
            for clause in _CITED.findall(entry.read_text("utf-8")):
                found.setdefault(clause, set()).add(f"domain/worlfard/{entry.name}")
    return {k: tuple(sorted(v)) for k, v in found.items()}


_TEST = re.compile(r"^def (test_W_(Q?\d+)(?:_(\d+))?_\w*)\(", re.M)


@cache
def tests_by_clause() -> dict[str, tuple[str, ...]]:
    """Clause id -> the tests named for it (in a source checkout, where tests/ sits beside domain/)."""
    root = Path(__file__).resolve().parents[2] / "tests"
    found: dict[str, list[str]] = {}
    if not root.is_dir():
        return {}
    for path in sorted(root.rglob("test_*.py")):
        for name, major, minor in _TEST.findall(path.read_text("utf-8")):
            clause = f"W-{major}" + (f".{minor}" if minor and not major.startswith("Q") else "")
            found.setdefault(clause, []).append(f"{path.relative_to(root.parent)}::{name}")
    return {k: tuple(v) for k, v in found.items()}


def _section_tests(clause: str) -> tuple[str, ...]:
    """A section heading (W-12) is tested through the tests of its sub-clauses (W-12.1 …)."""
    if "." in clause or clause.startswith("W-Q"):
        return ()
    prefix = clause + "."
    return tuple(t for k, tests in tests_by_clause().items() if k.startswith(prefix) for t in tests)


@cache
def clauses() -> dict[str, ClauseEntry]:
    path = resources.files("domain.worlfard.data").joinpath("rules.toml")
    data = tomllib.loads(path.read_text("utf-8"))
    cited = citations()
    out = {}
    for entry in msgspec.convert(data, _Reference).clause:
        if not entry.implemented_in and entry.id in cited:
            entry = msgspec.structs.replace(entry, implemented_in=", ".join(cited[entry.id]))
        tested = tests_by_clause().get(entry.id) or _section_tests(entry.id)
        if tested and not entry.tested_in:
            entry = msgspec.structs.replace(entry, tested_in=f"{len(tested)} tests, e.g. {tested[0]}")
        out[entry.id] = entry
    return out
