"""The rules keep no hidden module-level state: their speed caches live in ``kifu.domain.core.memo``
(bounded, per object, per thread, emptied by ``clear_all``), never in a module's own dict, list,
``@cache``, thread-local or ``global``; and they import nothing inside a function (a function-level
import hides a cycle or a cost until the function first runs).

Both are read off the source (an AST scan of ``domain/``): a check of how the code is written,
not of what it does at run time. A module-level mutable value counts when a function of its
module writes it (item assignment, ``del``, a mutating method, a ``global`` rebinding); one only
filled while the module is imported is a constant table. What remains on purpose is allowed
below by name, each with its reason; anything new fails here and belongs in the memo helper.
"""
from __future__ import annotations

import ast
from pathlib import Path

import kifu.domain

DOMAIN = Path(kifu.domain.__file__).parent

LOADERS = "package data read once: the card set (and what follows from it alone) of a ruleset"
ALLOWED: dict[str, str] = {
    **{f"{r}/cards.py:@cache {name}": LOADERS
       for r, names in {"worlfard": ("catalog", "card_set_digest", "static_vit_reducers"),
                        "reigeki": ("catalog", "card_set_digest", "catalogue"),
                        "masters": ("catalog", "card_set_digest"),
                        "alteil": ("catalog", "by_number", "catalogue"),
                        "novel": ("catalog", "card_set_digest")}.items()
       for name in names},
    "worlfard/checks.py:@cache no_unit_printed_at_vit_0": LOADERS,
    "core/gloss.py:@cache glosses": "package data read once: a ruleset's glossary, by package name",
    "core/clauses.py:_DECLARED": "the clause declarations (@implements), an append-only table filled at import",
    "core/record.py:UPCASTERS": "the registry of record-format upcasters, filled as formats are declared",
    "core/ruleset.py:_REGISTRY": "the ruleset registry (entry points and register())",
    "core/ruleset.py:_LOADED": "the registry's built rulesets, each built once",
    "core/ruleset.py:_LOADING": "the registry's lock (a ruleset is built by one thread)",
    "core/ruleset.py:global _DISCOVERED": "the registry has read the entry points",
}

MUTATORS = {"append", "insert", "setdefault", "update", "pop", "popitem", "clear", "extend", "add",
            "discard", "remove", "move_to_end", "__setitem__", "__delitem__"}
CONTAINERS = {"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "WeakValueDictionary",
              "WeakKeyDictionary", "local", "Lock", "RLock"}
ALWAYS = {"local", "Lock", "RLock"}        # a thread-local or a lock at module level is state by itself


def _called(node: ast.expr) -> str:
    func = node.func if isinstance(node, ast.Call) else node
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _module_state(tree: ast.Module) -> list[str]:
    """This module's caches, registries and globals, as ``name`` or ``@cache name`` or ``global name``."""
    containers: dict[str, str] = {}
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(_called(d) in ("cache", "lru_cache") for d in node.decorator_list):
                found.append(f"@cache {node.name}")
            continue
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AnnAssign) and node.value is not None else [])
        value = getattr(node, "value", None)
        for target in targets:
            if not isinstance(target, ast.Name) or value is None:
                continue
            if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
                containers[target.id] = type(value).__name__
            elif isinstance(value, ast.Call) and _called(value) in CONTAINERS:
                containers[target.id] = _called(value)
    written, rebound = set(), set()
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Global):
                rebound.update(node.names)
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                for target in node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]:
                    base = target
                    while isinstance(base, (ast.Subscript, ast.Attribute)):
                        base = base.value
                    if isinstance(base, ast.Name) and base is not target:
                        written.add(base.id)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in MUTATORS and isinstance(node.func.value, ast.Name)):
                written.add(node.func.value.id)
    found += [name for name, kind in containers.items() if name in written | rebound or kind in ALWAYS]
    found += [f"global {name}" for name in sorted(rebound - set(containers))]
    return found


def _function_imports(tree: ast.Module) -> list[int]:
    return [node.lineno for fn in ast.walk(tree) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
            for node in ast.walk(fn) if isinstance(node, (ast.Import, ast.ImportFrom))]


def _sources() -> list[tuple[str, ast.Module]]:
    return [(path.relative_to(DOMAIN).as_posix(), ast.parse(path.read_text("utf-8")))
            for path in sorted(DOMAIN.rglob("*.py"))]


def test_the_rules_keep_no_module_level_cache_outside_the_memo_helper() -> None:
    found = {f"{rel}:{name}" for rel, tree in _sources() if rel != "core/memo.py" for name in _module_state(tree)}
    new = sorted(found - set(ALLOWED))
    assert not new, ("module-level mutable state in the rules (a cache belongs in kifu.domain.core.memo; "
                     "a registry or package-data loader is allowed in this test with its reason):\n"
                     + "\n".join(new))


def test_the_scan_finds_each_kind_of_module_state() -> None:
    tree = ast.parse(
        "import threading\nfrom functools import cache\n"
        "_SEEN = {}\n_LAST = [None]\n_TABLE = {1: 2}\n_LOCAL = threading.local()\n_FLAG = False\n"
        "@cache\ndef loader():\n    return 1\n"
        "def f(x):\n    global _FLAG\n    _FLAG = True\n    _SEEN[x] = 1\n    _LAST[0] = x\n    return _TABLE[x]\n")
    assert sorted(_module_state(tree)) == ["@cache loader", "_LAST", "_LOCAL", "_SEEN", "global _FLAG"]


def test_the_rules_import_nothing_inside_a_function() -> None:
    found = [f"{rel}:{line}" for rel, tree in _sources() for line in _function_imports(tree)]
    assert not found, "function-level imports in the rules (move them to the top):\n" + "\n".join(found)
