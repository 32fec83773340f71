"""Presentation as data: a neutral description of what a view looks like.

A ruleset turns its view into a ``Layout`` (its ``layout`` hook); the terminal renderer, the
replay stepper and the web viewer draw only layouts, so none of them knows a game's field names.
The vocabulary is small on purpose: cards (``Face``), piles of cards (``Zone``), boards
(``Grid`` of ``Cell``), numbers (``Counter``) and free lines (``Note``). A layout is grouped
into one ``SeatPanel`` per seat (what belongs to that player) and a shared ``board``.
"""
from __future__ import annotations

from typing import Literal, Union

import msgspec


class Face(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One card as the viewer sees it. ``id`` 0 and ``name`` "" mean face down / hidden."""

    id: int = 0
    name: str = ""
    stats: str = ""                    # short parameters as printed: "S3 V2 A1", "ATK 50 DEF 10"
    marks: tuple[str, ...] = ()        # statuses and counters: "dmg 2", "asleep", "tapped"
    owner: int | None = None           # where it differs from the panel's seat (a controlled card)
    tone: Literal["", "good", "bad", "hot", "dim"] = ""

    @property
    def hidden(self) -> bool:
        return not self.name


class Zone(msgspec.Struct, tag="zone", frozen=True, kw_only=True, omit_defaults=True):
    """A pile or row of cards: a hand, a deck, a graveyard, a stack, the chosen cards.

    ``show``: "cards" lists every face; "count" only the number (a deck); "top" the last face."""

    id: str
    label: str
    cards: tuple[Face, ...] = ()
    count: int = 0
    show: Literal["cards", "count", "top"] = "cards"


class Cell(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One square of a grid; ``cards`` bottom first (a unit and what is attached to it)."""

    row: int
    col: int
    cards: tuple[Face, ...] = ()
    label: str = ""                    # a territory, a terrain, "leader"
    owner: int | None = None           # whose side or territory this square is


class Grid(msgspec.Struct, tag="grid", frozen=True, kw_only=True, omit_defaults=True):
    """A board of ``rows`` × ``cols`` squares (1-based); only non-empty or labelled cells are listed."""

    id: str
    label: str
    rows: int
    cols: int
    cells: tuple[Cell, ...] = ()
    row_labels: tuple[str, ...] = ()
    col_labels: tuple[str, ...] = ()
    cell_format: str = "{row} {col}"   # how the game names a square from its labels: "{col}{row}" says c3


class Counter(msgspec.Struct, tag="counter", frozen=True, kw_only=True, omit_defaults=True):
    """A number worth showing: life, mana, 霊力, soul, damage count, turn limit."""

    id: str
    label: str
    value: int | str
    max: int | None = None


class Note(msgspec.Struct, tag="note", frozen=True, kw_only=True, omit_defaults=True):
    """A line of text the rules make worth showing: the current combat, a pending choice."""

    id: str
    text: str
    tone: Literal["", "good", "bad", "hot", "dim"] = ""


Part = Union[Zone, Grid, Counter, Note]


class SeatPanel(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What belongs to one player, drawn together: counters first, then zones and grids."""

    seat: int
    parts: tuple[Part, ...] = ()
    lost: str = ""                     # why this seat lost, once it has


class Layout(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A whole view, ready to draw. ``viewer`` None is the judge."""

    ruleset: str
    viewer: int | None = None
    turn: int = 0
    step: str = ""                     # the game's own word for the current phase/step
    active: int | None = None          # whose turn it is, where the game has one
    awaiting: tuple[int, ...] = ()     # the seats the rules wait for
    choosing: tuple[int, ...] = ()     # seats whose sealed choice is still open ("choosing")
    chosen: tuple[int, ...] = ()       # seats that have sealed their choice ("chosen")
    outcome: str = ""
    seats: tuple[SeatPanel, ...] = ()
    board: tuple[Part, ...] = ()       # shared between the players (a common grid, a stack)

    def panel(self, seat: int) -> SeatPanel | None:
        for panel in self.seats:
            if panel.seat == seat:
                return panel
        return None


def faces(layout: Layout) -> list[tuple[str, Face]]:
    """Every face in a layout with where it stands ("seat 1 hand", "board grid b3"): for why/diff."""
    out: list[tuple[str, Face]] = []

    def walk(where: str, parts: tuple[Part, ...]) -> None:
        for part in parts:
            if isinstance(part, Zone):
                for i, face in enumerate(part.cards, start=1):
                    out.append((f"{where}{part.label} {i}", face))
            elif isinstance(part, Grid):
                for cell in part.cells:
                    for face in cell.cards:
                        out.append((f"{where}{part.label} {cell_name(part, cell)}", face))

    for panel in layout.seats:
        walk(f"seat {panel.seat} ", panel.parts)
    walk("", layout.board)
    return out


def cell_name(grid: Grid, cell: Cell) -> str:
    """A cell as people say it: the grid's own labels where it has them, else ``r2c3``."""
    row = grid.row_labels[cell.row - 1] if len(grid.row_labels) >= cell.row else f"r{cell.row}"
    col = grid.col_labels[cell.col - 1] if len(grid.col_labels) >= cell.col else f"c{cell.col}"
    return grid.cell_format.format(row=row, col=col) if grid.row_labels or grid.col_labels else f"{row}{col}"
