"""A ruleset's rules reference: its ``data/rules.toml`` joined with where each clause is implemented
and which tests are named for it.

``implemented_in`` comes from the declarations on the implementing code (``clauses.implements`` /
``clauses.declare``), never from clause ids found in source text; ``tested_in`` from the package's
committed test index (``data/tested.json``, written by ``python -m kifu.tools.clause_index`` from
the test names, ``test_M_2_1_…`` tests M-2.1, and kept current by a test). Nothing here reads a
test file or a source file. A section heading (``R-3``) is covered through its sub-clauses.
"""
from __future__ import annotations

import json
import tomllib
from importlib import resources
from importlib.abc import Traversable

import msgspec

from .clauses import Declaration, declared
from .commit import CORE_CLAUSES
from .judging import JUDGE_CLAUSES
from .ruleset import ClauseEntry

TESTED_INDEX = "tested.json"
CORE_PACKAGE = "kifu.domain.core"


class _Stated(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A clause as rules.toml states it: the data says what a clause is, never where it lives."""

    id: str
    title: str
    text: str
    original: str = ""
    interpretation: str = ""


class _Toml(msgspec.Struct, frozen=True):
    clause: tuple[_Stated, ...] = ()


def read_index(folder: Traversable) -> dict[str, tuple[str, ...]]:
    """Clause id -> test ids, from a committed test index (empty when there is none)."""
    path = folder.joinpath(TESTED_INDEX)
    if not path.is_file():
        return {}
    return {k: tuple(v) for k, v in json.loads(path.read_text("utf-8")).items()}


def _entry(stated: _Stated, decls: tuple[Declaration, ...], tests: tuple[str, ...]) -> ClauseEntry:
    return ClauseEntry(id=stated.id, title=stated.title, text=stated.text, original=stated.original,
                       interpretation=stated.interpretation,
                       implemented_in=tuple(d.where for d in decls), tested_in=tests)


def core_clauses() -> dict[str, ClauseEntry]:
    """The core's own clauses (sealed decisions, reveals, the seed), cited by every ruleset."""
    decls = declared(CORE_PACKAGE)
    tests = read_index(resources.files(CORE_PACKAGE))
    return {cid: _entry(_Stated(id=cid, title=title, text=text), decls.get(cid, ()), tests.get(cid, ()))
            for cid, (title, text) in {**CORE_CLAUSES, **JUDGE_CLAUSES}.items()}


class RulesReference:
    """The reference of one ruleset package whose clause ids start with ``prefix`` ("W", "R", …)."""

    def __init__(self, package: str, prefix: str) -> None:
        self.package = package
        self.prefix = prefix
        self._loaded: dict[str, ClauseEntry] | None = None

    @property
    def data(self) -> Traversable:
        """The package's data folder (rules.toml and the committed test index)."""
        return resources.files(f"{self.package}.data")

    def stated(self) -> tuple[_Stated, ...]:
        """The clauses as rules.toml states them, in its order."""
        return msgspec.convert(tomllib.loads(self.data.joinpath("rules.toml").read_text("utf-8")), _Toml).clause

    def clauses(self) -> dict[str, ClauseEntry]:
        """Clause id -> entry, with the core's K- clauses after the ruleset's own (loaded once)."""
        if self._loaded is None:
            decls = declared(self.package)
            tests = read_index(self.data)
            out = {s.id: _entry(s, decls.get(s.id, ()), tests.get(s.id, ())) for s in self.stated()}
            out.update(core_clauses())
            self._loaded = out
        return self._loaded


def headings(ids: list[str]) -> set[str]:
    """The ids that head a section: some other id continues them (``M-2`` heads ``M-2.1``)."""
    return {i for i in ids if any(j.startswith(i + ".") for j in ids)}


class Coverage(msgspec.Struct, frozen=True, kw_only=True):
    """How much of a reference is declared on code and tested by name.

    A heading counts as declared (tested) when it is itself, or when any of its sub-clauses is."""

    clauses: int
    declared: int
    tested: int
    headings: tuple[str, ...]
    not_declared: tuple[str, ...]
    not_tested: tuple[str, ...]


def coverage(entries: dict[str, ClauseEntry]) -> Coverage:
    """The coverage of ``entries`` (a ruleset's ``clauses()``)."""
    ids = list(entries)
    heads = headings(ids)

    def has(cid: str, field: str) -> bool:
        if getattr(entries[cid], field):
            return True
        return cid in heads and any(getattr(entries[j], field) for j in ids if j.startswith(cid + "."))

    undeclared = tuple(i for i in ids if not has(i, "implemented_in"))
    untested = tuple(i for i in ids if not has(i, "tested_in"))
    return Coverage(clauses=len(ids), declared=len(ids) - len(undeclared), tested=len(ids) - len(untested),
                    headings=tuple(i for i in ids if i in heads), not_declared=undeclared, not_tested=untested)
