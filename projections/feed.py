"""The public feed of a match: what a spectator may see, and how far behind the match it runs.

**Public** is what both seats may see. An event is redacted as for seat 1 and then as for seat 2
(``kifu.domain.core.visibility``: the ruleset's own redaction, every sealed choice down to its
commitment, no chain or digest), its cards scrubbed when either seat may not see them before and
after it; a position is the ruleset's view for no seat (``PUBLIC``, neither seat's own: no hand,
no pick, no sealed choice) scrubbed the same way. Nothing a seat holds privately reaches the
feed, and neither does the seed (the header is never sent: only its names).

**Delayed**: a feed shows the match as it stood ``Delay.decisions`` decisions ago (the events
before the N-th last decision), or ``Delay.seconds`` ago (the events before the first decision
received within that time), so that a player cannot learn from the broadcast what the opponent
holds while the match is on. A match that is over is shown whole once its delay has run out: at
once for a delay in decisions (no decision is left to help), after the seconds otherwise.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence, Set
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.match import record_evolve
from kifu.domain.core.ruleset import Ruleset
from kifu.domain.core.visibility import hidden_cards, redact, scrub

from .clocks import stamp

PUBLIC = 0              # the seat number a ruleset's ``view`` is asked for: neither seat, so no own side
SEATS = (1, 2)
_DELAY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(d|decisions?|s|sec|seconds?)\s*$", re.IGNORECASE)


class Delay(msgspec.Struct, frozen=True, kw_only=True):
    decisions: int = 0
    seconds: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Delay:
        """``10d`` (decisions) or ``30s`` (seconds); ``0`` for none. Anything else: ``ValueError``."""
        if text.strip() in ("0", ""):
            return cls()
        found = _DELAY.match(text)
        if found is None:
            raise ValueError(f"delay {text!r}: give a number of decisions (10d) or seconds (30s)")
        amount, unit = found.group(1), found.group(2).lower()
        if unit.startswith("d"):
            if not amount.isdigit():
                raise ValueError(f"delay {text!r}: a whole number of decisions")
            return cls(decisions=int(amount))
        return cls(seconds=float(amount))

    def describe(self) -> str:
        if self.decisions:
            return f"{self.decisions} decision{'s' if self.decisions != 1 else ''}"
        if self.seconds:
            return f"{self.seconds:g} seconds"
        return "none"


def public_cut(envelopes: Sequence[Envelope[Any]], delay: Delay, now: float, over: bool) -> int:
    """The last seq the feed shows now (``now``: POSIX seconds; ``over``: the match has ended)."""
    last = envelopes[-1].seq if envelopes else 0
    decisions = [env for env in envelopes if env.kind == "decision"]
    if delay.decisions:
        if over or not decisions:
            return last
        if len(decisions) < delay.decisions:
            return decisions[0].seq - 1
        return decisions[-delay.decisions].seq - 1
    if delay.seconds:
        for env in decisions:
            when = stamp(env.received)
            if when is not None and when > now - delay.seconds:
                return env.seq - 1
        return last
    return last


def next_release(envelopes: Sequence[Envelope[Any]], delay: Delay, shown: int) -> float | None:
    """For a delay in seconds: when (POSIX seconds) the first decision past ``shown`` becomes public."""
    if not delay.seconds:
        return None
    for env in envelopes:
        if env.kind == "decision" and env.seq > shown:
            when = stamp(env.received)
            return None if when is None else when + delay.seconds
    return None


def public_hidden(ruleset: Ruleset[Any, Any, Any], state: Any) -> Set[int]:
    """The cards either seat may not see in ``state``: the public may see none of them."""
    one, two = (hidden_cards(ruleset, state, seat) for seat in SEATS)
    return one | two if one and two else one or two


def public_view(ruleset: Ruleset[Any, Any, Any], state: Any) -> Any:
    """The ruleset's view for no seat, scrubbed of every card either seat may not see."""
    view = ruleset.decider.view(state, PUBLIC)
    hidden = public_hidden(ruleset, state)
    return scrub(view, hidden, ruleset.visibility.card_refs) if hidden else view


def public_layout(ruleset: Ruleset[Any, Any, Any], state: Any) -> Any:
    return ruleset.presentation.layout(public_view(ruleset, state))


class PublicStream:
    """Redacts a match's envelopes in order for the public, keeping the state they lead to."""

    def __init__(self, ruleset: Ruleset[Any, Any, Any], initial: Any) -> None:
        self.ruleset = ruleset
        self.state = initial
        self.seq = 0
        self._evolve = record_evolve(ruleset)

    def redact(self, envelopes: Iterable[Envelope[Any]]) -> list[Envelope[Any]]:
        out = []
        rules = self.ruleset
        for env in envelopes:
            before = public_hidden(rules, self.state)
            self.state = self._evolve(self.state, env.event)
            after = public_hidden(rules, self.state)
            both = before & after if before and after else frozenset()
            shown = env
            for seat in SEATS:
                shown = redact(rules, shown, seat, both)
            out.append(shown)
            self.seq = env.seq
        return out
