"""Seats of a served match played from here: the core's driver on a table behind the service.

``RemoteTable`` is the driver's ``Table`` for a match served over HTTP, seen through one token
per seat played here (a terminal plays one seat, ``loadtest`` both). Bots and people get the
same ``Seen`` as in process: the seat's legal decisions, its view (decoded into the ruleset's
view struct) and, when asked for, its masked position. A decision that lost a race (409) is
not lost: the seat's view is fetched again and the seat chooses again on it. While the rules
wait for a seat played elsewhere, the live stream shows the events and says when it is ours.
"""
from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from types import GenericAlias
from typing import Any, get_type_hints

import msgspec

from kifu.domain.core.bot import Seen
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Conflict, KifuError
from kifu.domain.core.ruleset import Outcome, find_ruleset

from . import api
from .client import SSE, KifuClient

Shower = Callable[[list[Envelope[Any]], dict[int, str]], None]

_status = msgspec.json.Decoder(api.StreamStatus)
_raw = msgspec.json.Decoder()
RECONNECTS = 5


class JudgeCannotPlay(KifuError):
    def __init__(self) -> None:
        super().__init__("this is the judge token: it sees everything but takes no seat; use a seat's token")


def view_type(rules: Any) -> Any:
    """The ruleset's view Struct (the return type of its ``view``), to decode views into."""
    return get_type_hints(rules.decider.view).get("return", Any)


def card_names(view: Any, names: dict[int, str]) -> dict[int, str]:
    """Collect ``{"id": n, "name": s}`` card references from a view or layout (as builtins)."""
    if isinstance(view, dict):
        if isinstance(view.get("id"), int) and isinstance(view.get("name"), str) and view["name"]:
            names[view["id"]] = view["name"]
        for value in view.values():
            card_names(value, names)
    elif isinstance(view, list):
        for value in view:
            card_names(value, names)
    return names


class Follower:
    """Reads the match's live stream into a queue from a thread; ``None`` marks its end."""

    def __init__(self, client: KifuClient, match_id: str, after: int) -> None:
        self.messages: queue.Queue[SSE | KifuError | None] = queue.Queue()
        self._client = KifuClient(client.server, client.token)   # its own connection, closed by stop()
        self._match_id = match_id
        self._after = after
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="kifu-follow", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        failures = 0
        try:
            while not self._stopped:
                try:
                    for message in self._client.stream(self._match_id, after=self._after):
                        failures = 0
                        if message.event == "envelope" and message.id:
                            self._after = int(message.id)
                        self.messages.put(message)
                        if message.event == "end":
                            return
                except KifuError as exc:
                    failures += 1
                    if self._stopped or failures > RECONNECTS:
                        self.messages.put(exc)
                        return
                    time.sleep(0.2 * failures)
        finally:
            self.messages.put(None)

    def stop(self) -> None:
        self._stopped = True
        self._client.close()


class RemoteTable:
    """A served match as the driver sees it, through the tokens of the seats played here.

    ``fresh_views``: fetch the seat's whole view before each decision (people, bots that look);
    otherwise decide from the legal decisions each answer carries (fast bots). ``follow``: open
    the live stream, to wait for seats played elsewhere and to ``show`` their events."""

    def __init__(self, client: KifuClient, match_id: str, tokens: dict[int, str], *, fresh_views: bool = True,
                 follow: bool = False, show: Shower | None = None, position: bool = False) -> None:
        self.http = client
        self.match_id = match_id
        self.tokens = tokens
        self.fresh_views = fresh_views
        self.position = position
        self.show = show
        self.accepted = 0                     # decisions of ours that landed
        self.conflicts = 0                    # decisions of ours that lost a race (chosen again)
        self.names: dict[int, str] = {}
        self._views: dict[int, api.SeatView] = {}
        self._legal: dict[int, tuple[int, list[Any]]] = {}   # seat -> (basis seq, legal) from the last answer
        first = client.view(match_id, token=next(iter(tokens.values())))
        if first.seat is None:
            raise JudgeCannotPlay()
        self.rules = find_ruleset(first.ruleset)
        self.players = first.players
        self.seq: int                         # where the match stands, as the last answer said (_take)
        self._awaiting: frozenset[int]
        self._outcome: Outcome | None
        self._take(first)
        self.shown = first.seq
        self._follower = Follower(KifuClient(client.server, tokens[first.seat]), match_id, first.seq) \
            if follow else None

    # -- the driver's Table --------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def awaiting(self) -> frozenset[int]:
        return self._awaiting

    def seen(self, seat: int) -> Seen:
        cached = self._legal.get(seat)
        if self.fresh_views or cached is None or cached[0] != self.seq:
            view = self._fetch(seat)
            cached = (view.seq, view.legal)
        self._legal[seat] = cached
        rules = self.rules
        # list[command_type] in one call: half the per-item cost
        commands = msgspec.convert(cached[1], GenericAlias(list, rules.decider.command_type))
        return Seen(seat, commands,
                    view=lambda: msgspec.convert(self._current(seat).view, view_type(rules)),
                    position=lambda: None if (raw := self._current(seat).position) is None
                    else msgspec.convert(raw, rules.decider.state_type))

    def submit(self, seat: int, command: Any) -> list[Envelope[Any]]:
        basis = self._legal[seat][0] if seat in self._legal else self.seq
        try:
            result = self.http.decide(self.match_id, basis, command, token=self.tokens[seat])
        except Conflict:
            self.conflicts += 1
            self._legal.pop(seat, None)
            self._fetch(seat)
            return []
        self.accepted += 1
        self.seq, self._awaiting, self._outcome = result.seq, frozenset(result.awaiting), result.outcome
        self._legal = {seat: (result.seq, result.legal)} if seat in result.awaiting else {}
        envelopes = [self.rules.envelope_converter(e) for e in result.events]
        self._tell(envelopes)
        return envelopes

    def wait(self, seats: frozenset[int]) -> None:
        if self._follower is None:
            time.sleep(0.05)
            self._fetch(min(seats))
            return
        while True:
            message = self._follower.messages.get()
            if message is None:
                raise KifuError("the live stream ended before the match did")
            if isinstance(message, KifuError):
                raise message
            if message.event == "envelope":
                raw = _raw.decode(message.data)
                if raw["seq"] > self.shown:
                    self._tell([self.rules.envelope_converter(raw)])
            elif message.event == "status":
                status = _status.decode(message.data)
                if status.seq >= self.seq:
                    self.seq, self._awaiting, self._outcome = status.seq, frozenset(status.awaiting), status.outcome
                    if self._outcome is not None or self._awaiting & seats:
                        return

    def close(self) -> None:
        if self._follower is not None:
            self._follower.stop()

    # -- inside ----------------------------------------------------------------------------------
    def _fetch(self, seat: int) -> api.SeatView:
        view = self.http.view(self.match_id, token=self.tokens[seat], position=self.position)
        self._take(view)
        self._views[seat] = view
        return view

    def _current(self, seat: int) -> api.SeatView:
        """The seat's view at the seq it decides on (fetched again if an answer moved us on)."""
        view = self._views.get(seat)
        return view if view is not None and view.seq == self.seq else self._fetch(seat)

    def _take(self, view: api.SeatView) -> None:
        self.seq, self._awaiting, self._outcome = view.seq, frozenset(view.awaiting), view.outcome
        card_names(view.layout, self.names)

    def _tell(self, envelopes: list[Envelope[Any]]) -> None:
        fresh = [e for e in envelopes if e.seq > self.shown]
        if fresh:
            self.shown = fresh[-1].seq
            if self.show is not None:
                self.show(fresh, self.names)
