"""Rendering for the terminal with rich: layouts, events, cause chains. Presentation only.

Nothing here knows a game: boards are drawn from the ruleset's ``Layout`` (seat panels of
counters, zones and grids, a shared board), and events from the roles their fields declare
(card ids shown as names, hidden cards as ``?``).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec
from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.judging import is_judge, words
from kifu.domain.core.layout import Cell, Counter, Face, Grid, Layout, Note, Part, SeatPanel, Zone
from kifu.domain.core.roles import HIDDEN, roles_of

_KIND_STYLE = {"decision": "bold cyan", "rule": "yellow", "setup": "magenta", "judge": "bold magenta"}
_TONE = {"good": "green", "bad": "red", "hot": "bold red", "dim": "dim", "": ""}
SHOWN_CARDS = 8          # a longer list of cards (a shuffled deck) is cut after this many


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 event``, ``2 events``, ``1 match``, ``3 matches``: a count with its noun agreeing."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {many or (word + 'es' if word.endswith(('s', 'sh', 'ch', 'x')) else word + 's')}"


def card_name(names: Callable[[int], str] | None, card: int) -> str:
    if card == HIDDEN:
        return "?"
    if names is None:
        return str(card)
    try:
        return f"{names(card)}#{card}"
    except (IndexError, KeyError, TypeError):
        return str(card)


def _value(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "(" + " ".join(f"{k} {_value(v)}" for k, v in value.items()) + ")"
    return str(value)


def describe_event(event: Any, names: Callable[[int], str] | None = None) -> str:
    """``TypeName key=value …`` with card-role fields shown as names; hidden cards as ``?``.

    A nested Struct (a trigger, a battle window) is described the same way in parentheses, in
    words, never as a Python dict; a long nested value (a whole prepared state) is summarised."""
    if is_judge(event):          # a judge's act reads as a sentence: who, what, about which seq
        return words(event)
    if not isinstance(event, msgspec.Struct):
        raw = msgspec.to_builtins(event)
        return _value(raw) if not isinstance(raw, dict) else _plain(raw)
    kind = type(event).__struct_config__.tag or type(event).__name__
    return f"{kind} " + _fields(event, names)


def _fields(obj: Any, names: Callable[[int], str] | None) -> str:
    cards = {f.name for f in roles_of(type(obj)) if f.role == "card"}
    defaults = {f.name: f.default for f in msgspec.structs.fields(obj)}
    parts = []
    for field in msgspec.structs.fields(obj):
        key, value = field.name, getattr(obj, field.name)
        if key in cards:
            if isinstance(value, (list, tuple)):
                shown = [card_name(names, v) for v in value]
                more = f", … {len(shown)} cards" if len(shown) > SHOWN_CARDS else ""
                text = "[" + ", ".join(shown[:SHOWN_CARDS]) + more + "]"
            elif isinstance(value, int):
                text = card_name(names, value)
            else:
                text = _value(msgspec.to_builtins(value))
        elif isinstance(value, msgspec.Struct):
            inner = _fields(value, names)
            text = f"({inner})" if len(inner) <= 80 else "(…)"
        else:
            raw = msgspec.to_builtins(value)
            if value is None and defaults.get(key) is None:
                continue
            text = _value(raw)
            if len(text) > 80 and isinstance(raw, (dict, list)):
                text = "{…}" if isinstance(raw, dict) else f"[… {len(raw)} items]"
        parts.append(f"{field.encode_name}={text}")
    return " ".join(parts)


def _plain(raw: dict[str, Any]) -> str:
    kind = raw.pop("type", "")
    return (f"{kind} " if kind else "") + " ".join(f"{k}={_value(v)}" for k, v in raw.items())


def event_line(env: Envelope[Any], names: Callable[[int], str] | None = None) -> Text:
    text = Text()
    text.append(f"#{env.seq:<5}", style="bold")
    text.append(f"{env.kind:<9}", style=_KIND_STYLE.get(env.kind, ""))
    clause = env.clause or ""
    text.append(f"{clause:<9}" if len(clause) < 9 else clause + " ", style="green")
    text.append(f"seat {env.seat} " if env.seat else "       ")
    text.append(describe_event(env.event, names))
    if env.cause:
        text.append(f"  ← #{env.cause}", style="dim")
    return text


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
def face_text(face: Face, *, long: bool = False) -> Text:
    """A card: its name (``?`` face down), then, in a cell, its stats and marks on lines below."""
    if face.hidden:
        return Text("?", style="dim")
    t = Text(face.name, style="bold " + _TONE[face.tone] if face.tone else "bold")
    if long:
        if face.stats:
            t.append("\n" + face.stats)
        if face.marks:
            t.append("\n" + ", ".join(face.marks), style="yellow")
    elif face.marks:
        t.append(f" ({', '.join(face.marks)})", style="yellow")
    return t


def _cell_text(cell: Cell | None) -> Text:
    if cell is None or not cell.cards:
        label = cell.label if cell is not None else ""
        return Text(label or "·", style="dim")
    out = Text()
    if cell.label:
        out.append(cell.label + "\n", style="dim")
    for i, face in enumerate(cell.cards):
        if i:
            out.append("\n+ ")
        out.append_text(face_text(face, long=True))
    return out


def grid_table(grid: Grid) -> Table:
    table = Table(show_header=bool(grid.col_labels), header_style="dim", pad_edge=False, box=box.SIMPLE_HEAD,
                  collapse_padding=True, title=None)
    table.add_column("", style="dim", no_wrap=True)
    for col in range(1, grid.cols + 1):
        label = grid.col_labels[col - 1] if len(grid.col_labels) >= col else str(col)
        table.add_column(label, justify="center", min_width=6, max_width=14)
    cells = {(c.row, c.col): c for c in grid.cells}
    for row in range(1, grid.rows + 1):
        label = grid.row_labels[row - 1] if len(grid.row_labels) >= row else str(row)
        table.add_row(label, *[_cell_text(cells.get((row, col))) for col in range(1, grid.cols + 1)])
    return table


def zone_text(zone: Zone) -> Text:
    t = Text(f"{zone.label} ({zone.count or len(zone.cards)}): ", style="bold")
    if zone.show == "count" or not zone.cards:
        t.append("—" if not (zone.count or zone.cards) else "face down" if zone.show == "count" else "", style="dim")
        return t
    shown = zone.cards[-1:] if zone.show == "top" else zone.cards
    for i, face in enumerate(shown):
        if i:
            t.append(", ")
        t.append_text(face_text(face))
        if face.id:
            t.append(f"#{face.id}", style="dim")
    if zone.show == "top" and len(zone.cards) > 1:
        t.append(" (top)", style="dim")
    return t


def _counters(parts: tuple[Part, ...]) -> Text:
    t = Text()
    for part in parts:
        if isinstance(part, Counter):
            t.append(f"  {part.label} ", style="dim")
            t.append(f"{part.value}" + (f"/{part.max}" if part.max is not None else ""), style="bold")
    return t


def _parts(parts: tuple[Part, ...]) -> list[Any]:
    out: list[Any] = []
    for part in parts:
        if isinstance(part, Grid):
            out.append(grid_table(part))
        elif isinstance(part, Zone) and part.show != "count" and (part.cards or part.id == "hand"):
            out.append(zone_text(part))
        elif isinstance(part, Note):
            out.append(Text(part.text, style=_TONE[part.tone]))
    return out


def _panel_header(panel: SeatPanel, player: str, layout: Layout) -> Text:
    t = Text()
    t.append(f"Seat {panel.seat} {player}",
             style="bold underline" if panel.seat == layout.active else "bold")
    if panel.seat in layout.awaiting:
        t.append(" ◀", style="cyan")
    if panel.seat in layout.chosen:
        t.append(" (chosen)", style="green")
    elif panel.seat in layout.choosing:
        t.append(" (choosing)", style="yellow")
    t.append_text(_counters(panel.parts))
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


def board_parts(layout: Layout, players: tuple[str, ...]) -> list[tuple[int | None, Group]]:
    """The layout in drawing order, one group per seat panel (seat number) and one for the
    shared board (None): the other seat on top, the shared board, then the viewer's (or seat
    1's) panel. The stepper scrolls to the part of the seat an event concerns."""
    bottom = layout.viewer or 1
    order = sorted(layout.seats, key=lambda p: p.seat == bottom)
    out: list[tuple[int | None, Group]] = []
    for i, panel in enumerate(order):
        player = players[panel.seat - 1] if 0 < panel.seat <= len(players) else ""
        if i == len(order) - 1 and layout.board:
            out.append((None, Group(*_parts(layout.board))))
        out.append((panel.seat, Group(_panel_header(panel, player, layout), *_parts(panel.parts))))
    if not layout.seats:
        out.append((None, Group(*_parts(layout.board))))
    return out


def board(layout: Layout, players: tuple[str, ...]) -> Group:
    """The whole layout (``board_parts`` in order), then the status line."""
    return Group(*[group for _, group in board_parts(layout, players)], status_line(layout))


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
