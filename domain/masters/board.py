"""The board's geometry (M-Q1, M-Q2, M-Q3, M-Q4, M-Q5): squares, territories, paths.

A square is the int ``row * 10 + col`` (1-based): ``13`` is row 1, column 3 — seat 1's master
starts there, seat 2's at ``63``. Pure functions of the board's size (vocabulary.py).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from kifu.domain.core.clauses import implements

from .vocabulary import BOARD_COLS, BOARD_ROWS, TERRITORY_ROWS


def square(row: int, col: int) -> int:
    return row * 10 + col


def row_of(sq: int) -> int:
    return sq // 10


def col_of(sq: int) -> int:
    return sq % 10


def on_board(sq: int) -> bool:
    return 1 <= sq // 10 <= BOARD_ROWS and 1 <= sq % 10 <= BOARD_COLS


_ITSELF = range((BOARD_ROWS + 1) * 10)     # square -> itself, as ``paths`` labels a square by default
SQUARES: tuple[int, ...] = tuple(square(r, c) for r in range(1, BOARD_ROWS + 1) for c in range(1, BOARD_COLS + 1))


_COLS = "abcdefghij"


def name(sq: int) -> str:
    """A square as people say it, and as events and commands name it: column letter and row
    number (``c1`` is row 1, column 3)."""
    known = _NAMES.get(sq)
    if known is not None:
        return known
    return f"{_COLS[col_of(sq) - 1]}{row_of(sq)}" if sq else ""


_NAMES: dict[int, str] = {}
_NAMES.update((sq, name(sq)) for sq in SQUARES)     # the board's squares, named once


def parse(text: str) -> int:
    """``"c4"`` -> the square int; 0 for anything that is not a square of the board."""
    return _SQUARE_OF.get(text) or _parse(text)


def _parse(text: str) -> int:
    if len(text) < 2 or text[0] not in _COLS or not text[1:].isdigit():
        return 0
    sq = square(int(text[1:]), _COLS.index(text[0]) + 1)
    return sq if on_board(sq) else 0


_SQUARE_OF: dict[str, int] = {name(sq): sq for sq in SQUARES}   # the board's names, read back without parsing


@cache
@implements("M-Q1")
def territory(seat: int) -> frozenset[int]:
    """M-Q1: the TERRITORY_ROWS rows nearest to ``seat`` (seat 1 at row 1, seat 2 at the last row)."""
    rows = range(1, TERRITORY_ROWS + 1) if seat == 1 else range(BOARD_ROWS - TERRITORY_ROWS + 1, BOARD_ROWS + 1)
    return frozenset(square(r, c) for r in rows for c in range(1, BOARD_COLS + 1))


@implements("M-1.4", "M-Q1")
def master_start(seat: int) -> int:
    """M-1.4 with M-Q1: the centre of the owner's back row (自陣中央)."""
    return square(1 if seat == 1 else BOARD_ROWS, (BOARD_COLS + 1) // 2)


@cache
@implements("M-Q4", "M-Q5")
def around(sq: int) -> tuple[int, ...]:
    """M-Q5 (and the master's step, M-Q4): the up to 8 squares around ``sq``."""
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                n = sq + dr * 10 + dc
                if 1 <= col_of(sq) + dc <= BOARD_COLS and on_board(n):
                    out.append(n)
    return tuple(out)


@cache
def steps(sq: int) -> tuple[int, ...]:
    """M-Q2: the orthogonal neighbours of ``sq``."""
    out = []
    for n, ok in ((sq - 10, row_of(sq) > 1), (sq + 10, row_of(sq) < BOARD_ROWS),
                  (sq - 1, col_of(sq) > 1), (sq + 1, col_of(sq) < BOARD_COLS)):
        if ok:
            out.append(n)
    return tuple(out)


@implements("M-Q3")
def distance(a: int, b: int) -> int:
    """Orthogonal path length between two squares, occupancy ignored (M-Q3)."""
    return abs(row_of(a) - row_of(b)) + abs(col_of(a) - col_of(b))


@implements("M-Q2")
def paths(start: int, mov: int, occupied: dict[int, int], seat: int,
          label: Mapping[int, Any] | Sequence[Any] | None = None) -> list[tuple[Any, ...]]:
    """M-Q2: the moves a piece of ``seat`` at ``start`` with MOV ``mov`` can make, as paths (the
    squares entered, in order): one shortest path to each empty square it can reach, and one
    attack per (enemy square, square it attacks from) — where it stops if the attack fails, and
    what 【突撃】 reads, so each is a different decision.

    ``occupied`` maps square -> the seat whose piece or master stands there. A path never passes
    through an occupied square; it may end on an empty square or on an enemy's (a combat), never
    on a friend's.

    ``label``: how each square is written in the paths (by default the square itself; ``legal``
    passes the squares' names)."""
    if label is None:
        label = _ITSELF
    reach: dict[int, tuple[Any, ...]] = {start: ()}
    frontier = [start]
    for _ in range(mov):
        nxt = []
        for sq in frontier:
            for n in steps(sq):
                if n not in reach and n not in occupied:
                    reach[n] = reach[sq] + (label[n],)
                    nxt.append(n)
        frontier = nxt
    out = [path for path in reach.values() if path]
    for sq, path in reach.items():
        if len(path) < mov:
            for n in steps(sq):
                owner = occupied.get(n)
                if owner is not None and owner != seat:
                    out.append(path + (label[n],))
    return out


@implements("M-Q2")
def path_ok(start: int, path: tuple[int, ...], mov: int, occupied: dict[int, int], seat: int) -> str:
    """Why ``path`` is not a legal move (M-Q2), or "" when it is."""
    if not path:
        return "a move enters at least one square"
    if len(path) > mov:
        return f"the path has {len(path)} steps but the piece's MOV is {mov}"
    at = start
    for i, sq in enumerate(path):
        if sq not in steps(at):
            return f"{name(sq)} is not orthogonally next to {name(at)}"
        owner = occupied.get(sq)
        if owner is not None and (owner == seat or i < len(path) - 1):
            return f"{name(sq)} is occupied" + ("" if owner == seat else " and the path would pass through it")
        at = sq
    if len(set(path)) != len(path) or start in path:
        return "a path does not revisit a square"
    return ""
