"""The rules' speed caches, in one place: bounded, and safe to share between threads by construction.

``decide``, ``legal`` and ``evolve`` are hot (a WORLFARD self-play match runs them tens of
thousands of times) and ask the same questions of the same printed cards and the same states
over and over. The answers are kept here, never in a bare module-level dict or list, so that:

- every cache has an explicit bound (it is emptied whole when full: a bound, not an LRU; the
  working set of one match is far below it, so a full cache only ever means many matches ran);
- no cache can leak one match's answer into another's. A ``Memo`` keeps answers of a *pure*
  function by *value* (equal keys, equal answers, in any match, on any thread); a ``ByIdentity``
  keeps answers about one *object* (a match's card-name tuple, a state) by its identity, holding
  the object so its id cannot be reused while the answer is kept; a ``Slot`` keeps the one
  answer about the objects asked last, with them; a ``PerThread`` hands each thread its own
  scratch object. Each entry is written whole (one dict store or one tuple), so
  a reader on another thread sees the old entry or the new one, never half of each, and two
  threads that miss at once both compute the same answer;
- a cache is never state: the rules give the same events with every cache empty (``clear_all``
  empties them; the tests run matches both ways).
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

K = TypeVar("K")
V = TypeVar("V")
Obj = TypeVar("Obj")
T = TypeVar("T")

_ALL: list[Any] = []   # every cache made (module-level, they live as long as the process): ``clear_all``, ``sizes``


class Memo(dict[K, V]):
    """Answers of a pure function by key: ``memo.get(key)`` (a plain dict read, as fast as one)
    and ``memo.put(key, value)`` on a miss, which empties the memo first when it holds ``bound``
    answers. Keys are values (names, numbers, tuples of them), never ids: an id can be reused."""

    __slots__ = ("name", "bound")

    def __init__(self, name: str, bound: int) -> None:
        super().__init__()
        self.name = name
        self.bound = bound
        _ALL.append(self)

    def put(self, key: K, value: V) -> V:
        if len(self) >= self.bound:
            self.clear()
        dict.__setitem__(self, key, value)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self.put(key, value)

    def __repr__(self) -> str:
        return f"Memo({self.name!r}, {len(self)}/{self.bound})"


class ByIdentity(Generic[Obj, V]):
    """``build(obj)`` kept per object, by identity: a table worked out once per match from the
    tuple every state of the match shares, or once per state. The entry holds ``obj`` alive so
    its id stays its own; ``last`` (the object asked last and its answer, one tuple) answers a
    repeated question without a lookup, and callers on the hottest paths read it inline."""

    __slots__ = ("name", "bound", "last", "_build", "_by_id")

    def __init__(self, name: str, build: Callable[[Obj], V], bound: int) -> None:
        self.name = name
        self.bound = bound
        self._build = build
        self.last: tuple[object, V] = (_NOTHING, cast(V, None))   # (never answered: no object is _NOTHING)
        self._by_id: dict[int, tuple[Obj, V]] = {}
        _ALL.append(self)

    def __call__(self, obj: Obj) -> V:
        last = self.last
        if last[0] is obj:
            return last[1]
        hit = self._by_id.get(id(obj))
        if hit is None or hit[0] is not obj:
            if len(self._by_id) >= self.bound:
                self._by_id.clear()
            hit = self._by_id[id(obj)] = (obj, self._build(obj))
        self.last = hit
        return hit[1]

    def clear(self) -> None:
        self._by_id.clear()
        self.last = (_NOTHING, cast(V, None))

    def __len__(self) -> int:
        return len(self._by_id)

    def __repr__(self) -> str:
        return f"ByIdentity({self.name!r}, {len(self._by_id)}/{self.bound})"


class PerThread(Generic[T]):
    """One scratch object per thread, made by ``make`` on the thread's first ``get``: for a cache
    that keeps several related answers about the state last asked (updated field by field, so
    it must not be seen by another thread half-updated). The hottest callers read
    ``per_thread.local.value`` inline and call ``get`` only when that raises AttributeError."""

    __slots__ = ("name", "_make", "local")

    def __init__(self, name: str, make: Callable[[], T]) -> None:
        self.name = name
        self._make = make
        self.local = threading.local()
        _ALL.append(self)

    def get(self) -> T:
        local = self.local
        try:
            value: T = local.value
            return value
        except AttributeError:
            value = local.value = self._make()
            return value

    def clear(self) -> None:
        self.local = threading.local()     # every thread makes a fresh object on its next ``get``

    def __repr__(self) -> str:
        return f"PerThread({self.name!r})"


class Slot(Generic[T]):
    """The answer about the object(s) asked last, with those objects, as one tuple in ``value``
    (replaced whole, so another thread reads one answer or the other, and the objects it holds
    keep their ids their own): for a question asked again and again about the same few rows
    of a state, checked by identity on read."""

    __slots__ = ("name", "value", "_empty")

    def __init__(self, name: str, empty: T) -> None:
        self.name = name
        self.value = self._empty = empty
        _ALL.append(self)

    def clear(self) -> None:
        self.value = self._empty

    def __len__(self) -> int:
        return int(self.value is not self._empty)

    def __repr__(self) -> str:
        return f"Slot({self.name!r})"


class _Nothing:
    """What ``ByIdentity.last`` holds before its first answer (no object of the rules is it)."""


_NOTHING = _Nothing()


def clear_all() -> None:
    """Empty every cache (tests: the rules must decide the same with cold caches)."""
    for cache in _ALL:
        cache.clear()


def sizes() -> dict[str, int]:
    """How full each cache is, by name (a ``PerThread`` counts as 0): for the bench and tests."""
    return {cache.name: len(cache) if not isinstance(cache, PerThread) else 0 for cache in _ALL}
