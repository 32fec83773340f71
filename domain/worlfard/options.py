"""A list of decisions built only when read: ``len`` and ``[i]`` without building the rest.

``legal`` offers every payment × spot × target of every card: hundreds of commands at times, of
which a random bot takes one. ``Options`` holds them as blocks — a ready list, or a product
given by its size and a function that builds its i-th member — in the order ``legal`` lists
them, so ``options[i]`` is ``list(options)[i]`` and a bot that draws an index over the same
count takes the same decision, having built one command instead of all of them.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Any, Callable, Iterator, Sequence, overload

Build = Callable[[int], Any]


class Options(Sequence[Any]):
    """The decisions in order; the passive ones (proceed, pass, decline) sit at either end."""

    __slots__ = ("_blocks", "_ends", "head", "tail")

    def __init__(self) -> None:
        self._blocks: list[tuple[int, Build, Sequence[Any] | None]] = []
        self._ends: list[int] = []      # cumulative sizes, for the bisect in __getitem__
        self.head = 0                   # passive decisions at the start (Pass)
        self.tail = 0                   # passive decisions at the end (Decline, Proceed)

    def add(self, items: Sequence[Any]) -> None:
        """Append decisions already built."""
        if items:
            self._push(len(items), items.__getitem__, items)

    def add_product(self, count: int, build: Build) -> None:
        """Append ``count`` decisions, the i-th built by ``build(i)`` when read."""
        if count > 0:
            self._push(count, build, None)

    def _push(self, count: int, build: Build, items: Sequence[Any] | None) -> None:
        self._blocks.append((count, build, items))
        self._ends.append((self._ends[-1] if self._ends else 0) + count)

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        size = len(self)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(size))]
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("option index out of range")
        block = bisect_right(self._ends, index)
        start = self._ends[block - 1] if block else 0
        return self._blocks[block][1](index - start)

    def __iter__(self) -> Iterator[Any]:
        for count, build, items in self._blocks:
            if items is not None:
                yield from items
            else:
                for i in range(count):
                    yield build(i)

    def actions(self) -> Sequence[Any]:
        """The decisions that do something (not proceed, pass or decline), still unbuilt."""
        return _Span(self, self.head, len(self) - self.tail)

    def __repr__(self) -> str:
        return f"Options({list(self)!r})"


class _Span(Sequence[Any]):
    __slots__ = ("_of", "_start", "_stop")

    def __init__(self, of: Options, start: int, stop: int) -> None:
        self._of, self._start, self._stop = of, start, max(start, stop)

    def __len__(self) -> int:
        return self._stop - self._start

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("option index out of range")
        return self._of[self._start + index]
