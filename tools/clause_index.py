"""The committed index of tests named for clauses, and the clause ids a package's source mentions.

``python -m kifu.tools.clause_index`` writes ``tested.json`` beside every rules reference (each
ruleset's ``data/``, and the core's for its K- clauses): clause id -> the tests named for it, found
by parsing the test files (``test_M_2_1_…`` and ``Test…::test_M_2_1_…`` test M-2.1; the longest
known clause id wins, so ``test_M_2_10_x`` is M-2.10, not M-2.1). ``--check`` only compares and
exits 1 when an index is stale; ``tests/core/test_clause_index.py`` does the same in the suite, so
the rules reference read at run time is as true as the last green run.

``mentions`` is the diagnostic behind ``kifu rules R --coverage``'s "mentioned but not declared":
the clause ids a package's source text names (comments, docstrings, strings).
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec

from kifu.domain.core.clauses import declared
from kifu.domain.core.commit import CORE_CLAUSES
from kifu.domain.core.judging import JUDGE_CLAUSES
from kifu.domain.core.reference import CORE_PACKAGE, TESTED_INDEX, RulesReference, coverage
from kifu.domain.core.ruleset import ClauseEntry, find_ruleset, ruleset_names

CHECKOUT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Index:
    """One reference's test index: its clause prefix and ids, and the file it is written to."""

    prefix: str
    ids: list[str]
    path: Path


def indexes() -> list[Index]:
    """The core's index and every registered ruleset's whose clauses come from a ``RulesReference``."""
    core = [*CORE_CLAUSES, *JUDGE_CLAUSES]
    found = [Index("K", core, Path(str(resources.files(CORE_PACKAGE).joinpath(TESTED_INDEX))))]
    for name in ruleset_names():
        ref = reference_of(name)
        if ref is not None:
            found.append(Index(ref.prefix, [s.id for s in ref.stated()],
                               Path(str(ref.data.joinpath(TESTED_INDEX)))))
    return found


def named_tests(tests_root: Path) -> list[tuple[str, str]]:
    """(test id, function name) of every test function under ``tests_root``, in file order."""
    out: list[tuple[str, str]] = []
    for path in sorted(tests_root.rglob("test_*.py")):
        rel = path.relative_to(tests_root.parent).as_posix()
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                out.append((f"{rel}::{node.name}", node.name))
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                out += [(f"{rel}::{node.name}::{f.name}", f.name) for f in node.body
                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name.startswith("test_")]
    return out


def stem(clause: str) -> str:
    """The test-name form of a clause id: M-2.1 -> M_2_1, W-Q3 -> W_Q3, K-seal -> K_seal."""
    return clause.replace("-", "_").replace(".", "_")


def named_for(name: str, stems: dict[str, str]) -> str | None:
    """The clause a test's name is named for: the longest known stem after ``test_``."""
    for s in sorted(stems, key=len, reverse=True):
        if name == f"test_{s}" or name.startswith(f"test_{s}_"):
            return stems[s]
    return None


def build(index: Index, tests: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Clause id -> the tests named for it, in the reference's clause order."""
    stems = {stem(c): c for c in index.ids}
    found: dict[str, list[str]] = {}
    for test_id, name in tests:
        if name.startswith(f"test_{index.prefix}_"):
            clause = named_for(name, stems)
            if clause is not None:
                found.setdefault(clause, []).append(test_id)
    return {c: found[c] for c in index.ids if c in found}


def unknown(index: Index, tests: list[tuple[str, str]]) -> list[str]:
    """Tests that look named for a clause of this reference (``test_M_9_…``) but name none of its ids."""
    stems = {stem(c): c for c in index.ids}
    looks = re.compile(rf"test_{index.prefix}_(?:\d|Q\d|C\d)")
    return [t for t, name in tests if looks.match(name) and named_for(name, stems) is None]


def render(found: dict[str, list[str]]) -> str:
    """One clause a line, so that two branches adding tests for different clauses merge cleanly."""
    lines = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in found.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n" if lines else "{}\n"


def stale(tests_root: Path = CHECKOUT / "tests") -> list[Path]:
    """The index files whose content differs from what the tests under ``tests_root`` give."""
    tests = named_tests(tests_root)
    return [i.path for i in indexes()
            if not i.path.is_file() or i.path.read_text("utf-8") != render(build(i, tests))]


def write(tests_root: Path = CHECKOUT / "tests") -> list[Path]:
    """Rewrite every stale index; returns the files written."""
    tests = named_tests(tests_root)
    written = []
    for i in indexes():
        text = render(build(i, tests))
        if not i.path.is_file() or i.path.read_text("utf-8") != text:
            i.path.write_text(text, "utf-8")
            written.append(i.path)
    return written


_MENTION = r"\b({p}-(?:\d+(?:\.\d+)*|Q\d+|C\d+|[a-z]+))(?![\w])"


def mentions(package: str, prefix: str) -> dict[str, tuple[str, ...]]:
    """Clause id -> the source files of ``package`` whose text names it (code, strings or comments)."""
    pattern = re.compile(_MENTION.format(p=re.escape(prefix)))
    found: dict[str, set[str]] = {}
    root = resources.files(package)
    for entry in root.iterdir():
        if entry.name.endswith(".py"):
            for clause in pattern.findall(entry.read_text("utf-8")):
                found.setdefault(clause, set()).add(entry.name)
    return {k: tuple(sorted(v)) for k, v in found.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kifu.tools.clause_index", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if an index is stale; write nothing")
    parser.add_argument("--tests", type=Path, default=CHECKOUT / "tests", help="the test folder to read")
    args = parser.parse_args(argv)
    if args.check:
        old = stale(args.tests)
        for path in old:
            print(f"stale: {path} (run python -m kifu.tools.clause_index)", file=sys.stderr)
        return 1 if old else 0
    for path in write(args.tests):
        print(f"wrote {path}")
    return 0



def clauses_of(ruleset: str) -> Callable[[], dict[str, ClauseEntry]]:
    """A registered ruleset's ``clauses`` hook, flat on the ruleset or grouped under ``content``."""
    found = find_ruleset(ruleset)
    holder: Any = getattr(found, "content", found)
    hook: Callable[[], dict[str, ClauseEntry]] = holder.clauses
    return hook


def reference_of(ruleset: str) -> RulesReference | None:
    """The ``RulesReference`` behind a registered ruleset's ``clauses`` (None for another kind)."""
    ref = getattr(clauses_of(ruleset), "__self__", None)
    return ref if isinstance(ref, RulesReference) else None


def source_lines(ruleset: str) -> dict[str, str]:
    """``module:name`` -> ``file:line`` of every declaration a ruleset's reference may show (its
    package's and the core's), the file relative to the checkout when it lies inside it."""
    ref = reference_of(ruleset)
    packages = [CORE_PACKAGE] + ([ref.package] if ref is not None else [])
    out = {}
    for package in packages:
        for decls in declared(package).values():
            for d in decls:
                path = Path(getattr(sys.modules.get(d.module), "__file__", None) or d.module)
                shown = path.relative_to(CHECKOUT) if path.is_relative_to(CHECKOUT) else path
                out[d.where] = f"{shown.as_posix()}:{d.line}"
    return out


class Report(msgspec.Struct, frozen=True, kw_only=True):
    """``kifu rules R --coverage`` as values: the counts, and what lacks a declaration or a test.

    ``mentioned_only`` are the undeclared clauses whose id the ruleset's (or the core's) source
    names all the same (a comment, a docstring, an event's clause argument) while no definition
    claims them; ``implemented`` is ``declared`` under the name scripts knew before."""

    ruleset: str
    clauses: int
    declared: int
    implemented: int
    tested: int
    headings: list[str]
    not_declared: list[str]
    mentioned_only: dict[str, list[str]]
    not_tested: list[str]


def coverage_report(ruleset: str) -> Report:
    """The coverage of a registered ruleset's reference (its clauses and the core's)."""
    cov = coverage(clauses_of(ruleset)())
    ref = reference_of(ruleset)
    named = dict(mentions(CORE_PACKAGE, "K"))
    if ref is not None:
        named.update(mentions(ref.package, ref.prefix))
    return Report(ruleset=ruleset, clauses=cov.clauses, declared=cov.declared, implemented=cov.declared,
                  tested=cov.tested, headings=list(cov.headings), not_declared=list(cov.not_declared),
                  mentioned_only={c: list(named[c]) for c in cov.not_declared if c in named},
                  not_tested=list(cov.not_tested))


if __name__ == "__main__":
    sys.exit(main())
