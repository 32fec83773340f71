"""Decision times from each decision's ``received`` stamp (minimal: helper ``live`` owns this module).

A decision's time is the span since the previous decision's stamp (or the header's ``date``,
the match's start); an unstamped decision has none. ``seat_clocks`` sums them per seat.
"""
from __future__ import annotations

import statistics
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header


class DecisionTime(msgspec.Struct, frozen=True):
    seq: int
    seat: int
    seconds: float | None   # since the previous decision's `received` stamp (or the header's start); None: unstamped


class SeatClock(msgspec.Struct, frozen=True):
    seat: int
    decisions: int
    total: float
    median: float
    longest: float


def _when(stamp: str | None) -> datetime | None:
    if not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def decision_times(header: Header, envelopes: Sequence[Envelope[Any]]) -> list[DecisionTime]:
    out = []
    last = _when(header.date)
    for env in envelopes:
        if env.kind != "decision" or env.seat is None:
            continue
        now = _when(env.received)
        seconds = (now - last).total_seconds() if now is not None and last is not None else None
        out.append(DecisionTime(env.seq, env.seat, None if seconds is None else max(seconds, 0.0)))
        if now is not None:
            last = now
    return out


def seat_clocks(header: Header, envelopes: Sequence[Envelope[Any]], upto: int | None = None) -> dict[int, SeatClock]:
    times: dict[int, list[float]] = {}
    for t in decision_times(header, envelopes):
        if upto is not None and t.seq > upto:
            break
        if t.seconds is not None:
            times.setdefault(t.seat, []).append(t.seconds)
    return {seat: SeatClock(seat, len(ts), sum(ts), statistics.median(ts), max(ts))
            for seat, ts in sorted(times.items())}
