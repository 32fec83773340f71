"""A listing of decisions whose long runs are counted when listed and built when read.

``legal`` offers every summon square of every affordable piece and every path of every piece
that may move: dozens of commands at times, of which a random bot takes one. ``Options`` holds
the decisions built so far (``ready``, in order) and, at given places among them, products given
by their size and a function that builds the i-th member — so ``options[i]`` is
``list(options)[i]`` and a bot that draws an index over the same count takes the same decision,
having built one command. (WORLFARD's ``domain.worlfard.options`` is the same idea for its
payment × spot × target products.)
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

Build = Callable[[int], Any]
Runs = list[tuple[int, int, Build]]     # (how many ready decisions come before it, count, build)


class Options(Sequence[Any]):
    __slots__ = ("ready", "runs", "_size")

    def __init__(self, ready: list[Any], runs: Runs) -> None:
        self.ready, self.runs = ready, runs
        self._size = len(ready) + sum(run[1] for run in runs)

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError("option index out of range")
        before = 0                                # lazy decisions before ``index``
        for at, count, build in self.runs:
            if index < at + before:
                break
            if index < at + before + count:
                return build(index - at - before)
            before += count
        return self.ready[index - before]

    def __iter__(self) -> Iterator[Any]:
        ready, start = self.ready, 0
        for at, count, build in self.runs:
            yield from ready[start:at]
            start = at
            for i in range(count):
                yield build(i)
        yield from ready[start:]

    def __repr__(self) -> str:
        return f"Options({list(self)!r})"
