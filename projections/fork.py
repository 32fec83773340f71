"""Fork: a new match that starts from the state at any settled point of a recorded one.

The new record's header names its origin (``forked_from``, ``forked_at``, and ``forked_chain``, the
origin's chain link there, so the fork names the very record it leaves) and carries the state
as its prepared start position, recorded as one setup event; its own seqs restart at 1, so its
seq k stands where the origin's seq ``forked_at + k - 1`` would.
"""
from __future__ import annotations

from typing import Any

from kifu.domain.core.commit import ChoiceRevealed, ChoiceSealed
from kifu.domain.core.envelope import Envelope, at_rest
from kifu.domain.core.errors import KifuError
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Ruleset

from .timeline import Timeline


class ForkError(KifuError):
    """A fork point that is not one: outside the record, inside a decision, or after the end."""


def settled(envelopes: list[Envelope[Any]], seq: int) -> bool:
    """After ``seq`` the rules are at rest: it is the last event of the setup or of a decision."""
    return at_rest(envelopes, seq)


def decision_span(envelopes: list[Envelope[Any]], seq: int) -> tuple[int, int]:
    """The first and last seq of the decision (or setup) whose consequences include ``seq``."""
    start = seq
    while start > 1 and not at_rest(envelopes, start - 1):
        start -= 1
    end = seq
    while end < len(envelopes) and not at_rest(envelopes, end):
        end += 1
    return start, end


def check_fork_point(ruleset: Ruleset[Any, Any, Any], envelopes: list[Envelope[Any]], at: int,
                     timeline: Timeline) -> Any:
    """The state at ``at`` if a match may start there; else ``ForkError`` saying where it may."""
    if not 1 <= at <= len(envelopes):
        raise ForkError(f"seq {at} is outside the record (1..{len(envelopes)})")
    if not settled(envelopes, at):
        start, end = decision_span(envelopes, at)
        raise ForkError(f"seq {at} is in the middle of #{start} and its consequences (#{start}..#{end}): the rules "
                        f"are not at rest there; fork at {start - 1} (before it) or {end} (after it)")
    open_seals = {e.event.seat for e in envelopes[:at] if isinstance(e.event, ChoiceSealed)} - \
        {e.event.seat for e in envelopes[:at] if isinstance(e.event, ChoiceRevealed)}
    if open_seals:
        raise ForkError(f"at seq {at} a sealed choice is still open (seat {', '.join(map(str, sorted(open_seals)))}): "
                        "fork before the seal or after the reveal")
    state = timeline.state_at(at)
    outcome = ruleset.decider.outcome(state)
    if outcome is not None:
        raise ForkError(f"the match is over at seq {at} ({outcome.describe()}); fork at an earlier seq")
    return state


def legal_at(ruleset: Ruleset[Any, Any, Any], header: Header, envelopes: list[Envelope[Any]], at: int,
             seat: int | None = None, timeline: Timeline | None = None) -> dict[int, list[Any]]:
    """Every legal decision after event ``at`` (a point a fork may start from), for ``seat`` or for
    each seat the rules await there (both at a simultaneous step), in the ruleset's ``legal`` order:
    what ``kifu fork --then INDEX`` counts from 1."""
    timeline = timeline or Timeline(ruleset, header, envelopes)
    state = check_fork_point(ruleset, envelopes, at, timeline)
    awaited = sorted(ruleset.decider.awaiting(state))
    if seat is not None and seat not in awaited:
        waiting = " and ".join(f"seat {s}" for s in awaited) or "nobody"
        raise ForkError(f"seat {seat} has no decision to take after #{at}: the rules await {waiting}")
    return {s: list(ruleset.decider.legal(state, s)) for s in ([seat] if seat is not None else awaited)}


def fork(ruleset: Ruleset[Any, Any, Any], header: Header, envelopes: list[Envelope[Any]], at: int, *,
         match_id: str, seed: int | None = None, timeline: Timeline | None = None) -> Match:
    """A new match from the state after event ``at`` of the given record."""
    timeline = timeline or Timeline(ruleset, header, envelopes)
    state = check_fork_point(ruleset, envelopes, at, timeline)
    return Match.create(ruleset, match_id=match_id, seed=header.seed if seed is None else seed,
                        decks=list(header.decks), players=header.players, start=state,
                        forked_from=header.match_id, forked_at=at, forked_chain=envelopes[at - 1].chain or None)
