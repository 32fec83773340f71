"""No import cycle among Kifu's modules, counting imports inside functions.

A cycle hidden behind a function-level import still couples the modules both ways (neither can
be read, tested or moved alone) and only shows up when the function first runs. grimp reads
every import statement in the source, at any depth, so the graph it builds is the one to check.
``kifu`` is a namespace package spread over the top-level folders, so the graph is built from
its parts.
"""
from __future__ import annotations

import grimp
import pytest

PARTS = ("kifu.domain", "kifu.projections", "kifu.store", "kifu.service", "kifu.cli", "kifu.tools")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PARTS, cache_dir=None)


def cycles(graph: grimp.ImportGraph) -> list[tuple[str, ...]]:
    """One shortest cycle through each direct import that closes one, each cycle once."""
    found: dict[frozenset[str], tuple[str, ...]] = {}
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported == module:
                continue
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                cycle = (module, *back)
                found.setdefault(frozenset(cycle), cycle)
    return sorted(found.values())


def test_the_graph_counts_imports_inside_functions(graph: grimp.ImportGraph) -> None:
    # kifu.store.store imports its backends inside a function (only the configured one loads)
    assert graph.direct_import_exists(importer="kifu.store.store", imported="kifu.store.memory")
    assert len(graph.modules) > 150


def test_no_import_cycle_among_kifu_modules(graph: grimp.ImportGraph) -> None:
    found = cycles(graph)
    assert not found, "import cycles (each as a chain back to its start):\n" + "\n".join(
        " -> ".join(cycle) for cycle in found)
