"""Checks a ruleset's ``evolve_run`` against the core's event-by-event fold, for its tests.

A run fold (``SpeedUps.evolve_run``) works on a private copy of the state that nobody sees until
the run ends: the one place a ruleset writes its fold twice. These checks cut a record into runs
anywhere and hold each run's end to the state the plain fold reaches there — equal, and encoded
to the same bytes both ways a record encodes a state (msgspec's ``omit_defaults`` leaves a default
out only when it is the very same object, so an equal new default tuple encodes differently,
which only the bytes catch) — and the state a run started from to be unchanged.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kifu.domain.core.envelope import canonical
from kifu.domain.core.match import record_evolve
from kifu.domain.core.ruleset import Ruleset

Run = Callable[[Any, Sequence[Any], Callable[[Any, Any], Any]], Any]


def one_by_one(ruleset: Ruleset[Any, Any, Any], start: Any, events: Sequence[Any]) -> list[Any]:
    """The state after each event, folded one at a time by the core (the plain answer)."""
    fold = record_evolve(ruleset)
    out, state = [], start
    for event in events:
        state = fold(state, event)
        out.append(state)
    return out


def same(ruleset: Ruleset[Any, Any, Any], a: Any, b: Any) -> bool:
    """Equal, and encoded alike in declaration order (format 1's digest) and canonically (format 2's)."""
    return a == b and canonical(a) == canonical(b) and \
        ruleset.decider.canonical_state(a) == ruleset.decider.canonical_state(b)


def check_runs(ruleset: Ruleset[Any, Any, Any], start: Any, events: Sequence[Any], cuts: Sequence[int], *,
               run: Run | None = None, frozen: Callable[[Any], bool] | None = None) -> None:
    """Fold ``events`` from ``start`` as runs cut at ``cuts`` (and once whole) with ``run`` (the
    ruleset's ``evolve_run`` by default); raise AssertionError naming the first run that ends
    anywhere but where the plain fold does, or changes the state it began from. ``frozen``: the
    ruleset's own check that a run's result holds no working copy (its piles tuples again)."""
    run = run or ruleset.speedups.evolve_run
    if run is None:
        raise AssertionError(f"{ruleset.name} has no evolve_run to check")
    fold = record_evolve(ruleset)
    after = one_by_one(ruleset, start, events)
    state, at = start, 0
    for cut in sorted({min(max(c, 0), len(events)) for c in cuts} | {len(events)}):
        before, encoded = state, canonical(state)
        state = run(state, events[at:cut], fold)
        if canonical(before) != encoded:
            raise AssertionError(f"{ruleset.name}: the run of events {at}..{cut} changed the state it began from")
        if frozen is not None and not frozen(state):
            raise AssertionError(f"{ruleset.name}: the run of events {at}..{cut} left a working copy in its state")
        if not same(ruleset, state, after[cut - 1] if cut else start):
            raise AssertionError(f"{ruleset.name}: the run of events {at}..{cut} ends elsewhere than one by one")
        at = cut
