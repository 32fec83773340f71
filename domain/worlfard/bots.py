"""Bots that choose among ``legal`` decisions: the random bot proves any legal play is playable."""
from __future__ import annotations

from typing import Any, Protocol

from domain.core.rng import Rng


class Bot(Protocol):
    def choose(self, legal: list[Any], state: Any, seat: int) -> Any: ...


class RandomBot:
    """Uniform over legal decisions, but proceeding less eagerly so matches look like play."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, legal: list[Any], state: Any, seat: int) -> Any:
        from .commands import Proceed

        actions = [cmd for cmd in legal if not isinstance(cmd, Proceed)]
        if actions and self.rng.below(4) != 0:
            return self.rng.choice(actions)
        return self.rng.choice(legal)
