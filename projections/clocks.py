"""Clocks: how long each seat took over each decision, and how long an event round has left.

A decision's time is read from the record alone: the ``received`` stamp the service or the CLI
put on the decision's envelope (``kifu.store.clock``), less the stamp of the decision before it
(any seat's), or less the header's ``date`` (when the match was created) for the first one. A
decision without a stamp, or whose predecessor has none, has no time (``None``): records played
before stamps existed, and hand-written scenarios, show no clock rather than a wrong one.

In a phase where both seats choose at once (secret selection), the seat that chooses second is
timed from the first one's decision: the record says when each choice arrived, not when a seat
started to think.

The round timer is the organiser's clock: a round of ``minutes`` from its start, extended by the
judge's ``TimeExtension`` events in a match's record (envelopes of kind ``judge``), read by name
and fields so that this module needs nothing of the judge's code.
"""
from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header

DECISION = "decision"
EXTENSION = "TimeExtension"     # the judge's payload type (kifu.domain.core.judging), read by name


class DecisionTime(msgspec.Struct, frozen=True):
    seq: int
    seat: int
    seconds: float | None   # since the previous decision's ``received`` stamp (or the header's start); None unstamped


class SeatClock(msgspec.Struct, frozen=True):
    seat: int
    decisions: int          # the seat's decisions with a time
    total: float            # seconds, summed over them
    median: float
    longest: float


class RoundClock(msgspec.Struct, frozen=True, kw_only=True):
    """A round's timer for one match at ``now``: what a judge's watch would say."""

    started: str            # ISO 8601 UTC
    minutes: float          # the round's length
    extension: float        # minutes the judge added (TimeExtension events), every seat's together
    elapsed: float          # seconds since ``started``
    remaining: float        # seconds left (negative: over time)

    @property
    def over(self) -> bool:
        return self.remaining < 0


def stamp(text: str | None) -> float | None:
    """An ISO 8601 stamp (``2026-11-28T17:02:03.123Z``) as POSIX seconds; None for none or garbage."""
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def decision_times(header: Header, envelopes: Sequence[Envelope[Any]]) -> list[DecisionTime]:
    """Every seat decision of the record in order, with how long it took (see the module)."""
    out = []
    before = stamp(header.date)
    for env in envelopes:
        if env.kind != DECISION or env.seat is None:
            continue
        now = stamp(env.received)
        seconds = None if now is None or before is None else round(max(0.0, now - before), 3)
        out.append(DecisionTime(env.seq, env.seat, seconds))
        before = now
    return out


def seat_clocks(header: Header, envelopes: Sequence[Envelope[Any]], upto: int | None = None) -> dict[int, SeatClock]:
    """Per seat (1 and 2, always both): its timed decisions up to seq ``upto`` (default all),
    their total, median and longest time in seconds."""
    return clocks_of(decision_times(header, envelopes), upto)


def clocks_of(times: Iterable[DecisionTime], upto: int | None = None) -> dict[int, SeatClock]:
    """``seat_clocks`` from decision times already computed (a viewer that keeps them)."""
    spent: dict[int, list[float]] = {1: [], 2: []}
    for t in times:
        if upto is not None and t.seq > upto:
            break
        if t.seconds is not None:
            spent.setdefault(t.seat, []).append(t.seconds)
    return {seat: SeatClock(seat, len(xs), round(sum(xs), 3), round(statistics.median(xs), 3) if xs else 0.0,
                            max(xs, default=0.0))
            for seat, xs in sorted(spent.items())}


def extensions(envelopes: Iterable[Envelope[Any]]) -> dict[int | None, float]:
    """Minutes of time extension the judge gave, by seat (None: the match as a whole)."""
    out: dict[int | None, float] = {}
    for env in envelopes:
        event = env.event
        if type(event).__name__ != EXTENSION:
            continue
        minutes = getattr(event, "minutes", None)
        if isinstance(minutes, (int, float)) and not isinstance(minutes, bool):
            seat = getattr(event, "seat", None)
            key = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
            out[key] = out.get(key, 0.0) + float(minutes)
    return out


def round_clock(started: str, minutes: float, now: str, envelopes: Iterable[Envelope[Any]] = ()) -> RoundClock:
    """The round timer of a match at ``now``: ``minutes`` from ``started`` plus the judge's
    extensions in its ``envelopes``. A stamp that cannot be read is a ``ValueError``."""
    begin, at = stamp(started), stamp(now)
    if begin is None:
        raise ValueError(f"the round's start {started!r} is not an ISO 8601 time")
    if at is None:
        raise ValueError(f"{now!r} is not an ISO 8601 time")
    extra = float(sum(extensions(envelopes).values()))
    elapsed = max(0.0, at - begin)
    return RoundClock(started=started, minutes=minutes, extension=extra, elapsed=round(elapsed, 3),
                      remaining=round((minutes + extra) * 60 - elapsed, 3))


def match_clock(header: Header, envelopes: Sequence[Envelope[Any]], minutes: float, now: str) -> RoundClock | None:
    """The round timer of a match started as its header says (``date``); None without a date."""
    if header.date is None or stamp(header.date) is None:
        return None
    return round_clock(header.date, minutes, now, envelopes)


def clock_text(seconds: float | None) -> str:
    """``4.2s``, ``1:05``, ``1:02:05``; ``–`` for no time. Negative: ``-0:42`` (over time)."""
    if seconds is None:
        return "–"
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    if seconds < 60:
        return f"{sign}{seconds:.1f}s"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    mins, secs = divmod(rest, 60)
    return f"{sign}{hours}:{mins:02d}:{secs:02d}" if hours else f"{sign}{mins}:{secs:02d}"
