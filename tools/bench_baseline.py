"""The baseline ``kifu bench`` compares our fold with: eventsourcing's own aggregate projector.

Outside the store, this is the one module that imports eventsourcing, on purpose: it measures
the library's default read path, not ours. Each of our events is wrapped in an
``Aggregate.Event`` whose ``apply`` calls the same ``evolve``; ``project_aggregate`` (what
``Repository.get`` uses unless told otherwise) then folds them through ``Event.mutate``, with
its protocol check, id and version checks on every event. The difference from our fold is the
library's per-event machinery, not the rules.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import project_aggregate
from eventsourcing.domain import Aggregate

from kifu.domain.core.envelope import Envelope

_WHEN = datetime(2026, 1, 1, tzinfo=UTC)   # fixed: the bench compares folds, not clocks


class PlayedMatch(Aggregate):
    """A match as an eventsourcing aggregate whose state is our ruleset's state."""

    def __init__(self, state: Any, evolve: Callable[[Any, Any], Any]) -> None:
        self.state = state
        self.evolve = evolve

    # The library makes every event class a frozen dataclass by metaclass; said here as well (as the
    # library does for its own), so a type checker knows their fields.
    @dataclass(frozen=True)
    class Created(Aggregate.Created):
        state: Any
        evolve: Callable[[Any, Any], Any]

    @dataclass(frozen=True)
    class Happened(Aggregate.Event):
        event: Any

        def apply(self, aggregate: PlayedMatch) -> None:
            aggregate.state = aggregate.evolve(aggregate.state, self.event)


def aggregate_events(initial: Any, evolve: Callable[[Any, Any], Any],
                     envelopes: Sequence[Envelope[Any]], match_id: UUID) -> list[Any]:
    """The creation event and one ``Happened`` per envelope, as the library would replay them."""
    created = PlayedMatch.Created(originator_id=match_id, originator_version=0, timestamp=_WHEN,
                                  originator_topic=_topic(), state=initial, evolve=evolve)
    out: list[Any] = [created]
    out.extend(PlayedMatch.Happened(originator_id=match_id, originator_version=env.seq,
                                    timestamp=_WHEN, event=env.event) for env in envelopes)
    return out


def fold(events: Sequence[Any]) -> Any:
    """The state after ``events`` by the library's default projector."""
    aggregate = project_aggregate(None, events)
    assert isinstance(aggregate, PlayedMatch)
    return aggregate.state


def _topic() -> str:
    from eventsourcing.utils import get_topic

    return get_topic(PlayedMatch)
