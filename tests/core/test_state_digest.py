"""``state_digest``: a state type's fixed leading fields are hashed once, with the same result."""
from __future__ import annotations

import hashlib
from typing import ClassVar

import msgspec
import pytest

from domain.core.envelope import canonical, state_digest


class Shown(msgspec.Struct, frozen=True, omit_defaults=True):
    DIGEST_FIXED: ClassVar[tuple[str, ...]] = ("names", "more")
    names: tuple[str, ...]
    more: tuple[int, ...]
    turn: int = 0
    note: str | None = None


class Misdeclared(msgspec.Struct, frozen=True):
    DIGEST_FIXED: ClassVar[tuple[str, ...]] = ("turn",)
    names: tuple[str, ...]
    turn: int = 0


def _plain(state: object) -> str:
    return hashlib.blake2b(canonical(state), digest_size=8).hexdigest()


@pytest.mark.parametrize("turn, note", [(0, None), (3, None), (0, "x"), (7, "名前")])
def test_a_fixed_prefix_digest_equals_the_hash_of_the_whole_json(turn: int, note: str | None) -> None:
    names, more = ("甲", "b\"c"), (1, 2)
    first = Shown(names, more, turn=turn, note=note)
    again = Shown(names, more, turn=turn + 1, note=note)      # same fixed objects: the primed hash is reused
    assert state_digest(first) == _plain(first)
    assert state_digest(again) == _plain(again) != state_digest(first)
    other = Shown(("甲", "d"), more, turn=turn, note=note)   # other names: a digest of its own
    assert state_digest(other) == _plain(other) != state_digest(first)


def test_fixed_fields_that_are_not_the_leading_required_ones_are_refused() -> None:
    with pytest.raises(TypeError, match="DIGEST_FIXED"):
        state_digest(Misdeclared(("a",), turn=2))
