"""Where two records of a match part, and how their boards differ from the fork point on.

Records are aligned by their origin: a fork's seq k stands where its origin's seq
``forked_at + k - 1`` would, so a fork is compared with its origin (or two forks of one point
with each other) from the first event after the fork point. Otherwise seqs are compared as they
are. Besides the first event that differs, the boards are compared at the alignment point and after
each following decision, the same number of decisions into each record (``Step``), then at the end.
Events are compared by content (kind, seat, clause, cause, event, state digest); the chain
hashes are left out, since two different headers chain differently from the first line on.
"""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope, at_rest
from kifu.domain.core.header import Header
from kifu.domain.core.layout import Cell, Counter, Grid, Part, Zone
from kifu.domain.core.roles import roles_of
from kifu.domain.core.ruleset import Ruleset

from .timeline import Timeline


class Source(msgspec.Struct, frozen=True, kw_only=True):
    """One side of the comparison: which record, what it is, how it ended."""

    name: str
    match_id: str
    events: int
    decisions: int
    seed: int
    rules_version: str
    outcome: str
    forked_from: str | None = None
    forked_at: int | None = None


class Parting(msgspec.Struct, frozen=True, kw_only=True):
    """The first aligned pair that differs; a side is None where its record has already ended."""

    a_seq: int
    b_seq: int
    differ: tuple[str, ...]
    a: Any = None
    b: Any = None


class Row(msgspec.Struct, frozen=True, kw_only=True):
    what: str
    a: Any
    b: Any

    @property
    def differs(self) -> bool:
        return bool(self.a != self.b)


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """The two boards after the same number of decisions from the alignment point (0: the point
    itself); a seq is None where that record has fewer decisions."""

    decisions: int
    a_seq: int | None
    b_seq: int | None
    differ: tuple[str, ...] = ()          # the board rows (``board_rows``) that differ
    rows: tuple[Row, ...] = ()            # those rows' values, on the first step that differs only


class Diff(msgspec.Struct, frozen=True, kw_only=True):
    a: Source
    b: Source
    relation: str
    a_from: int                  # the first seqs compared (after the fork point, if any)
    b_from: int
    common: int                  # aligned events compared equal from there
    parting: Parting | None
    outcome: tuple[Row, ...]
    steps: tuple[Step, ...] = ()

    @property
    def boards_part(self) -> Step | None:
        """The first step whose boards differ."""
        return next((step for step in self.steps if step.differ), None)

    @property
    def same(self) -> bool:
        return self.parting is None and not any(r.differs for r in self.outcome)


class Side(msgspec.Struct, frozen=True):
    name: str
    ruleset: Any
    header: Header
    envelopes: list[Envelope[Any]]


def _source(side: Side) -> Source:
    h = side.header
    final = Timeline(side.ruleset, h, side.envelopes).final
    outcome = side.ruleset.decider.outcome(final)
    return Source(name=side.name, match_id=h.match_id, events=len(side.envelopes),
                  decisions=sum(1 for e in side.envelopes if e.kind == "decision"), seed=h.seed,
                  rules_version=h.rules_version, outcome=outcome.describe() if outcome else "in progress",
                  forked_from=h.forked_from, forked_at=h.forked_at)


def _alignment(a: Header, b: Header) -> tuple[str, int, int]:
    """(how the records relate, first A seq to compare, first B seq to compare)."""
    if b.forked_from == a.match_id and b.forked_at is not None:
        return f"B was forked from A at #{b.forked_at}", b.forked_at + 1, 2
    if a.forked_from == b.match_id and a.forked_at is not None:
        return f"A was forked from B at #{a.forked_at}", 2, a.forked_at + 1
    if a.forked_from is not None and (a.forked_from, a.forked_at) == (b.forked_from, b.forked_at):
        return f"both were forked from {a.forked_from} at #{a.forked_at}", 1, 1
    if a.match_id == b.match_id:
        return "two records of the same match", 1, 1
    if (a.seed, a.decks, a.start) == (b.seed, b.decks, b.start):
        return "two matches from the same setup (seed and decks)", 1, 1
    return "unrelated matches (compared seq by seq)", 1, 1


_COMPARED = ("kind", "seat", "clause", "cause", "event", "digest")


def _content(env: Envelope[Any], shift: int) -> dict[str, Any]:
    """An envelope as compared: no chain; its cause and the seqs its event refers to (fields of
    role ``seq``) relative to the alignment point, since a fork numbers its events anew."""
    raw: dict[str, Any] = msgspec.to_builtins(env)
    raw.pop("chain", None)
    if raw.get("cause") is not None:
        raw["cause"] += shift
    event = raw.get("event")
    if isinstance(event, dict):
        for f in roles_of(type(env.event)):
            key = f.key or f.name
            if f.role == "seq" and isinstance(event.get(key), int) and event[key]:
                event[key] += shift
    return raw


def parting(a: list[Envelope[Any]], b: list[Envelope[Any]], a_from: int, b_from: int,
            digests: bool = True) -> tuple[int, Parting | None]:
    """(number of equal aligned events, the first pair that differs or None); ``digests`` False:
    the records digest differently (two record formats), so their digests are not compared."""
    shift_a, shift_b = -a_from, -b_from   # causes compared relative to the alignment point
    common = 0
    i, j = a_from, b_from
    while i <= len(a) or j <= len(b):
        ea = _content(a[i - 1], shift_a) if i <= len(a) else None
        eb = _content(b[j - 1], shift_b) if j <= len(b) else None
        if ea is None or eb is None:
            return common, Parting(a_seq=i, b_seq=j, differ=("length",), a=ea, b=eb)
        # a state digest covers the seqs the state remembers (a declaration a later ruling traces
        # back to), numbered anew in a fork: digests compare only between records aligned as they are
        compared = _COMPARED if a_from == b_from and digests else _COMPARED[:-1]
        differ = tuple(k for k in compared if ea.get(k) != eb.get(k))
        if differ:
            return common, Parting(a_seq=i, b_seq=j, differ=differ, a=ea, b=eb)
        common += 1
        i, j = i + 1, j + 1
    return common, None


def board_rows(ruleset: Ruleset[Any, Any, Any], state: Any) -> dict[str, Any]:
    """A summary of the judge's view drawn from the ruleset's layout: the outcome, turn and step,
    then each seat's counters, zone sizes and each grid row's squares."""
    layout = ruleset.presentation.layout(ruleset.decider.view(state, None))
    rows: dict[str, Any] = {}
    outcome = ruleset.decider.outcome(state)
    rows["winner"] = None if outcome is None else (outcome.winner or "draw")
    rows["ended by"] = None if outcome is None else outcome.termination
    rows["turn"] = layout.turn
    rows["step"] = layout.step
    for panel in layout.seats:
        rows.update(_part_rows(f"seat {panel.seat} ", panel.parts))
    rows.update(_part_rows("", layout.board))
    return rows


def _part_rows(prefix: str, parts: tuple[Part, ...]) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for part in parts:
        if isinstance(part, Counter):
            rows[prefix + part.label] = part.value
        elif isinstance(part, Zone) and f"{prefix}{part.label}" not in rows:
            rows[prefix + part.label] = part.count or len(part.cards)
        elif isinstance(part, Grid):
            for row in range(1, part.rows + 1):
                label = part.row_labels[row - 1] if len(part.row_labels) >= row else f"row {row}"
                cells = {c.col: c for c in part.cells if c.row == row}
                rows[f"{prefix}{label}"] = " | ".join(_label(cells.get(col)) for col in range(1, part.cols + 1))
    return rows


def _label(cell: Cell | None) -> str:
    """One square: the cards standing there with their marks; empty as ·."""
    if cell is None or not cell.cards:
        return "·"
    return " + ".join((f.name or "?") + (f" ({', '.join(f.marks)})" if f.marks else "") for f in cell.cards)


def settled_points(envelopes: list[Envelope[Any]], start: int) -> list[int]:
    """``start`` (a point at rest) and the last seq of each decision after it: where the rules rest."""
    return [start] + [e.seq for e in envelopes[start:] if at_rest(envelopes, e.seq)]


def steps(a: Side, b: Side, a_at: int, b_at: int,
          ta: Timeline | None = None, tb: Timeline | None = None) -> tuple[Step, ...]:
    """The boards at ``a_at`` / ``b_at`` and after each following decision of both records."""
    ta = ta or Timeline(a.ruleset, a.header, a.envelopes)
    tb = tb or Timeline(b.ruleset, b.header, b.envelopes)
    points_a, points_b = settled_points(a.envelopes, a_at), settled_points(b.envelopes, b_at)
    out: list[Step] = []
    shown = False
    for n in range(max(len(points_a), len(points_b))):
        sa = points_a[n] if n < len(points_a) else None
        sb = points_b[n] if n < len(points_b) else None
        rows = _rows(board_rows(a.ruleset, ta.state_at(sa)) if sa is not None else {},
                     board_rows(b.ruleset, tb.state_at(sb)) if sb is not None else {})
        differ = tuple(r.what for r in rows if r.differs)
        first = bool(differ) and not shown
        shown = shown or first
        out.append(Step(decisions=n, a_seq=sa, b_seq=sb, differ=differ,
                        rows=tuple(r for r in rows if r.differs) if first else ()))
    return tuple(out)


def _rows(rows_a: dict[str, Any], rows_b: dict[str, Any]) -> tuple[Row, ...]:
    return tuple(Row(what=k, a=rows_a.get(k), b=rows_b.get(k)) for k in dict.fromkeys([*rows_a, *rows_b]))


def diff(a: Side, b: Side) -> Diff:
    relation, a_from, b_from = _alignment(a.header, b.header)
    common, part = parting(a.envelopes, b.envelopes, a_from, b_from, a.header.format == b.header.format)
    ta, tb = Timeline(a.ruleset, a.header, a.envelopes), Timeline(b.ruleset, b.header, b.envelopes)
    rows = _rows(board_rows(a.ruleset, ta.final), board_rows(b.ruleset, tb.final))
    return Diff(a=_source(a), b=_source(b), relation=relation, a_from=a_from, b_from=b_from, common=common,
                parting=part, outcome=rows, steps=steps(a, b, a_from - 1, b_from - 1, ta, tb))
