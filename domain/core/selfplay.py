"""Bots playing a match to its end, in memory: the engine's own smoke test and coverage tool."""
from __future__ import annotations

from typing import Any

from .errors import KifuError
from .match import Match


class NoDecision(KifuError):
    """The rules wait for a seat that has no legal decision: a rules bug, reported as such."""


def play_out(match: Match, bots: dict[int, Any], limit: int = 200_000) -> int:
    """Let ``bots`` (seat -> bot) decide until the match ends; returns the number of decisions."""
    decisions = 0
    while match.outcome is None:
        seat = match.awaiting
        if seat is None:
            raise NoDecision(f"match {match.header.match_id}: nobody is awaited at seq {match.seq}")
        legal = match.legal(seat)
        if not legal:
            raise NoDecision(f"match {match.header.match_id}: seat {seat} has no legal decision at seq {match.seq}")
        match.submit(seat, bots[seat].choose(legal, match.state, seat))
        decisions += 1
        if decisions >= limit:
            raise NoDecision(f"match {match.header.match_id}: no outcome after {limit} decisions")
    return decisions
