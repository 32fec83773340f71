"""What the stepper shows at a position: board, events, clause, card text, why, the warning.

Pure and Textual-free, so the stepper's panes, ``kifu replay`` without a terminal and the tests
all read the same text. Everything is drawn from the core's neutral parts (the ruleset's layout,
the roles of event fields, the clause reference, the catalogue); no game's field names here.
"""
from __future__ import annotations

import bisect
from typing import Any

from rich.console import Group
from rich.text import Text

from kifu.domain.core.layout import faces
from kifu.domain.core.record import first_broken_link, first_broken_seal
from kifu.domain.core.roles import cards_named
from kifu.domain.core.visibility import redact_between, seat_view
from kifu.projections.causes import ruling_of
from kifu.projections.causes import why as why_of
from kifu.projections.clocks import clock_text, clocks_of, decision_times
from kifu.projections.timeline import Timeline
from kifu.projections.words import Words

from .. import render

SEATS: tuple[int | None, ...] = (None, 1, 2)      # the seat toggle: judge, seat 1, seat 2


def integrity(timeline: Timeline) -> str:
    """Why the record does not verify ("" when it does): an edited line or a broken commitment."""
    broken = first_broken_link(timeline.header, timeline.envelopes)
    if broken is not None:
        return (f"RECORD DOES NOT VERIFY: hash chain broken at seq {broken}; events from there on "
                "were changed after recording")
    sealed = first_broken_seal(timeline.header, timeline.envelopes)
    if sealed is not None:
        return f"RECORD DOES NOT VERIFY: commitment broken at seq {sealed[0]}: {sealed[1]}"
    return ""


class Position:
    """A seq into a timeline, seen by the judge or one seat, with an optional focused card."""

    def __init__(self, timeline: Timeline, seat: int | None = None, seq: int = 0) -> None:
        self.timeline = timeline
        self.rules = timeline.ruleset
        self.seat = seat
        self.seq = seq
        self.focus = 0                 # index into the named cards of the layout; 0 = the event's own card
        self.warning = integrity(timeline)
        self._decisions = timeline.decision_seqs()
        self._times = decision_times(timeline.header, timeline.envelopes)
        self._catalogue: Any = None
        self.all_zones = False         # ``z``: every zone in full (the whole graveyard, a deck's order)

    # -- moving ----------------------------------------------------------------------------------
    @property
    def last(self) -> int:
        return self.timeline.last_seq

    def go(self, seq: int) -> None:
        self.seq = max(0, min(self.last, seq))
        self.focus = 0

    def step(self, n: int) -> None:
        self.go(self.seq + n)

    def decision(self, n: int) -> None:
        """To the next (n=1) or previous (n=-1) player decision."""
        if n > 0:
            i = bisect.bisect_right(self._decisions, self.seq)
            self.go(self._decisions[i] if i < len(self._decisions) else self.last)
        else:
            i = bisect.bisect_left(self._decisions, self.seq)
            self.go(self._decisions[i - 1] if i > 0 else 0)

    def turn_of(self, seq: int) -> int:
        return int(self.rules.presentation.turn(self.timeline.state_at(seq)) or 0)

    def turn(self, n: int) -> None:
        """To the first event of the next turn, or the start of this (then the previous) turn.

        Turns only grow along a record, so each jump is a binary search over the timeline."""
        here = self.turn_of(self.seq)
        if n > 0:
            target = here + 1
        else:
            start = self._first_seq_of(here)
            target = here if start < self.seq else here - 1
        self.go(self._first_seq_of(target) if target >= 0 else 0)

    def _first_seq_of(self, turn: int) -> int:
        lo, hi = 0, self.last
        if self.turn_of(hi) < turn:
            return hi
        while lo < hi:
            mid = (lo + hi) // 2
            if self.turn_of(mid) >= turn:
                hi = mid
            else:
                lo = mid + 1
        return lo

    def toggle_zones(self) -> None:
        self.all_zones = not self.all_zones

    def toggle_seat(self) -> None:
        self.seat = SEATS[(SEATS.index(self.seat) + 1) % len(SEATS)]
        self.focus = 0

    # -- what is shown ---------------------------------------------------------------------------
    def layout(self) -> Any:
        rules = self.rules
        return self.timeline.labelled(rules.presentation.layout(seat_view(rules, self.timeline.state_at(self.seq),
                                                                          self.seat)), self.seq)

    def shown(self, env: Any) -> Any:
        """An event as the chosen seat saw it: the scrub the service and the web viewer apply."""
        if self.seat is None:
            return env
        tl = self.timeline
        return redact_between(self.rules, env, self.seat, tl.state_at(env.seq - 1), tl.state_at(env.seq))

    @property
    def command(self) -> Any:
        return self.rules.command_from_builtins

    def names(self) -> Any:
        rules = self.rules
        return rules.presentation.card_names(self.timeline.final) if rules.presentation.card_names else None

    def marked(self) -> frozenset[int]:
        """The cards the current event names (as this view saw it), marked on the board."""
        env = self.timeline.envelope(self.seq)
        if env is None:
            return frozenset()
        return frozenset(Words().cards(self.shown(env).event))

    def look(self) -> render.Look:
        return render.Look(marked=self.marked(), all_zones=self.all_zones)

    def board(self) -> Group:
        return render.board(self.layout(), self.timeline.header.players, self.look())

    def board_parts(self) -> tuple[list[tuple[int | None, Any]], Text]:
        """The board by part (seat panels, the shared board) and its status line."""
        layout = self.layout()
        return render.board_parts(layout, self.timeline.header.players, self.look()), render.status_line(layout)

    def clock(self) -> Text:
        """Each seat's decisions so far and the time they took (the records' ``received`` stamps)."""
        per: dict[int, list[float]] = {}
        unstamped = 0
        for t in self._times:
            if t.seq > self.seq:
                break
            if t.seconds is None:
                unstamped += 1
            else:
                per.setdefault(t.seat, []).append(t.seconds)
        line = Text("clock ", style="dim")
        if not per:
            line.append("no decision times recorded" if unstamped else "no decision yet", style="dim")
            return line
        for i, (seat, times) in enumerate(sorted(per.items())):
            if i:
                line.append(" · ", style="dim")
            line.append(f"seat {seat} ", style=render.SEAT_STYLE.get(seat, ""))
            line.append(f"{_duration(sum(times))} over {render.plural(len(times), 'decision')}, "
                        f"longest {_duration(max(times))}")
        last = next((t for t in reversed(self._times) if t.seq <= self.seq), None)
        if last is not None and last.seconds is not None:
            line.append(f" · #{last.seq} took {_duration(last.seconds)}", style="dim")
        return line

    def seat_in_focus(self) -> int | None:
        """The seat the current event concerns (who decided, else the first seat it names)."""
        env = self.timeline.envelope(self.seq)
        if env is None:
            return None
        if env.seat:
            return env.seat
        seat = getattr(env.event, "seat", None)
        return seat if isinstance(seat, int) else None

    def who(self) -> str:
        return "judge view" if self.seat is None else f"seat {self.seat}'s view"

    def status(self) -> Text:
        return Text(f"event {self.seq}/{self.last} · turn {self.turn_of(self.seq)} · {self.who()}")

    def clock_summary(self) -> str:
        """The clock line (``kifu.projections.clocks``): this decision's time, then each seat's total
        and median up to here; "" for a record without ``received`` stamps (``kifu replay --at``'s
        printed form; the stepper's events pane shows ``clock``)."""
        if not any(t.seconds is not None for t in self._times):
            return ""
        this = next((t for t in self._times if t.seq == self.seq), None)
        took = f"took {clock_text(this.seconds)} · " if this is not None else ""
        clocks = clocks_of(self._times, self.seq)
        return took + " · ".join(f"seat {c.seat} {clock_text(c.total)} (median {clock_text(c.median)})"
                                 for c in clocks.values())

    def event_lines(self, before: int = 4, after: int = 0) -> list[Text]:
        names = self.names()
        lines = []
        for seq in range(max(1, self.seq - before), min(self.last, self.seq + after) + 1):
            env = self.timeline.envelope(seq)
            if env is None:
                continue
            line = render.event_line(self.shown(env), names, original=env.event, command=self.command)
            if seq == self.seq:
                line.stylize("reverse")
            lines.append(line)
        if not lines:
            lines.append(Text("before the first event: press n or → to step", style="dim"))
        return lines

    def clause(self) -> Text:
        env = self.timeline.envelope(self.seq)
        if env is None or not env.clause:
            return Text("")
        entry = self.rules.content.clauses().get(env.clause)
        if entry is None:
            return Text(env.clause, style="green")
        return render.clause_text(env.clause, entry.title, entry.text)

    # -- card text ------------------------------------------------------------------------------
    def places(self) -> list[tuple[str, Any]]:
        """Every visible named card with where it stands: what focus cycles through."""
        return [(where, face) for where, face in faces(self.layout()) if not face.hidden]

    def move_focus(self, n: int) -> None:
        count = len(self.places())
        self.focus = (self.focus + n) % (count + 1) if count else 0      # 0 is the event's own card

    def focused(self) -> tuple[str, str] | None:
        """(where, name) of the focused card: the one chosen with Tab, else the current event's."""
        places = self.places()
        if self.focus and places:
            where, face = places[(self.focus - 1) % len(places)]
            return where, face.name
        env = self.timeline.envelope(self.seq)
        if env is None:
            return None
        shown = self.shown(env)
        named = {face.id: (where, face.name) for where, face in places if face.id}
        for card in cards_named(shown.event):
            if card in named:
                return named[card]
        return None

    def card_text(self) -> Text:
        focused = self.focused()
        if focused is None:
            return Text("no card in focus: Tab picks a card on the board", style="dim")
        where, name = focused
        if self._catalogue is None:
            self._catalogue = self.rules.content.catalogue()
        row = self._catalogue.card(name)
        t = Text(f"{name}", style="bold")
        t.append(f"  ({where})", style="dim")
        if row is None:
            t.append("\nno catalogue entry for this card", style="dim")
            return t
        values = " ".join(f"{c.title} {row.get(c.key)}" for c in self._catalogue.columns
                          if c.key not in ("name", "text") and row.get(c.key))
        if values:
            t.append("\n" + values, style="cyan")
        if row.text:
            t.append("\n" + row.text)
        return t

    def why(self) -> Text:
        """The cause chain of the current event back to its decision, one line per link with the
        values its ruling used (as ``kifu why`` shows them, from this view's own board just before
        it), then the declaration the ruling resolves when it lies before that decision."""
        if self.seq == 0:
            return Text("before the first event: nothing to explain", style="dim")
        names = self.names()
        t = Text()
        both = why_of(self.rules, self.timeline.envelopes, self.seq)
        for depth, link in enumerate(both.chain):
            whole = self.timeline.envelopes[link.seq - 1]
            shown = self.shown(whole)
            if depth:
                t.append("\n" + "  " * (depth - 1) + "└ ")
            t.append_text(render.event_line(shown, names, original=whole.event, command=self.command))
            if link.clause_title:
                t.append(f"  {link.clause_title}", style="green")
            for line in render.ruling_lines(ruling_of(self.timeline, shown, self.seat), "  " * depth + "  "):
                t.append("\n")
                t.append_text(line)
        if both.declaration and both.declaration[0].seq != both.chain[-1].seq:
            t.append(f"\nresolves #{both.declaration[0].seq}, declared by seat {both.declared_by}:", style="bold")
            for depth, link in enumerate(both.declaration):
                whole = self.timeline.envelopes[link.seq - 1]
                t.append("\n" + "  " * depth + ("└ " if depth else ""))
                t.append_text(render.event_line(self.shown(whole), names, original=whole.event, command=self.command))
        return t


def _duration(seconds: float) -> str:
    """``4.2s``, ``3m05s``, ``1h02m``."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, sec = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{sec:02d}s"
    return f"{minutes // 60}h{minutes % 60:02d}m"
