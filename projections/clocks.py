"""Decision times: how long each seat took over each decision, from the records' ``received`` stamps.

A minimal version of the shared interface (helper ``live`` owns this module; its version wins at
merge): a decision's time is the span since the previous decision's ``received`` stamp (or the
header's ``date`` for the first one); a decision without a stamp has no time (None).
"""
from __future__ import annotations

import statistics
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from kifu.domain.core.envelope import DECISION, Envelope
from kifu.domain.core.header import Header


class DecisionTime(msgspec.Struct, frozen=True):
    seq: int
    seat: int
    seconds: float | None     # since the previous decision's stamp (or the header's start); None: unstamped


class SeatClock(msgspec.Struct, frozen=True):
    seat: int
    decisions: int
    total: float
    median: float
    longest: float


def _stamp(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def decision_times(header: Header, envelopes: Sequence[Envelope[Any]]) -> list[DecisionTime]:
    out = []
    previous = _stamp(header.date)
    for env in envelopes:
        if env.kind != DECISION or env.seat is None:
            continue
        now = _stamp(env.received)
        seconds = (now - previous).total_seconds() if now is not None and previous is not None else None
        out.append(DecisionTime(seq=env.seq, seat=env.seat, seconds=max(0.0, seconds) if seconds is not None else None))
        if now is not None:
            previous = now
    return out


def seat_clocks(header: Header, envelopes: Sequence[Envelope[Any]], upto: int | None = None) -> dict[int, SeatClock]:
    times: dict[int, list[float]] = {}
    for t in decision_times(header, envelopes):
        if upto is not None and t.seq > upto:
            break
        if t.seconds is not None:
            times.setdefault(t.seat, []).append(t.seconds)
    return {seat: SeatClock(seat=seat, decisions=len(ts), total=sum(ts), median=statistics.median(ts),
                            longest=max(ts)) for seat, ts in sorted(times.items())}
