"""Taking a seat in a served match: the loop a terminal player or a bot runs against the service.

One live stream stays open for the whole match (read by a background thread): it shows the
seat every event as it may see it, and its status messages say when the rules wait for this
seat, with the seat's legal decisions. Then the seat chooses and submits. A decision that lost a
race (409) is re-based on a fresh view; a dropped stream is reopened after the last event seen.
"""
from __future__ import annotations

import queue
import threading
import time
from typing import Any, Callable, get_type_hints

import msgspec

from domain.core.envelope import Envelope
from domain.core.errors import Conflict, KifuError
from domain.core.ruleset import find_ruleset

from . import api
from .client import SSE, KifuClient

Chooser = Callable[[api.SeatView, list[Any]], Any]      # (view, legal commands) -> one of them
Shower = Callable[[list[Envelope[Any]], dict[int, str]], None]

_status = msgspec.json.Decoder(api.StreamStatus)
_raw = msgspec.json.Decoder()
RECONNECTS = 5


class JudgeCannotPlay(KifuError):
    def __init__(self) -> None:
        super().__init__("this is the judge token: it sees everything but takes no seat; use a seat's token")


def view_type(rules: Any) -> Any:
    """The ruleset's view Struct (the return type of its ``view``), to decode views into."""
    return get_type_hints(rules.view).get("return", Any)


def card_names(view: Any, names: dict[int, str]) -> dict[int, str]:
    """Collect ``{"id": n, "name": s}`` card references from a view (as builtins) into ``names``."""
    if isinstance(view, dict):
        if isinstance(view.get("id"), int) and isinstance(view.get("name"), str):
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
        self.messages: "queue.Queue[SSE | KifuError | None]" = queue.Queue()
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


def play_seat(client: KifuClient, match_id: str, choose: Chooser, *, show: Shower | None = None,
              fresh_views: bool = True) -> api.SeatView:
    """Play the seat ``client.token`` stands for until the match is over; returns the final view.

    ``fresh_views`` False (bots that need only the legal decisions): decide from the legal
    decisions the service sends with each answer instead of fetching the whole view each time."""
    view = client.view(match_id)
    if view.seat is None:
        raise JudgeCannotPlay()
    seat = view.seat
    rules = find_ruleset(view.ruleset)
    names = card_names(view.view, {})
    shown = view.seq

    def tell(raw: list[Any]) -> None:
        nonlocal shown
        fresh = [e for e in raw if e["seq"] > shown]
        if fresh:
            shown = fresh[-1]["seq"]
            if show is not None:
                show([rules.envelope_converter(e) for e in fresh], names)

    follower = Follower(client, match_id, view.seq)
    try:
        while view.outcome is None:
            if view.awaiting == seat:
                legal = [msgspec.convert(c, rules.command_type) for c in view.legal]
                try:
                    result = client.decide(match_id, view.seq, choose(view, legal))
                except Conflict:
                    view = client.view(match_id)
                    continue
                tell(result.events)
                view = msgspec.structs.replace(view, seq=result.seq, awaiting=result.awaiting,
                                               outcome=result.outcome, legal=result.legal)
            else:
                status = _wait_for_turn(follower, seat, view.seq, tell)
                view = msgspec.structs.replace(view, seq=status.seq, awaiting=status.awaiting,
                                               outcome=status.outcome, legal=status.legal)
            if fresh_views or view.outcome is not None or (view.awaiting == seat and not view.legal):
                view = client.view(match_id)
                card_names(view.view, names)
    finally:
        follower.stop()
    return view


def _wait_for_turn(follower: Follower, seat: int, seq: int, tell: Callable[[list[Any]], None]) -> api.StreamStatus:
    """Show streamed events until a status past ``seq`` says this seat is awaited or the match ended."""
    while True:
        message = follower.messages.get()
        if message is None:
            raise KifuError("the live stream ended before the match did")
        if isinstance(message, KifuError):
            raise message
        if message.event == "envelope":
            tell([_raw.decode(message.data)])
        elif message.event == "status":
            status = _status.decode(message.data)
            if status.seq >= seq and (status.outcome is not None or status.awaiting == seat):
                return status
