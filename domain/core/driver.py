"""The one loop that runs a match: whoever the rules await decides, until the match is over.

Every front end that plays goes through ``drive``: ``kifu play``, ``selfplay``, ``bench``, the
corpus makers and forks on a match in memory (``LocalTable``), and ``kifu client`` and
``loadtest`` on a match served over HTTP (``kifu.service.player.RemoteTable``). A seat is
anything with ``choose(seen)``: a bot, a person at a terminal. Seats the rules await at the same
time are asked in seat order; each decision is submitted on its own, based on the seq its seat
saw, so a seat's decision is stale only when its own basis moved.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .bot import Bot, Seen
from .envelope import Envelope
from .errors import KifuError
from .match import Match
from .ruleset import Outcome

Shown = Callable[[int, list[Envelope[Any]]], None]        # (seat that decided, the events it caused)


class NoDecision(KifuError):
    """The rules wait for a seat that has no legal decision: a rules bug, reported as such."""


class DecisionLimit(NoDecision):
    """The match reached the caller's cap on decisions before the rules ended it."""


class Table(Protocol):
    """Where a match is played: in memory, in the store, or behind the service."""

    match_id: str

    @property
    def outcome(self) -> Outcome | None: ...

    @property
    def awaiting(self) -> frozenset[int]: ...

    def seen(self, seat: int) -> Seen: ...

    def submit(self, seat: int, command: Any) -> list[Envelope[Any]]: ...

    def wait(self, seats: frozenset[int]) -> None:
        """Block until one of ``seats`` is awaited or the match is over (another party decides)."""


def seen_by(match: Match, seat: int) -> Seen:
    """What ``seat`` is shown now: its legal decisions (the ruleset's ``options`` where it has them:
    built as they are read); its view and masked position on demand."""
    return _Shown(seat, match.options(seat), match.ruleset, match.state)


class _Shown(Seen):
    """A ``Seen`` whose view and masked position are worked out from the state on first use (a
    random bot reads neither: this is built once per decision, so it holds no closures)."""

    __slots__ = ("_rules", "_state")

    def __init__(self, seat: int, legal: Any, rules: Any, state: Any) -> None:
        self.seat, self.legal, self._rules, self._state = seat, legal, rules, state
        self._view = self._position = _UNSET

    @property
    def view(self) -> Any:
        if self._view is _UNSET:
            self._view = self._rules.decider.view(self._state, self.seat)
        return self._view

    @property
    def position(self) -> Any:
        if self._position is _UNSET:
            mask = self._rules.visibility.mask
            self._position = mask(self._state, self.seat) if mask is not None else None
        return self._position


_UNSET: Any = object()


Submit = Callable[[Match, int, Any, int], list[Envelope[Any]]]   # (match, seat, command, basis) -> stored events


def in_memory(match: Match, seat: int, command: Any, basis: int) -> list[Envelope[Any]]:
    return match.submit(seat, command, basis)


class LocalTable:
    """A match held here; ``submit`` decides where a decision goes (memory, or the store first)."""

    def __init__(self, match: Match, submit: Submit = in_memory) -> None:
        self.match = match
        self.match_id = match.header.match_id
        self._submit = submit

    @property
    def outcome(self) -> Outcome | None:
        return self.match.outcome

    @property
    def awaiting(self) -> frozenset[int]:
        return self.match.awaiting

    def seen(self, seat: int) -> Seen:
        return seen_by(self.match, seat)

    def submit(self, seat: int, command: Any) -> list[Envelope[Any]]:
        return self._submit(self.match, seat, command, self.match.basis(seat))

    def wait(self, seats: frozenset[int]) -> None:
        raise NoDecision(f"match {self.match_id}: the rules await "
                         f"{' and '.join(f'seat {s}' for s in sorted(self.awaiting)) or 'nobody'}, "
                         "and nobody plays that seat here")


def drive(table: Table | Match, seats: dict[int, Bot], *, shown: Shown | None = None,
          limit: int = 200_000, until: Callable[[], bool] | None = None) -> int:
    """Let ``seats`` (seat -> who decides) play until the match ends; returns the decisions taken.

    Seats not in ``seats`` are played elsewhere (the other terminal of a served match).
    ``until``: stop early, between two decisions, once it returns True (a cut record)."""
    if isinstance(table, Match):
        table = LocalTable(table)
    ours = frozenset(seats)
    decisions = 0
    while table.outcome is None and not (until is not None and until()):
        awaited = table.awaiting & ours
        if not awaited:
            if not table.awaiting:
                raise NoDecision(f"match {table.match_id}: nobody is awaited and the match is not over")
            table.wait(ours)
            continue
        first = True
        for seat in sorted(awaited) if len(awaited) > 1 else awaited:
            if not first and (seat not in table.awaiting or (until is not None and until())):
                continue          # an earlier seat's decision settled this one's too
            first = False         # (the loop's condition has just been checked for the first)
            seen = table.seen(seat)
            if not seen.legal:
                raise NoDecision(f"match {table.match_id}: seat {seat} has no legal decision")
            envelopes = table.submit(seat, seats[seat].choose(seen))
            if not envelopes:
                continue          # it lost a race to another decision: the seat chooses again on what it sees now
            decisions += 1
            if shown is not None:
                shown(seat, envelopes)
            if decisions >= limit:
                raise DecisionLimit(f"match {table.match_id}: no outcome after {limit} decisions")
    return decisions
