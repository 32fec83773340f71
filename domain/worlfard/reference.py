"""The WORLFARD rules reference: every clause id with its text, loaded from data/rules.toml.

``implemented_in`` is derived from the engine's own source (the modules that cite the clause),
so the reference can never claim an implementation that is not there.
"""
from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources

import msgspec

from domain.core.ruleset import ClauseEntry


class _Reference(msgspec.Struct, frozen=True):
    clause: tuple[ClauseEntry, ...] = ()


_CITED = re.compile(r'"(W-(?:\d+(?:\.\d+)?|Q\d+))"')


@cache
def citations() -> dict[str, tuple[str, ...]]:
    """Clause id -> the engine modules whose code cites it (as a string literal)."""
    package = resources.files("domain.worlfard")
    found: dict[str, set[str]] = {}
    for entry in package.iterdir():
        if entry.name.endswith(".py"):
            for clause in _CITED.findall(entry.read_text("utf-8")):
                found.setdefault(clause, set()).add(f"domain/worlfard/{entry.name}")
    return {k: tuple(sorted(v)) for k, v in found.items()}


@cache
def clauses() -> dict[str, ClauseEntry]:
    path = resources.files("domain.worlfard.data").joinpath("rules.toml")
    data = tomllib.loads(path.read_text("utf-8"))
    cited = citations()
    out = {}
    for entry in msgspec.convert(data, _Reference).clause:
        if not entry.implemented_in and entry.id in cited:
            entry = msgspec.structs.replace(entry, implemented_in=", ".join(cited[entry.id]))
        out[entry.id] = entry
    return out
