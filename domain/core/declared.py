"""What a ruling resolves: the declaration (a skill activation, an attack, a sealed pick) it
answers, which may lie before the decision that set the ruling off.

A ruling's cause chain ends at the last decision (a pass of priority, a "done" seal, the
defender's no-defence); the judge also needs the declaration that ruling resolves and who made
it. A ruleset says which through ``Presentation.declaration``: (the record's envelopes, the seq
of one event of the chain) -> the seq of the declaration, or None. The finders here build such
a hook from the record alone (the events already say it), so no record changes.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .envelope import Envelope
from .roles import HIDDEN

Declaration = Callable[[Sequence[Envelope[Any]], int], int | None]
"""(the record's envelopes, seq of an event of the ruling's chain) -> seq of its declaration."""


def no_declaration(envelopes: Sequence[Envelope[Any]], seq: int) -> int | None:
    """The default: every ruling's declaration is the decision its chain ends at."""
    return None


def open_declaration(opens: tuple[type, ...], closes: tuple[type, ...], rulings: tuple[type, ...]) -> Declaration:
    """For an event of a type in ``rulings``, the latest event of a type in ``opens`` before it
    while no ``closes`` event came between: the attack a combat's rulings resolve until it ends."""
    def find(envelopes: Sequence[Envelope[Any]], seq: int) -> int | None:
        if not isinstance(envelopes[seq - 1].event, rulings):
            return None
        for env in reversed(envelopes[:seq - 1]):
            if isinstance(env.event, closes):
                return None
            if isinstance(env.event, opens):
                found: int = env.seq
                return found
        return None
    return find


def same_card(declares: tuple[type, ...], resolves: tuple[type, ...], stacked: bool = False) -> Declaration:
    """For an event of a type in ``resolves``, the latest event of a type in ``declares`` before
    it that names the same seat and card; ``stacked``: one no later ``resolves`` event answered
    (a stack resolves the last declared first)."""
    def find(envelopes: Sequence[Envelope[Any]], seq: int) -> int | None:
        event = envelopes[seq - 1].event
        if not isinstance(event, resolves):
            return None
        key = _seat_card(event)
        if key[1] in (None, HIDDEN):     # a card this viewer may not see names no declaration
            return None
        answered = 0
        for env in reversed(envelopes[:seq - 1]):
            if _seat_card(env.event) != key:
                continue
            if stacked and isinstance(env.event, resolves):
                answered += 1
            elif isinstance(env.event, declares):
                if not answered:
                    declared: int = env.seq
                    return declared
                answered -= 1
        return None
    return find


def first_of(*finders: Declaration) -> Declaration:
    """The first finder's answer that is not None."""
    def find(envelopes: Sequence[Envelope[Any]], seq: int) -> int | None:
        for f in finders:
            found = f(envelopes, seq)
            if found is not None:
                return found
        return None
    return find


def _seat_card(event: Any) -> tuple[Any, Any]:
    return getattr(event, "seat", None), getattr(event, "card", None)
