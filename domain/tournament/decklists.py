"""Committed decklists: a list's commitment, and the difference between two lists, named.

The commitment is the SHA-256 of the list's canonical JSON (keys sorted, whatever the ruleset's
deck struct): the same list always commits to the same digest. The deck check compares a
match's deck with the registered list and names every difference, generically: a card count
that changed (``deck.毛玉: 6 → 5``), a card added or gone, a field (``leader``) that differs.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import msgspec


def builtins(deck: Any) -> Any:
    return msgspec.to_builtins(deck)


def commitment(deck: Any) -> str:
    return hashlib.sha256(msgspec.json.encode(builtins(deck), order="sorted")).hexdigest()


def _leaves(value: Any, path: str, out: Counter[str], scalars: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _leaves(item, f"{path}.{key}" if path else str(key), out, scalars)
    elif isinstance(value, list | tuple):
        for item in value:       # a list of cards is a multiset: its order is no part of the list
            if isinstance(item, dict | list | tuple):
                out[f"{path}[{msgspec.json.encode(item, order='sorted').decode()}]"] += 1
            else:
                out[f"{path}[{item}]"] += 1
    else:
        scalars[path] = value


def differences(registered: Any, given: Any) -> list[str]:
    """What ``given`` changes in ``registered`` (empty: the same list), one phrase per change."""
    a_count: Counter[str] = Counter()
    b_count: Counter[str] = Counter()
    a_scalar: dict[str, Any] = {}
    b_scalar: dict[str, Any] = {}
    _leaves(builtins(registered), "", a_count, a_scalar)
    _leaves(builtins(given), "", b_count, b_scalar)
    out = []
    for path in sorted(set(a_scalar) | set(b_scalar)):
        before, after = a_scalar.get(path), b_scalar.get(path)
        if before != after:
            out.append(f"{path}: {_show(before)} → {_show(after)}")
    for item in sorted(set(a_count) | set(b_count)):
        if a_count[item] != b_count[item]:
            out.append(f"{item}: {a_count[item]} → {b_count[item]} copies")
    return out


def _show(value: Any) -> str:
    return "(none)" if value is None else str(value)
