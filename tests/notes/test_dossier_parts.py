"""The dossier's parts that need no browser: judge events near the ruling, clauses cited once."""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.ruleset import ClauseEntry
from kifu.projections.causes import Link, Why
from kifu.projections.dossier import cited, judge_events


class Ruled(msgspec.Struct, frozen=True):
    judge: str
    at: int


def env(seq: int, kind: Any, event: Any = None) -> Envelope[Any]:
    return Envelope(seq=seq, kind=kind, event=event or {"type": "X"})


def test_judge_events_near_the_seq_or_about_it_are_included() -> None:
    envelopes = [env(1, "decision"), env(2, "judge", Ruled("kim", 40)), env(30, "judge", Ruled("kim", 7)),
                 env(31, "judge", Ruled("kim", 9)), env(32, "rule")]
    found = judge_events(envelopes, 9, 8, lambda e: f"{type(e.event).__name__} by {e.event.judge}")
    assert found == ((2, "Ruled by kim"), (31, "Ruled by kim"))


def test_every_clause_cited_once_in_the_order_met() -> None:
    def link(seq: int, clause: str | None) -> Link:
        return Link(seq=seq, kind="rule", seat=None, clause=clause, event={})

    why = Why(seq=5, chain=(link(5, "M-2.2"), link(4, "M-2.1")), declaration=(link(2, "M-5.4"), link(1, "M-2.1")))
    reference = {c: ClauseEntry(id=c, title=c, text="", original="") for c in ("M-2.1", "M-2.2", "M-5.4")}
    assert [c.id for c in cited(why, "M-2.2", reference)] == ["M-2.2", "M-2.1", "M-5.4"]
