"""Clause declarations and the committed test index behind the rules reference.

The reference reads ``@implements``/``declare`` records and each package's ``tested.json``; these
tests keep the index true (CI fails when a test named for a clause is added, renamed or removed
without ``python -m kifu.tools.clause_index``) and pin what a declaration is and costs.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kifu.domain.core import clauses
from kifu.domain.core.reference import coverage
from kifu.domain.core.ruleset import ClauseEntry, ruleset_names
from kifu.tools import clause_index
from kifu.tools.clause_index import CHECKOUT, Index, build, indexes, named_for, named_tests, stale, stem, unknown


def test_the_committed_test_indexes_are_current() -> None:
    """Regenerate with ``python -m kifu.tools.clause_index`` (or ``make clauses``)."""
    assert stale() == [], "stale test index: run python -m kifu.tools.clause_index"


def test_every_registered_reference_has_its_index_and_no_named_tests_an_unknown_clause() -> None:
    found = indexes()
    assert {i.prefix for i in found} >= {"K", "W", "R", "M", "A", "N", "S"}
    tests = named_tests(CHECKOUT / "tests")
    assert all(i.path.is_file() for i in found)
    assert [t for i in found for t in unknown(i, tests)] == []


def test_a_test_is_named_for_the_longest_clause_id_that_starts_its_name() -> None:
    stems = {stem(c): c for c in ("M-2", "M-2.1", "M-2.10", "W-Q1", "W-Q12", "K-seal")}
    assert named_for("test_M_2_1_priority_alternates", stems) == "M-2.1"
    assert named_for("test_M_2_10_something", stems) == "M-2.10"
    assert named_for("test_M_2_the_section", stems) == "M-2"
    assert named_for("test_W_Q12_empty_deck", stems) == "W-Q12"
    assert named_for("test_K_seal_commitment", stems) == "K-seal"
    assert named_for("test_M_3_not_known", stems) is None


def test_the_index_lists_tests_in_clause_order_and_finds_methods_of_test_classes(tmp_path: Path) -> None:
    folder = tmp_path / "tests" / "x"
    folder.mkdir(parents=True)
    (folder / "test_a.py").write_text(
        "def test_Z_2_second():\n    pass\n\n\ndef helper_Z_1():\n    pass\n\n\n"
        "class TestZ:\n    def test_Z_1_first(self):\n        pass\n\n\ndef test_Z_9_unknown():\n    pass\n")
    index = Index("Z", ["Z-1", "Z-2"], tmp_path / "tested.json")
    tests = named_tests(tmp_path / "tests")
    assert build(index, tests) == {"Z-1": ["tests/x/test_a.py::TestZ::test_Z_1_first"],
                                   "Z-2": ["tests/x/test_a.py::test_Z_2_second"]}
    assert unknown(index, tests) == ["tests/x/test_a.py::test_Z_9_unknown"]


def test_implements_returns_the_function_itself_and_records_where_it_is() -> None:
    def rule() -> int:
        return 1

    assert clauses.implements("Z-1.1", "Z-Q2")(rule) is rule       # no wrapper: nothing costs at call time
    (decl,) = [d for (module, _), d in clauses._DECLARED.items() if module == __name__ and d.name.endswith("rule")]
    assert decl.clauses == ("Z-1.1", "Z-Q2") and decl.kind == "function"
    assert decl.where == f"{__name__}:{rule.__qualname__}" and decl.line == rule.__code__.co_firstlineno


TABLE = {"a": 1}
clauses.declare("Z-3", data=TABLE)


def test_declare_names_a_table_by_the_module_global_that_binds_it() -> None:
    decl = clauses._DECLARED[(__name__, "TABLE")]
    assert decl.clauses == ("Z-3",) and decl.kind == "data" and decl.where == f"{__name__}:TABLE"


def test_a_declaration_names_real_clause_ids_and_one_value() -> None:
    with pytest.raises(ValueError, match="not a clause id"):
        clauses.implements("M 2.1")
    with pytest.raises(ValueError, match="at least one clause"):
        clauses.implements()
    with pytest.raises(ValueError, match="names in"):
        clauses.declare("Z-4", data=object())        # bound to no module-level name


def test_a_heading_is_covered_through_its_sub_clauses_and_an_uncited_clause_is_listed() -> None:
    def entry(cid: str, impl: tuple[str, ...] = (), tested: tuple[str, ...] = ()) -> ClauseEntry:
        return ClauseEntry(id=cid, title=cid, text="", implemented_in=impl, tested_in=tested)

    cov = coverage({"Z-1": entry("Z-1"), "Z-1.1": entry("Z-1.1", ("m:f",), ("t",)),
                    "Z-2": entry("Z-2", tested=("t",)), "Z-Q1": entry("Z-Q1", ("m:g",))})
    assert cov.headings == ("Z-1",)
    assert (cov.declared, cov.tested) == (3, 3)
    assert cov.not_declared == ("Z-2",) and cov.not_tested == ("Z-Q1",)


def test_every_ruleset_reference_comes_from_declarations_in_its_own_package_or_the_core() -> None:
    for name in ruleset_names():
        ref = clause_index.reference_of(name)
        if ref is None:
            continue
        for entry in clause_index.clauses_of(name)().values():
            for where in entry.implemented_in:
                module = where.split(":")[0]
                assert module == ref.package or module.startswith((ref.package + ".", "kifu.domain.core.")), where
