"""Rendering for the terminal with rich: layouts, events, cause chains. Presentation only.

Nothing here knows a game: boards are drawn from the ruleset's ``Layout`` (seat panels of
counters, zones and grids, a shared board), and events from the roles their fields declare
(card ids shown as names, hidden cards as ``?``).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.layout import Cell, Counter, Face, Grid, Layout, Note, Part, SeatPanel, Zone
from kifu.projections.words import Command, Words

_KIND_STYLE = {"decision": "bold cyan", "rule": "yellow", "setup": "magenta", "judge": "bold magenta"}
_TONE = {"good": "green", "bad": "red", "hot": "bold red", "dim": "dim", "": ""}


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 event``, ``2 events``, ``1 match``, ``3 matches``: a count with its noun agreeing."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or (word + 'es' if word.endswith(('s', 'sh', 'ch', 'x')) else word + 's')}"


def describe_event(event: Any, names: Callable[[int], str] | None = None, *, original: Any = None,
                   command: Command | None = None) -> str:
    """``TypeName key=value …`` in words (``kifu.projections.words``): card-role fields as names,
    nested values too; ``original``: the judge's copy of a seat's event (tells a hidden card ``?``
    from no card ``—``; ``UNKNOWN`` when there is none); ``command``: reads a sealed choice."""
    return Words(names, command).line(event, original)


def event_line(env: Envelope[Any], names: Callable[[int], str] | None = None, *, original: Any = None,
               command: Command | None = None) -> Text:
    text = Text()
    text.append(f"#{env.seq:<5}", style="bold")
    text.append(f"{env.kind:<9}", style=_KIND_STYLE.get(env.kind, ""))
    clause = env.clause or ""
    text.append(f"{clause:<9}" if len(clause) < 9 else clause + " ", style="green")
    text.append(f"seat {env.seat} " if env.seat else "       ")
    text.append(describe_event(env.event, names, original=original, command=command))
    if env.cause:
        text.append(f"  ← #{env.cause}", style="dim")
    return text


def ruling_lines(ruling: Any, indent: str = "") -> list[Text]:
    """The values a ruling used (``causes.Ruling``), as ``kifu why`` and the stepper's why show
    them: its formula, then the cards and seats as they stood just before it."""
    lines = []
    formula = ruling.formula()
    if formula:
        lines.append(Text(indent + "ruling: " + formula, style="bold"))
    for card in ruling.cards:
        values = " ".join(f"{k} {_ruling_value(v)}" for k, v in card.values.items())
        lines.append(Text(f"{indent}after #{ruling.at}: {card.name}#{card.card} at {card.where}"
                          + (f": {values}" if values else ""), style="cyan"))
    for seat, part in ruling.seats.items():
        values = " ".join(f"{k} {_ruling_value(v)}" for k, v in part.items() if k != "seat")
        lines.append(Text(f"{indent}after #{ruling.at}: seat {seat}: {values}", style="cyan"))
    return lines


def _ruling_value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_ruling_value(v) for v in value)
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def clause_body(title: str, text: str) -> str:
    """The clause text without a lead-in that repeats its title ("Combat damage: …" under the
    title "Combat damage", "Battle: …" under "Battle phase"), so a title shows once."""
    head, sep, rest = text.partition(":")
    if not sep or "\n" in head or len(head) > 40 or not rest.strip():
        return text
    def words(s: str) -> list[str]:
        return [w for w in re.findall(r"\w+", s.lower()) if w not in ("the", "a", "an")]
    h, t = words(head), words(title)
    if h and t and (h[0][:5] == t[0][:5] or head.strip().lower() == title.strip().lower()):
        return rest.lstrip(" ").lstrip("\n") if rest.startswith(("\n", " \n")) else rest.strip(" ")
    return text


def clause_text(clause: str, title: str, text: str) -> Text:
    """``W-12.6 Combat damage: …``: the id, the title once, the body."""
    t = Text(f"{clause} {title}".strip(), style="bold green")
    body = clause_body(title, text)
    if body:
        t.append(": " if "\n" not in body[:1] else "", style="green")
        t.append(body, style="green")
    return t


# -- layouts --------------------------------------------------------------------------------------
SEAT_STYLE = {1: "bright_blue", 2: "bright_red"}     # owners are colours as well as text
MARK = "▸"                                           # before a card the current event names
COMPACT_CARDS = 6        # a longer pile (a deck in the judge's view) is counted until ``z`` shows it


@dataclass(frozen=True)
class Look:
    """How a layout is drawn: the cards the current event names (marked), every zone in full
    (``z``: the whole graveyard, the deck order) or compact piles, and the panel's seat (a
    card another seat owns gets that seat's tag)."""

    marked: frozenset[int] = frozenset()
    all_zones: bool = False
    seat: int | None = None

    def of(self, seat: int | None) -> Look:
        return replace(self, seat=seat)


def seat_tag(seat: int) -> Text:
    return Text(f"[{seat}]", style=SEAT_STYLE.get(seat, "bold"))


def face_text(face: Face, *, long: bool = False, look: Look = Look()) -> Text:
    """A card: its name (``?`` face down), its owner's tag where that is not the panel's seat,
    then, in a cell, its stats and marks on lines below; ``▸`` and reversed when the current
    event names it."""
    if face.hidden:
        return Text("?", style="dim")
    marked = bool(face.id) and face.id in look.marked
    t = Text(MARK if marked else "", style="bold yellow")
    style = "bold " + _TONE[face.tone] if face.tone else "bold"
    if face.owner and look.seat is None:
        style = "bold " + SEAT_STYLE.get(face.owner, "")
    t.append(face.name, style=style + (" reverse" if marked else ""))
    if face.owner and face.owner != look.seat:
        t.append_text(seat_tag(face.owner))
    if long:
        if face.stats:
            t.append("\n" + face.stats)
        if face.marks:
            t.append("\n" + ", ".join(face.marks), style="yellow")
    elif face.marks:
        t.append(f" ({', '.join(face.marks)})", style="yellow")
    return t


def _cell_text(cell: Cell | None, look: Look) -> Text:
    if cell is None or not cell.cards:
        label = cell.label if cell is not None else ""
        return Text(label or "·", style="dim " + SEAT_STYLE.get(cell.owner or 0, "") if cell is not None else "dim")
    out = Text()
    if cell.label:
        out.append(cell.label + "\n", style="dim " + SEAT_STYLE.get(cell.owner or 0, ""))
    for i, face in enumerate(cell.cards):
        if i:
            out.append("\n+ ")
        out.append_text(face_text(face, long=True, look=look))
    return out


def grid_table(grid: Grid, look: Look = Look()) -> Table:
    """A grid; a long name wraps inside its cell (never cut)."""
    table = Table(show_header=bool(grid.col_labels), header_style="dim", pad_edge=False, box=box.SIMPLE_HEAD,
                  collapse_padding=True, title=None)
    table.add_column("", style="dim", no_wrap=True)
    for col in range(1, grid.cols + 1):
        label = grid.col_labels[col - 1] if len(grid.col_labels) >= col else str(col)
        table.add_column(label, justify="center", min_width=6, max_width=14, overflow="fold")
    cells = {(c.row, c.col): c for c in grid.cells}
    for row in range(1, grid.rows + 1):
        label = grid.row_labels[row - 1] if len(grid.row_labels) >= row else str(row)
        table.add_row(label, *[_cell_text(cells.get((row, col)), look) for col in range(1, grid.cols + 1)])
    return table


def zone_text(zone: Zone, look: Look = Look()) -> Text:
    """A zone on one line: its label and size, then its cards (``top``: the last one; a long
    pile: its first cards and how many more, until ``z`` shows every card of every zone)."""
    t = Text(f"{zone.label} ({zone.count or len(zone.cards)}): ", style="bold")
    if zone.show == "count" and not (look.all_zones and zone.cards) or not zone.cards:
        t.append("—" if not (zone.count or zone.cards) else "face down" if zone.show == "count" else "", style="dim")
        return t
    if look.all_zones:
        shown = zone.cards
    elif zone.show == "top":
        shown = zone.cards[-1:]
    else:
        shown = zone.cards
    for i, face in enumerate(shown):
        if i:
            t.append(", ")
        t.append_text(face_text(face, look=look))
        if face.id:
            t.append(f"#{face.id}", style="dim")
    if len(shown) < len(zone.cards):
        t.append(" (top)" if zone.show == "top" else f", … {len(zone.cards) - len(shown)} more", style="dim")
        t.append(" · z: all", style="dim")
    return t


def _piled(zone: Zone) -> bool:
    """A long pile (a deck's order in the judge's view, a mana row) is counted on the panel's
    header line until ``z`` shows it whole; a hand and a graveyard's top stay drawn."""
    return zone.id != "hand" and zone.show == "cards" and len(zone.cards) > COMPACT_CARDS


def _counters(parts: tuple[Part, ...], look: Look = Look()) -> Text:
    t = Text()
    for part in parts:
        if isinstance(part, Counter):
            t.append(f"  {part.label} ", style="dim")
            t.append(f"{part.value}" + (f"/{part.max}" if part.max is not None else ""), style="bold")
    if not look.all_zones:
        piles = [p for p in parts if isinstance(p, Zone) and _piled(p)]
        for pile in piles:
            t.append(f"  {pile.label} ", style="dim")
            t.append(str(pile.count or len(pile.cards)))
        if piles:
            t.append("  (z: all cards)", style="dim")
    return t


def _parts(parts: tuple[Part, ...], look: Look = Look()) -> list[Any]:
    out: list[Any] = []
    for part in parts:
        if isinstance(part, Grid):
            out.append(grid_table(part, look))
        elif isinstance(part, Zone):
            if look.all_zones or (part.show != "count" and (part.cards or part.id == "hand") and not _piled(part)):
                out.append(zone_text(part, look))
        elif isinstance(part, Note):
            out.append(Text(part.text, style=_TONE[part.tone]))
    return out


def _panel_header(panel: SeatPanel, player: str, layout: Layout, look: Look = Look()) -> Text:
    t = Text()
    t.append(f"Seat {panel.seat} {player}",
             style=("bold underline " if panel.seat == layout.active else "bold ") + SEAT_STYLE.get(panel.seat, ""))
    if panel.seat in layout.awaiting:
        t.append(" ◀", style="cyan")
    if panel.seat in layout.chosen:
        t.append(" (chosen)", style="green")
    elif panel.seat in layout.choosing:
        t.append(" (choosing)", style="yellow")
    t.append_text(_counters(panel.parts, look))
    if panel.lost:
        t.append(f"  LOST: {panel.lost}", style="bold red")
    return t


def status_line(layout: Layout) -> Text:
    status = Text(f"turn {layout.turn}" + (f" · {layout.step}" if layout.step else ""))
    if layout.active:
        status.append(f" · seat {layout.active}'s turn")
    if layout.awaiting:
        status.append("  awaiting " + " and ".join(f"seat {s}" for s in layout.awaiting), style="cyan")
    if layout.outcome:
        status.append(f"  OVER: {layout.outcome}", style="bold red")
    return status


def board_parts(layout: Layout, players: tuple[str, ...], look: Look = Look()) -> list[tuple[int | None, Group]]:
    """The layout in drawing order, one group per seat panel (seat number) and one for the
    shared board (None): the other seat on top, the shared board, then the viewer's (or seat
    1's) panel. The stepper scrolls to the part of the seat an event concerns."""
    bottom = layout.viewer or 1
    order = sorted(layout.seats, key=lambda p: p.seat == bottom)
    out: list[tuple[int | None, Group]] = []
    for i, panel in enumerate(order):
        player = players[panel.seat - 1] if 0 < panel.seat <= len(players) else ""
        if i == len(order) - 1 and layout.board:
            out.append((None, Group(*_parts(layout.board, look.of(None)))))
        header = _panel_header(panel, player, layout, look)
        out.append((panel.seat, Group(header, *_parts(panel.parts, look.of(panel.seat)))))
    if not layout.seats:
        out.append((None, Group(*_parts(layout.board, look.of(None)))))
    return out


def board(layout: Layout, players: tuple[str, ...], look: Look = Look()) -> Group:
    """The whole layout (``board_parts`` in order), then the status line."""
    return Group(*[group for _, group in board_parts(layout, players, look)], status_line(layout))


def console(err: bool = False) -> Console:
    """On a terminal, lines wrap at its width; piped, a line stays one line (no wrap at 80
    columns inserted into what a script reads). ``err``: on stderr (the output itself is stdout)."""
    con = Console(highlight=False, soft_wrap=False, stderr=err)
    if not con.is_terminal:
        con.soft_wrap = True
    return con


def show_table(con: Console, columns: Sequence[str], rows: Iterable[Sequence[Any]], *, title: str | None = None,
               **options: Any) -> None:
    """Every table the CLI prints: on a terminal drawn by rich; piped, never box-drawn or cut — a
    tab-separated header line, then one line a row with every cell whole (a ``# title`` line
    first when the table has a title, so several tables in one stream stay apart)."""
    rows = list(rows)
    if con.is_terminal:
        table = Table(*columns, title=title, title_justify="left", **options)
        for row in rows:
            table.add_row(*row)
        con.print(table)
        return

    def cell(value: Any) -> str:
        text = value.plain if isinstance(value, Text) else str(value)
        return " ".join(text.replace("\t", " ").splitlines())

    lines = ([f"# {title}"] if title else []) + ["\t".join(columns)] + ["\t".join(cell(v) for v in row) for row in rows]
    con.file.write("\n".join(lines) + "\n")
    con.file.flush()


def panel(body: Any, title: str) -> Panel:
    return Panel(body, title=title, expand=False)
