"""A list of decisions built only when read: ``len`` and ``[i]`` without building the rest.

A ruleset's ``legal`` may offer hundreds of commands at times (WORLFARD: every payment × spot ×
target of every card; masters: every summon square and every path), of which a random bot takes
one. ``Options`` holds them as blocks — a ready list, or a product
given by its size and a function that builds its i-th member — in the order ``legal`` lists
them, so ``options[i]`` is ``list(options)[i]`` and a bot that draws an index over the same
count takes the same decision, having built one command instead of all of them.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

Build = Callable[[int], Any]
Runs = list[tuple[int, int, Build]]     # (how many ready decisions come before it, count, build)


class Options(Sequence[Any]):
    """The decisions in order; the passive ones (proceed, pass, decline) sit at either end."""

    __slots__ = ("_blocks", "_ends", "_size", "head", "tail")

    def __init__(self) -> None:
        self._blocks: list[Sequence[Any] | Build] = []   # a list built, or the builder of a product
        self._ends: list[int] = []      # cumulative sizes, for the bisect in __getitem__
        self._size = 0
        self.head = 0                   # passive decisions at the start (Pass)
        self.tail = 0                   # passive decisions at the end (Decline, Proceed)

    def add(self, items: Sequence[Any]) -> None:
        """Append decisions already built."""
        if items:
            self._blocks.append(items)
            self._size += len(items)
            self._ends.append(self._size)

    def add_product(self, count: int, build: Build) -> None:
        """Append ``count`` decisions, the i-th built by ``build(i)`` when read."""
        if count > 0:
            self._blocks.append(build)
            self._size += count
            self._ends.append(self._size)

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        size = self._size
        if index.__class__ is not int or not 0 <= index < size:   # (a bot asks in range, from the start)
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(size))]
            if index < 0:
                index += size
            if not 0 <= index < size:
                raise IndexError("option index out of range")
        ends = self._ends
        block = bisect_right(ends, index)
        found = self._blocks[block]
        at = index - ends[block - 1] if block else index
        return found(at) if callable(found) else found[at]

    def __iter__(self) -> Iterator[Any]:
        start = 0
        for found, end in zip(self._blocks, self._ends, strict=True):
            if callable(found):
                for i in range(end - start):
                    yield found(i)
            else:
                yield from found
            start = end

    @classmethod
    def of_runs(cls, ready: list[Any], runs: Runs) -> Options:
        """Decisions listed as ``ready`` with products at given places among them: each run is
        (how many ready decisions come before it, count, build)."""
        out = cls()
        start = 0
        for at, count, build in runs:
            out.add(ready[start:at])
            out.add_product(count, build)
            start = at
        out.add(ready[start:])
        return out

    def actions(self) -> Sequence[Any]:
        """The decisions that do something (not proceed, pass or decline), still unbuilt."""
        return _Span(self, self.head, self._size - self.tail)

    def __repr__(self) -> str:
        return f"Options({list(self)!r})"


class _Span(Sequence[Any]):
    __slots__ = ("_of", "_start", "_size")

    def __init__(self, of: Options, start: int, stop: int) -> None:
        self._of, self._start, self._size = of, start, max(0, stop - start)

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("option index out of range")
        return self._of[self._start + index]
