"""Decision times: how long each seat took over each decision, from the envelopes' ``received`` stamps.

A decision's time runs from the previous decision's ``received`` stamp (or, for the first, the
header's ``date``, when the match was created) to its own. An unstamped decision (a record played
without a clock, an imported bot match) has no time: ``seconds`` None, and it counts in no total.

(A minimal version of helper ``live``'s module, with the shared API; at merge theirs wins.)
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
    seconds: float | None   # since the previous decision's `received` stamp (or the header's start);
                            # None when unstamped


class SeatClock(msgspec.Struct, frozen=True):
    seat: int
    decisions: int
    total: float
    median: float
    longest: float


def _when(stamp: Any) -> datetime | None:
    if not isinstance(stamp, str) or not stamp:
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None


def decision_times(header: Header, envelopes: Sequence[Envelope[Any]]) -> list[DecisionTime]:
    """One entry per decision envelope, in order."""
    out: list[DecisionTime] = []
    before = _when(header.date)
    for env in envelopes:
        if env.kind != "decision" or env.seat is None:
            continue
        now = _when(env.received)
        seconds = None
        if now is not None and before is not None:
            try:
                seconds = max(0.0, (now - before).total_seconds())
            except TypeError:    # one stamp with a zone, one without
                seconds = None
        out.append(DecisionTime(seq=env.seq, seat=env.seat, seconds=seconds))
        if now is not None:
            before = now
    return out


def seat_clocks(header: Header, envelopes: Sequence[Envelope[Any]], upto: int | None = None) -> dict[int, SeatClock]:
    """Per seat, the timed decisions up to seq ``upto`` (all when None): count, total, median, longest."""
    times: dict[int, list[float]] = {1: [], 2: []}
    for t in decision_times(header, envelopes):
        if upto is not None and t.seq > upto:
            break
        if t.seconds is not None:
            times.setdefault(t.seat, []).append(t.seconds)
    return {seat: SeatClock(seat=seat, decisions=len(v), total=sum(v),
                            median=statistics.median(v) if v else 0.0, longest=max(v, default=0.0))
            for seat, v in times.items()}
