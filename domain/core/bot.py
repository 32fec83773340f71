"""The one bot contract: a bot gets what its seat may see, never the judge's state.

The same bot object plays in process (``kifu play``, ``selfplay``, ``bench``), from a terminal
against the service (``kifu client``) and in ``kifu loadtest``: each front end builds a ``Seen``
from what that seat is shown and asks the bot to ``choose``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from .rng import Rng


class Seen:
    """What a seat knows when it must decide.

    ``legal``: its legal decisions (commands). ``view``: the ruleset's view for the seat.
    ``position``: the ruleset's ``mask(state, seat)`` — the state with everything the seat may
    not see replaced — for bots that simulate with the pure ``decide``; None where the ruleset
    has no mask. ``view`` and ``position`` may be given as zero-argument functions: they are
    computed on first use, so a bot that reads only ``legal`` costs no view."""

    __slots__ = ("seat", "legal", "_view", "_position")

    def __init__(self, seat: int, legal: list[Any], view: Any = None, position: Any = None) -> None:
        self.seat = seat
        self.legal = legal
        self._view = view
        self._position = position

    @property
    def view(self) -> Any:
        if callable(self._view):
            self._view = self._view()
        return self._view

    @property
    def position(self) -> Any:
        if callable(self._position):
            self._position = self._position()
        return self._position


class Bot(Protocol):
    def choose(self, seen: Seen) -> Any: ...


BotFactory = Callable[[int], Bot]      # (seed) -> bot


class RandomBot:
    """Uniform over the seat's legal decisions: the bot every ruleset has unless it brings its own."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        return self.rng.choice(seen.legal)
