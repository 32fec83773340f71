"""The WORLFARD rules reference: every clause id with its text, loaded from data/rules.toml."""
from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

import msgspec

from domain.core.ruleset import ClauseEntry


class _Reference(msgspec.Struct, frozen=True):
    clause: tuple[ClauseEntry, ...] = ()


@cache
def clauses() -> dict[str, ClauseEntry]:
    path = resources.files("domain.worlfard.data").joinpath("rules.toml")
    if not path.is_file():
        return {}
    data = tomllib.loads(path.read_text("utf-8"))
    return {entry.id: entry for entry in msgspec.convert(data, _Reference).clause}
