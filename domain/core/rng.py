"""Seeded randomness derived from (match seed, seq): never global, never the clock.

Two generators share one base (``Draws``: uniform integers by rejection, Fisher–Yates shuffles,
choices), and the record's format says which one a match draws from:

- **Format 2** (``Keyed``): SHAKE-256 (``hashlib``), keyed by ``match_key(seed, nonce)`` (the
  seed and the served match's nonce), read per decision under the label ``draw`` and the
  decision's seq. A seal's salt is the same key under the label ``salt``, the seal's seq and the
  seat (``seal_salt``). Nothing a seat is sent relates to the key: neither draws nor salts
  can be inverted into the seed (docs/security.md, "Fair randomness").
- **Format 1** (``Rng``): our own SplitMix64 keyed by ``seed * gamma + seq * step``. Invertible:
  kept only to re-run records written in format 1, and for bots' own choices (never secret).

Both keep shuffles identical across Python versions forever; the outcome of every draw is
written into an event anyway, so folding never needs this module.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from .memo import Memo

T = TypeVar("T")
_MASK = (1 << 64) - 1
# n -> the largest multiple of n that fits in 64 bits (below's rejection bound)
_LIMITS: Memo[int, int] = Memo("core.rng_limits", bound=4096)

KEYED_FORMAT = 2      # the first record format whose matches draw from ``Keyed``


def _limit(n: int) -> int:
    """The rejection bound of ``below(n)``: draws at or over it are thrown away (no modulo bias)."""
    limit = _LIMITS.get(n)
    if limit is None:
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = _LIMITS.put(n, (1 << 64) - ((1 << 64) % n))
    return limit


class Draws:
    """A stream of 64-bit draws and what the rules make of them."""

    __slots__ = ()

    def next_u64(self) -> int:
        raise NotImplementedError

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection so there is no modulo bias."""
        limit = _limit(n)
        while True:
            x = self.next_u64()
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


class Rng(Draws):
    """SplitMix64: tiny, fast, and stable by construction (no dependence on ``random``)."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    @classmethod
    def for_seq(cls, match_seed: int, seq: int) -> Rng:
        """The format-1 generator for the decision that starts at ``seq`` of the match seeded ``match_seed``."""
        return cls((match_seed * 0x9E3779B97F4A7C15 + seq * 0xD1B54A32D192ED03) & _MASK)

    def next_u64(self) -> int:
        z = self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """``Draws.below`` with ``next_u64`` written out: bots and format-1 shuffles draw here at
        every decision, over a few dozen distinct counts."""
        if n == 1:      # the one draw is always accepted (the limit is 2**64) and its value unread:
            self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK     # the draw's step, without the mix
            return 0
        limit = _limit(n)
        while True:
            z = self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return x % n


_DRAW = b"draw"
_SALT = b"salt"
_BLOCK = 64          # bytes read from the XOF at first: eight draws, most decisions' need


class Keyed(Draws):
    """SHAKE-256 of (key, label, seq) read as a stream of little-endian 64-bit words.

    An XOF's longer output starts with its shorter one, so when the first block is used up the
    stream is read again at twice the length and goes on where it stopped."""

    __slots__ = ("_xof", "_buf", "_pos")

    def __init__(self, key: bytes, seq: int, label: bytes = _DRAW) -> None:
        xof = hashlib.shake_256(key)
        xof.update(label + b"\0" + seq.to_bytes(8, "big"))
        self._xof = xof
        self._buf = xof.digest(_BLOCK)
        self._pos = 0

    def next_u64(self) -> int:
        pos = self._pos
        buf = self._buf
        if pos + 8 > len(buf):
            buf = self._buf = self._xof.digest(2 * len(buf))
        self._pos = pos + 8
        return int.from_bytes(buf[pos:pos + 8], "little")


def match_key(seed: int, nonce: str | None) -> bytes:
    """The format-2 match key: 256 bits of SHAKE-256 over the seed and the served match's nonce
    (none for a local match, whose seed the header shows anyway)."""
    return hashlib.shake_256(b"kifu-key\0" + str(seed).encode() + b"\0" + bytes.fromhex(nonce or "")).digest(32)


def seal_salt(key: bytes, seq: int, seat: int) -> str:
    """The 128-bit salt of the seal ``seat`` recorded at ``seq`` (hex): written nowhere before its
    reveal, derived again from the key when it is revealed and by whoever checks the record."""
    xof = hashlib.shake_256(key)
    xof.update(_SALT + b"\0" + seq.to_bytes(8, "big") + seat.to_bytes(1, "big"))
    return xof.hexdigest(16)


def for_decision(fmt: int, seed: int, key: bytes, seq: int) -> Draws:
    """The generator of the decision (or setup, seq 0) starting at ``seq`` of a match in record format ``fmt``."""
    return Keyed(key, seq) if fmt >= KEYED_FORMAT else Rng.for_seq(seed, seq)
