"""Helpers for the alteil rule tests; positions come from ``kifu.domain.alteil.positions``."""
from __future__ import annotations

from typing import Any

from kifu.domain.alteil import commands as c
from kifu.domain.alteil import events as ev
from kifu.domain.alteil.positions import TEST_DECK, Position
from kifu.domain.alteil.vocabulary import ACT, ACTION, END, INFLUENCE, SET, START, WINDOW
from kifu.domain.core.errors import Illegal
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset

RULES = find_ruleset("alteil")

__all__ = ["RULES", "TEST_DECK", "Position", "c", "ev", "kinds", "of", "one", "illegal", "ACT", "ACTION", "END",
           "INFLUENCE", "SET", "START", "WINDOW"]


def kinds(envelopes: list[Any]) -> list[str]:
    return [type(e.event).__name__ for e in envelopes]


def of(envelopes: list[Any], kind: type) -> list[Any]:
    return [e.event for e in envelopes if isinstance(e.event, kind)]


def one(envelopes: list[Any], kind: type) -> Any:
    found = of(envelopes, kind)
    assert len(found) == 1, (kind.__name__, kinds(envelopes))
    return found[0]


def illegal(match: Match, seat: int, command: Any, clause: str) -> Illegal:
    seq, state = match.seq, match.state
    try:
        match.submit(seat, command)
    except Illegal as exc:
        assert exc.clause == clause, (exc.clause, exc.reason)
        assert match.seq == seq and match.state == state
        return exc
    raise AssertionError(f"{command!r} was accepted; expected Illegal({clause})")
