"""``evolve_run`` (each ruleset's own: a run folded on a private working copy, made frozen once at
its end; each also has a test of its own beside its rules): a record cut into runs anywhere folds,
run by run, to exactly the states the core's event-by-event fold reaches there
(``kifu.tools.fold_check``: equal and encoded alike); and ``Match.fold`` (which reads with it) ends
in the played state."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.tools import fold_check
from kifu.tools.bench_work import play, preset_pairs

GAMES = ["worlfard", "reigeki", "masters", "alteil", "novel"]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(1, 10_000), cuts=st.lists(st.integers(0, 1_500), max_size=5))
def test_runs_fold_as_one_by_one(name: str, seed: int, cuts: list[int]) -> None:
    rules = find_ruleset(name)
    pairs = preset_pairs(rules)
    match, _ = play(rules, seed, pairs[seed % len(pairs)])
    fold_check.check_runs(rules, rules.decider.initial_state(match.header),
                          [env.event for env in match.envelopes], cuts)
    assert Match.fold(rules, match.header, match.envelopes).state == match.state
