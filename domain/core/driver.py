"""The one loop that runs a match: whoever the rules await decides, until the match is over.

Every front end that plays (``kifu play``, ``selfplay``, ``bench``, the corpus makers, the
service's seats and ``loadtest``) goes through ``drive``: a seat is anything with
``choose(seen)`` (a bot, a person at a terminal, a remote client), and ``submit`` says where a
decision goes (the match in memory, or the store first). Seats the rules await at the same time
are asked in seat order; each decision is submitted on its own, based on the seq its seat saw.
"""
from __future__ import annotations

from typing import Any, Callable

from .bot import Bot, Seen
from .envelope import Envelope
from .errors import KifuError
from .match import Match

Submit = Callable[[Match, int, Any, int], list[Envelope[Any]]]   # (match, seat, command, basis) -> stored events
Shown = Callable[[Match, int, list[Envelope[Any]]], None]        # (match, seat that decided, its events)


class NoDecision(KifuError):
    """The rules wait for a seat that has no legal decision: a rules bug, reported as such."""


def seen_by(match: Match, seat: int) -> Seen:
    """What ``seat`` is shown now: its legal decisions; its view and masked position on demand."""
    rules = match.ruleset
    state = match.state
    mask = rules.mask
    return Seen(seat, match.legal(seat), view=lambda: rules.view(state, seat),
                position=(lambda: mask(state, seat)) if mask is not None else None)


def in_memory(match: Match, seat: int, command: Any, basis: int) -> list[Envelope[Any]]:
    return match.submit(seat, command, basis)


def drive(match: Match, seats: dict[int, Bot], *, submit: Submit = in_memory, shown: Shown | None = None,
          limit: int = 200_000) -> int:
    """Let ``seats`` decide until the match ends; returns the number of decisions taken."""
    decisions = 0
    while match.outcome is None:
        awaited = match.awaiting
        if not awaited:
            raise NoDecision(f"match {match.header.match_id}: nobody is awaited at seq {match.seq}")
        for seat in sorted(awaited):
            if seat not in match.awaiting:
                continue          # an earlier seat's decision settled this one's too
            seen = seen_by(match, seat)
            if not seen.legal:
                raise NoDecision(f"match {match.header.match_id}: seat {seat} has no legal decision "
                                 f"at seq {match.seq}")
            command = seats[seat].choose(seen)
            envelopes = submit(match, seat, command, match.basis(seat))
            decisions += 1
            if shown is not None:
                shown(match, seat, envelopes)
            if decisions >= limit:
                raise NoDecision(f"match {match.header.match_id}: no outcome after {limit} decisions")
    return decisions
