"""``Options``: decisions built when read, in the order they were added."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kifu.domain.core.options import Options


def _options() -> tuple[Options, list[int]]:
    built: list[int] = []
    opts = Options()
    opts.add(["pass"])
    opts.head = 1
    opts.add_product(6, lambda i: built.append(i) or ("cast", i // 3, i % 3))
    opts.add([])
    opts.add_product(0, lambda i: pytest.fail("an empty product is never read"))
    opts.add(["move", "proceed"])
    opts.tail = 1
    return opts, built


def test_an_index_builds_only_that_decision() -> None:
    opts, built = _options()
    assert len(opts) == 9
    assert opts[4] == ("cast", 1, 0)
    assert built == [3]
    assert opts[-1] == "proceed" and opts[0] == "pass"


def test_iteration_indexing_and_slices_agree() -> None:
    opts, _ = _options()
    listed = list(opts)
    assert listed == ["pass", *[("cast", i // 3, i % 3) for i in range(6)], "move", "proceed"]
    assert [opts[i] for i in range(len(opts))] == listed == opts[:]
    assert opts[2:5] == listed[2:5]
    with pytest.raises(IndexError):
        opts[9]
    with pytest.raises(IndexError):
        opts[-10]


def test_actions_leave_out_the_passive_ends() -> None:
    actions = _options()[0].actions()
    assert len(actions) == 7
    assert [actions[i] for i in range(7)] == [*[("cast", i // 3, i % 3) for i in range(6)], "move"]
    assert actions[-1] == "move"
    with pytest.raises(IndexError):
        actions[7]


def test_no_options_is_empty_and_falsy() -> None:
    opts = Options()
    assert len(opts) == 0 and not opts and list(opts) == [] and not opts.actions()


@given(ready=st.lists(st.integers(0, 99), max_size=12),
       runs=st.lists(st.tuples(st.integers(0, 12), st.integers(0, 5)), max_size=4))
def test_ready_decisions_with_runs_among_them_read_in_place(ready: list[int], runs: list[tuple[int, int]]) -> None:
    """``of_runs`` (masters: summons and moves among the passes and casts): each run at its place
    among the ready decisions, in the order listed, every index read as iteration lists it."""
    places = sorted(min(at, len(ready)) for at, _ in runs)
    spec = [(at, count, (lambda run: lambda i: ("run", run, i))(k))
            for k, (at, (_, count)) in enumerate(zip(places, runs, strict=True))]
    expected: list[object] = []
    start = 0
    for at, count, build in spec:
        expected += ready[start:at] + [build(i) for i in range(count)]
        start = at
    expected += ready[start:]
    opts = Options.of_runs(ready, spec)
    assert len(opts) == len(expected) and list(opts) == expected
    assert [opts[i] for i in range(len(expected))] == expected
