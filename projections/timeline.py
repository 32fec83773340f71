"""State at any seq, with checkpoints every K events so seeking never replays from zero."""
from __future__ import annotations

from typing import Any

from domain.core.envelope import Envelope
from domain.core.header import Header
from domain.core.ruleset import Ruleset

CHECKPOINT_EVERY = 32


class Timeline:
    """Folds a match once, keeping the state every ``every`` events; ``state_at`` folds < K more."""

    def __init__(self, ruleset: Ruleset[Any, Any, Any], header: Header,
                 envelopes: list[Envelope[Any]], every: int = CHECKPOINT_EVERY) -> None:
        self.ruleset = ruleset
        self.header = header
        self.envelopes = envelopes
        self.every = every
        evolve = ruleset.evolve
        state = ruleset.initial_state(header)
        self._checkpoints: list[Any] = [state]   # index i holds the state after seq i*every
        for env in envelopes:
            state = evolve(state, env.event)
            if env.seq % every == 0:
                self._checkpoints.append(state)
        self.final = state

    @property
    def last_seq(self) -> int:
        return len(self.envelopes)

    def state_at(self, seq: int) -> Any:
        """The state after event ``seq`` (0 = before the first event)."""
        seq = max(0, min(seq, self.last_seq))
        if seq == self.last_seq:
            return self.final
        index = seq // self.every
        state = self._checkpoints[index]
        evolve = self.ruleset.evolve
        for env in self.envelopes[index * self.every: seq]:
            state = evolve(state, env.event)
        return state

    def envelope(self, seq: int) -> Envelope[Any] | None:
        return self.envelopes[seq - 1] if 1 <= seq <= self.last_seq else None

    def decision_seqs(self) -> list[int]:
        return [env.seq for env in self.envelopes if env.kind == "decision"]

    def next_decision(self, seq: int) -> int:
        for env in self.envelopes[seq:]:
            if env.kind == "decision":
                return env.seq
        return self.last_seq

    def prev_decision(self, seq: int) -> int:
        for env in reversed(self.envelopes[: max(0, seq - 1)]):
            if env.kind == "decision":
                return env.seq
        return 0
