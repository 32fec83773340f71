"""The timeline answers every seek with the state a fold from the start gives, in any order of seeks."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header
from kifu.domain.core.ruleset import Decider, Ruleset
from kifu.projections.timeline import Timeline

EVENTS = 200


def _stand_in(evolve: Callable[[Any, Any], Any]) -> Ruleset[Any, Any, Any]:
    """A ruleset whose state is the tuple of events so far, so any wrong fold shows; the timeline
    only folds, so the rest of its decider is never called."""
    def unused(*args: Any) -> Any:
        raise AssertionError("a timeline only folds")

    return Ruleset(name="stand-in", rules_version="1", decider=Decider(
        command_type=int, event_type=int, state_type=tuple, initial_state=lambda header: (), begin=unused,
        decide=unused, evolve=evolve, legal=unused, awaiting=unused, outcome=unused, view=unused,
        command_of=unused))


def _timeline(every: int) -> Timeline:
    ruleset = _stand_in(lambda state, event: state + (event,))
    header = Header(match_id="m", ruleset="stand-in", rules_version="1", card_set="-", seed=1,
                    players=("a", "b"), decks=())
    envelopes = [Envelope(seq=seq, kind="rule", event=seq) for seq in range(1, EVENTS + 1)]
    return Timeline(ruleset, header, envelopes, every=every)


@settings(max_examples=60, deadline=None)
@given(every=st.integers(1, 40), seeks=st.lists(st.integers(-3, EVENTS + 3), min_size=1, max_size=60))
def test_every_seek_gives_the_folded_state(every: int, seeks: list[int]) -> None:
    timeline = _timeline(every)
    for seq in seeks:
        clamped = max(0, min(seq, EVENTS))
        assert timeline.state_at(seq) == tuple(range(1, clamped + 1))


def test_stepping_back_and_forth_inside_a_window_folds_nothing_more() -> None:
    calls = 0
    timeline = _timeline(32)

    def counting(state: tuple[int, ...], event: int) -> tuple[int, ...]:
        nonlocal calls
        calls += 1
        return state + (event,)

    timeline.ruleset = _stand_in(counting)
    assert len(timeline.state_at(95)) == 95          # checkpoint 64, then 31 events
    assert calls == 31
    for seq in (94, 93, 70, 95, 65):
        assert len(timeline.state_at(seq)) == seq
    assert calls == 31
    assert len(timeline.state_at(96)) == 96 and calls == 31   # 96 is a checkpoint
