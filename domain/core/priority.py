"""Priority on a stack: the alternating-pass rule every stack or response-window game shares.

Written for masters (its M-2.1, M-2.2), kept in the core so that any ruleset with a priority
round uses the same rule. The state is one value, ``Priority``; the transitions are pure functions:

- ``opened(seat)``: a new round of priority, ``seat`` first (e.g. the active player when a phase
  begins or an item resolves; the defending player when a combat begins);
- ``acted(p, seat)``: ``seat`` declared something (put an item on the stack, summoned, moved):
  priority moves to the other seat and the run of passes starts again (masters' M-2.1: 宣言は優先権
  を持つマスターから行われ、次に相手マスターへと交互に優先権が移動します);
- ``passed(p)``: the holder passes; priority goes to the other seat;
- ``verdict(p, stack_empty)``: after a pass, what the rules do next: ``"continue"`` (the other
  seat now decides), ``"resolve"`` (both passed in succession on a non-empty stack: the top
  resolves) or ``"advance"`` (both passed on an empty stack: the phase, or step, ends).

The ruleset records every pass as a decision event and every resolution and advance as a rule
event; its ``evolve`` calls these functions, so a fold needs nothing else.
"""
from __future__ import annotations

from typing import Literal

import msgspec

Verdict = Literal["continue", "resolve", "advance"]


class Priority(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who holds priority, and how many passes in succession have been made (0, 1 or 2)."""

    holder: int
    passes: int = 0


def opened(seat: int) -> Priority:
    return Priority(holder=seat)


def acted(p: Priority, seat: int) -> Priority:
    return Priority(holder=3 - seat)


def passed(p: Priority) -> Priority:
    return Priority(holder=3 - p.holder, passes=p.passes + 1)


def verdict(p: Priority, stack_empty: bool) -> Verdict:
    if p.passes < 2:
        return "continue"
    return "advance" if stack_empty else "resolve"
