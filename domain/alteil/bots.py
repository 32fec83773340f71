"""Bots for alteil: ``random`` (uniform over legal, so every card gets played) and ``greedy``."""
from __future__ import annotations

from typing import Any

from domain.core.bot import Seen
from domain.core.rng import Rng


class RandomBot:
    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        return seen.legal[self.rng.below(len(seen.legal))]


GreedyBot = RandomBot  # replaced below once written
