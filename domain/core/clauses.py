"""Clause declarations: the code that implements a rules clause says so, where it is defined.

``@implements("M-2.1", "M-2.2")`` on a function, or ``declare("W-4.1", data=DECK_RULES)`` beside a
table or constant, records (clause -> module, qualified name, line) when the module is imported.
The rules reference (``reference.py``) reads these records instead of searching source text for
clause ids, so "implemented" means "a definition claims it", never "a comment mentions it".

The decorator returns the function itself (no wrapper): ``decide``, ``evolve`` and ``legal`` are
hot paths, and a declaration costs nothing after import. The records form an append-only table
filled at import time (as a plugin registry is), keyed by where each definition lives, so
importing a module twice records nothing new; it is not a cache and holds no match state.
"""
from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from collections.abc import Callable
from typing import TypeVar

import msgspec

F = TypeVar("F", bound=Callable[..., object])

CLAUSE_ID = re.compile(r"[A-Z]-(?:\d+(?:\.\d+)*|Q\d+|C\d+|[a-z]+)")


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    """One definition that implements one or more clauses."""

    clauses: tuple[str, ...]
    module: str          # kifu.domain.masters.flow
    name: str            # the qualified name in the module: pass_priority, Rules.settle, DECK_RULES
    line: int            # where it is defined (1-based)
    kind: str = "function"   # or "data": a table or constant read by the rules

    @property
    def where(self) -> str:
        """``module:name``, as a reader looks it up."""
        return f"{self.module}:{self.name}"


_DECLARED: dict[tuple[str, str], Declaration] = {}


def _checked(clauses: tuple[str, ...]) -> tuple[str, ...]:
    if not clauses:
        raise ValueError("a declaration names at least one clause")
    for clause in clauses:
        if not CLAUSE_ID.fullmatch(clause):
            raise ValueError(f"{clause!r} is not a clause id (W-6.4, M-Q3, A-C2, K-seal, …)")
    return clauses


def implements(*clauses: str) -> Callable[[F], F]:
    """Declare that the decorated function (or class: a zone, a state the rules define) implements
    ``clauses``; it is returned as is."""
    ids = _checked(clauses)

    def record(fn: F) -> F:
        code = getattr(fn, "__code__", None)       # a class has none: the line being run is its own
        line = code.co_firstlineno if code is not None else sys._getframe(1).f_lineno
        key = (fn.__module__, fn.__qualname__)
        _DECLARED[key] = Declaration(clauses=ids, module=fn.__module__, name=fn.__qualname__, line=line)
        return fn

    return record


def declare(*clauses: str, data: object, name: str | None = None) -> None:
    """Declare that a module-level table or constant (``data``) implements ``clauses``.

    Call it at module level after the value is bound; its name is found by identity among the
    module's globals (pass ``name`` when two names bind the same value)."""
    ids = _checked(clauses)
    frame = sys._getframe(1)
    module = str(frame.f_globals.get("__name__", "?"))
    if name is None:
        names = [k for k, v in frame.f_globals.items() if v is data and not k.startswith("__")]
        if len(names) != 1:
            raise ValueError(f"declare({', '.join(ids)}): {len(names)} names in {module} bind that value; pass name=")
        name = names[0]
    elif frame.f_globals.get(name) is not data:
        raise ValueError(f"declare({', '.join(ids)}): {module}.{name} is not the value declared")
    _DECLARED[(module, name)] = Declaration(clauses=ids, module=module, name=name, line=frame.f_lineno, kind="data")


def declared(package: str) -> dict[str, tuple[Declaration, ...]]:
    """Clause id -> the declarations made in ``package`` or its modules, all of which are imported
    first (a declaration exists once its module is loaded)."""
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(getattr(root, "__path__", []), prefix=package + "."):
        importlib.import_module(info.name)
    found: dict[str, list[Declaration]] = {}
    for (module, _), decl in sorted(_DECLARED.items()):
        if module == package or module.startswith(package + "."):
            for clause in decl.clauses:
                found.setdefault(clause, []).append(decl)
    return {k: tuple(v) for k, v in found.items()}
