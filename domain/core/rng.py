"""Seeded randomness derived from (match seed, seq): never global, never the clock.

Our own SplitMix64 generator keeps shuffles identical across Python versions forever; the
outcome of every draw is written into an event anyway, so folding never needs this module.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .memo import Memo

T = TypeVar("T")
_MASK = (1 << 64) - 1
# n -> the largest multiple of n that fits in 64 bits (below's rejection bound)
_LIMITS: Memo[int, int] = Memo("core.rng_limits", bound=4096)


class Rng:
    """SplitMix64: tiny, fast, and stable by construction (no dependence on ``random``)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    @classmethod
    def for_seq(cls, match_seed: int, seq: int) -> Rng:
        """The generator for the decision that starts at ``seq`` of the match seeded ``match_seed``."""
        return cls((match_seed * 0x9E3779B97F4A7C15 + seq * 0xD1B54A32D192ED03) & _MASK)

    def next_u64(self) -> int:
        z = self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection so there is no modulo bias.

        (``next_u64`` written out, and the rejection limit kept per ``n``: bots and shuffles draw
        here at every decision, over a few dozen distinct counts.)"""
        if n == 1:      # the one draw is always accepted (the limit is 2**64) and its value unread:
            self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK     # the draw's step, without the mix
            return 0
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("below() needs n > 0")
            limit = _LIMITS.put(n, (1 << 64) - ((1 << 64) % n))
        while True:
            z = self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def shuffled(self, items: Sequence[T]) -> tuple[T, ...]:
        """Fisher–Yates; returns a new tuple and leaves ``items`` alone."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]
