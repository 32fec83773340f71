"""State at any seq, with checkpoints every K events so seeking never replays from zero."""
from __future__ import annotations

import copy
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header
from kifu.domain.core.layout import Layout
from kifu.domain.core.match import record_evolve
from kifu.domain.core.ruleset import Ruleset

CHECKPOINT_EVERY = 32


class Timeline:
    """Folds a match once, keeping the state every ``every`` events; ``state_at`` folds < K more."""

    def __init__(self, ruleset: Ruleset[Any, Any, Any], header: Header,
                 envelopes: list[Envelope[Any]], every: int = CHECKPOINT_EVERY) -> None:
        self.ruleset = ruleset
        self.header = header
        self.envelopes = envelopes
        self.every = every
        evolve = record_evolve(ruleset)
        state = ruleset.decider.initial_state(header)
        self._checkpoints: list[Any] = [state]   # index i holds the state after seq i*every
        for env in envelopes:
            state = evolve(state, env.event)
            if env.seq % every == 0:
                self._checkpoints.append(state)
        self.final = state
        self._window: tuple[int, list[Any]] | None = None   # (checkpoint index, states after it)

    def extended(self, envelopes: list[Envelope[Any]]) -> Timeline:
        """This timeline with the next ``envelopes`` folded on (a live match moved): only they are
        folded; this one stays as it was for whoever still reads it."""
        grown = copy.copy(self)
        grown.envelopes = [*self.envelopes, *envelopes]
        grown._checkpoints = list(self._checkpoints)
        evolve = record_evolve(self.ruleset)
        state = self.final
        for env in envelopes:
            state = evolve(state, env.event)
            if env.seq % self.every == 0:
                grown._checkpoints.append(state)
        grown.final = state
        return grown

    @property
    def last_seq(self) -> int:
        return len(self.envelopes)

    def state_at(self, seq: int) -> Any:
        """The state after event ``seq`` (0 = before the first event).

        The states of the last window between two checkpoints that was folded are kept, so
        stepping back or forward inside it folds nothing, and a seek folds fewer than ``every``."""
        seq = max(0, min(seq, self.last_seq))
        if seq == self.last_seq:
            return self.final
        index, offset = divmod(seq, self.every)
        if offset == 0:
            return self._checkpoints[index]
        window = self._window
        if window is None or window[0] != index:
            window = (index, [self._checkpoints[index]])
        states = window[1]
        if offset >= len(states):
            states = list(states)   # a new list: a reader holding the old window sees it unchanged
            evolve = record_evolve(self.ruleset)
            state = states[-1]
            start = index * self.every + len(states) - 1
            for env in self.envelopes[start: index * self.every + offset]:
                state = evolve(state, env.event)
                states.append(state)
            window = (index, states)
        self._window = window
        return states[offset]

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
        env: Envelope[Any]   # (reversed() of a list of generic Structs is Any to mypy)
        for env in reversed(self.envelopes[: max(0, seq - 1)]):
            if env.kind == "decision":
                return env.seq
        return 0

    def step_at(self, seq: int) -> str | None:
        """The step label after ``seq`` where the ruleset names steps by events
        (``Presentation.step_begun``): the step the last such event at or before ``seq`` began;
        None where the ruleset's layout names it from the state alone."""
        begun = self.ruleset.presentation.step_begun
        if begun is None:
            return None
        env: Envelope[Any]
        for env in reversed(self.envelopes[: max(0, min(seq, self.last_seq))]):
            step = begun(env.event)
            if step is not None:
                return step
        return None

    def labelled(self, layout: Layout, seq: int) -> Layout:
        """``layout`` (after ``seq``) with the step ``step_at`` names, where it names one."""
        step = self.step_at(seq)
        return layout if step is None or step == layout.step else msgspec.structs.replace(layout, step=step)
