"""The draft a decision is written into: numbers events, folds them as it goes, links causes.

``decide`` implementations emit through a ``Draft`` so that rules see the state after each
consequence (a settle loop needs that) and every event gets its seq, clause and cause.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import msgspec

from .envelope import DECISION, RULE, SETUP, Envelope, Kind
from .rng import Draws, Rng

S = TypeVar("S")
E = TypeVar("E")


class Draft(Generic[S, E]):
    __slots__ = ("state", "envelopes", "next_seq", "_rng", "_source", "_first", "_evolve", "revealing")

    def __init__(self, state: S, next_seq: int, rng: Draws | None, evolve: Callable[[S, E], S],
                 source: Callable[[int], Draws] | None = None) -> None:
        """``rng`` None: the decision's generator, ``source(next_seq)`` (the match's, for its record
        format), made when first drawn from (most decisions draw nothing)."""
        self.state = state
        self.envelopes: list[Envelope[E]] = []
        self.next_seq = next_seq
        self._rng = rng
        self._source = source
        self._first = next_seq
        self._evolve = evolve
        self.revealing: int | None = None    # seq of the reveal a sealed decision is being decided under

    @property
    def rng(self) -> Draws:
        rng = self._rng
        if rng is None:
            source = self._source
            rng = self._rng = Rng.for_seq(0, self._first) if source is None else source(self._first)
        return rng

    def _emit(self, kind: Kind, event: E, seat: int | None, clause: str | None, cause: int | None) -> int:
        seq = self.next_seq
        # positional: msgspec builds a struct from keywords at twice the cost, and every event comes here
        self.envelopes.append(Envelope(seq, kind, event, seat, clause, cause))
        self.state = self._evolve(self.state, event)
        self.next_seq = seq + 1
        return seq

    def decision(self, seat: int, event: E, clause: str | None = None, cause: int | None = None) -> int:
        """A player's decision; returns its seq, the cause of what follows.

        Under a reveal (a sealed choice being opened) the decision was already recorded as its
        seal: what the ruleset emits for it is then a rule event caused by the reveal."""
        if self.revealing is not None:
            return self._emit(RULE, event, seat, clause or "K-reveal", cause or self.revealing)
        return self._emit(DECISION, event, seat, clause, cause)

    def rule(self, clause: str, cause: int | None, event: E, seat: int | None = None) -> int:
        """An automatic consequence, citing the clause it applies and the event that caused it.

        (``_emit`` written out: most of a match's events come through here.)"""
        seq = self.next_seq
        self.envelopes.append(Envelope(seq, RULE, event, seat, clause, cause))
        self.state = self._evolve(self.state, event)
        self.next_seq = seq + 1
        return seq

    def setup(self, clause: str, event: E, seat: int | None = None, cause: int | None = None) -> int:
        return self._emit(SETUP, event, seat, clause, cause)

    @property
    def last_seq(self) -> int:
        return self.next_seq - 1


def seal(envelopes: list[Envelope[Any]], digest: str) -> list[Envelope[Any]]:
    """Stamp the state digest on the last event of a decision."""
    if envelopes:
        envelopes[-1] = msgspec.structs.replace(envelopes[-1], digest=digest)
    return envelopes
