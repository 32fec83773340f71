"""The core folds each event through a ruleset's declared ``evolve_cases`` (one call fewer per
event): the state it reaches must be the one the ruleset's own ``evolve`` gives, event by event."""
from __future__ import annotations

import pytest

from kifu.domain.core.commit import ChoiceRevealed, PositionPrepared, SeedRevealed
from kifu.domain.core.envelope import state_digest
from kifu.domain.core.match import record_evolve
from kifu.domain.core.ruleset import find_ruleset, ruleset_names
from kifu.tools.bench_work import play, preset_pairs


@pytest.mark.parametrize("name", [n for n in ruleset_names() if find_ruleset(n).speedups.evolve_cases is not None])
def test_evolve_cases_fold_as_evolve_does(name: str) -> None:
    ruleset = find_ruleset(name)
    match, _ = play(ruleset, 5, preset_pairs(ruleset)[0])
    fold = record_evolve(ruleset)
    by_cases = by_evolve = ruleset.decider.initial_state(match.header)
    for env in match.envelopes:
        event = env.event
        by_cases = fold(by_cases, event)
        if isinstance(event, PositionPrepared):          # the core's own events, as the core folds them
            by_evolve = event.state
        elif not isinstance(event, (ChoiceRevealed, SeedRevealed)):
            by_evolve = ruleset.decider.evolve(by_evolve, event)
        assert state_digest(by_cases) == state_digest(by_evolve), f"seq {env.seq}: {type(event).__name__}"
