"""A picture of a layout without a browser: SVG drawn from the core's neutral parts, PNG from it.

Like the terminal renderer and the web viewer, this knows no game: it draws seat panels of
counters, zones, grids and notes and the shared board, the other seat on top and the viewer's
(or seat 1's) below, then the event the picture is "after" with its clause. PNG is the SVG
rasterised by CairoSVG (which needs the system's libcairo2).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from kifu.domain.core.layout import Counter, Face, Grid, Layout, Note, Part, SeatPanel, Zone

WIDTH = 1040
PAD = 12
LINE = 18
CARD_W, CARD_H = 92, 46
CELL_H = 60
FONT = "'Noto Sans CJK JP', 'Noto Sans', 'DejaVu Sans', sans-serif"
INK, MUTED, LINE_C, CARD_BG, DOWN = "#1b1f24", "#4f5863", "#c9ced6", "#fffdf5", "#2c3e63"
TONES = {"good": "#0a6b2d", "bad": "#a31515", "hot": "#8a1538", "dim": "#5b6470", "": MUTED}
MAX_CARDS = 10            # a longer zone shows this many and "+N"
SEAT_C = {1: "#1f5fbf", 2: "#c0392b"}      # owners are colours as well as tags
MARKED_C = "#e0a800"                        # the cards the event names


@dataclass
class Canvas:
    items: list[str] = field(default_factory=list)
    y: float = PAD
    marked: frozenset[int] = frozenset()       # the cards the event names: outlined
    keys: dict[str, str] = field(default_factory=dict)   # a name too long to fit -> its key (drawn below)

    def text(self, x: float, y: float, s: str, *, size: int = 13, fill: str = INK, bold: bool = False,
             anchor: str = "start") -> None:
        weight = ' font-weight="700"' if bold else ""
        self.items.append(f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" fill="{fill}"{weight} '
                          f'text-anchor="{anchor}">{escape(s)}</text>')

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str = "none", stroke: str = LINE_C,
             dash: bool = False, r: int = 4) -> None:
        extra = ' stroke-dasharray="4 3"' if dash else ""
        self.items.append(f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}" rx="{r}" '
                          f'fill="{fill}" stroke="{stroke}"{extra}/>')


def _units(s: str) -> float:
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in s)


def _fit(s: str, width: float, size: int) -> str:
    """Cut ``s`` to about ``width`` pixels (wide characters count double): for free text only;
    a card's name is wrapped or keyed instead (``_name_lines``)."""
    room = width / (size * 0.55)
    used, out = 0.0, ""
    for ch in s:
        used += 2 if ord(ch) > 0x2E80 else 1
        if used > room:
            return out + "…"
        out += ch
    return out


def _wrap(s: str, width: float, size: int) -> list[str]:
    """``s`` in lines of about ``width`` pixels, broken at spaces where it has them."""
    room = width / (size * 0.55)
    lines: list[str] = []
    line, used = "", 0.0
    for ch in s:
        w = 2 if ord(ch) > 0x2E80 else 1
        if used + w > room and line:
            cut = line.rfind(" ")
            if 0 < cut and ch != " ":
                lines.append(line[:cut])
                line = line[cut + 1:]
            else:
                lines.append(line.rstrip())
                line = ""
            used = _units(line)
        if ch == " " and not line:
            continue
        line += ch
        used += w
    if line:
        lines.append(line)
    return lines


def _name_lines(c: Canvas, name: str, width: float, size: int, most: int = 2) -> list[str]:
    """A card's name in at most ``most`` lines; longer, it is abbreviated with a key (``*1``)
    and written out in full under the picture: never cut."""
    lines = _wrap(name, width, size)
    if len(lines) <= most:
        return lines
    key = c.keys.setdefault(name, f"*{len(c.keys) + 1}")
    head = _wrap(name, width - size * 0.55 * (len(key) + 1), size)[: most]
    head[-1] = head[-1] + "…" + key
    return head


def _face(c: Canvas, face: Face, x: float, y: float, w: float = CARD_W, h: float = CARD_H,
          seat: int | None = None) -> None:
    """One card: its name whole (wrapped, or keyed), stats and marks; its owner's colour and
    tag where that is not the panel's seat; outlined when the event names it. A hidden card is
    ``?`` (an empty zone is ``—``)."""
    if face.hidden:
        c.rect(x, y, w, h, fill=DOWN, stroke=DOWN)
        c.text(x + w / 2, y + h / 2 + 5, "?", size=14, fill="#ffffff", anchor="middle", bold=True)
        return
    owner = face.owner if face.owner and face.owner != seat else None
    stroke = SEAT_C.get(owner or 0) or (TONES.get(face.tone, MUTED) if face.tone else MUTED)
    c.rect(x, y, w, h, fill=CARD_BG, stroke=stroke)
    if owner:
        c.rect(x, y, 5, h, fill=SEAT_C.get(owner, MUTED), stroke=SEAT_C.get(owner, MUTED), r=2)
        c.text(x + w - 3, y + 11, f"[{owner}]", size=9, fill=SEAT_C.get(owner, MUTED), bold=True, anchor="end")
    if face.id and face.id in c.marked:
        c.items.append(f'<rect x="{x - 3:.0f}" y="{y - 3:.0f}" width="{w + 6:.0f}" height="{h + 6:.0f}" rx="6" '
                       f'fill="none" stroke="{MARKED_C}" stroke-width="3" class="marked" data-card="{face.id}"/>')
    room = w - 10 - (18 if owner else 0)
    size = 12
    lines = _name_lines(c, face.name, room, size)
    if len(lines) > 1:
        size = 10
        lines = _name_lines(c, face.name, room, size)
    ty = y + 13
    for line in lines:
        c.text(x + 7, ty, line, size=size, bold=True)
        ty += size + 1
    rest = [(face.stats, INK)] if face.stats else []
    if face.marks:
        rest.append((", ".join(face.marks), "#7a3e00"))
    for text, fill in rest:
        if ty + 10 > y + h:
            break
        c.text(x + 7, ty + 1, _fit(text, w - 12, 10), size=10, fill=fill)
        ty += 12


def _zone(c: Canvas, zone: Zone, x0: float, width: float, seat: int | None = None) -> None:
    n = zone.count or len(zone.cards)
    c.text(x0, c.y + 12, f"{zone.label} ({n})", size=11, fill=MUTED)
    c.y += 16
    if not n:
        c.text(x0, c.y + 12, "—", size=12, fill=MUTED)
        c.y += LINE
        return
    if zone.show == "count" or not zone.cards:
        c.rect(x0, c.y, 110, 22, fill=DOWN, stroke=DOWN)
        c.text(x0 + 55, c.y + 15, f"{n} face down", size=11, fill="#ffffff", anchor="middle")
        c.y += 28
        return
    shown = zone.cards[-1:] if zone.show == "top" else zone.cards[:MAX_CARDS]
    per_row = max(1, int(width // (CARD_W + 4)))
    for i, face in enumerate(shown):
        if i and i % per_row == 0:
            c.y += CARD_H + 4
        _face(c, face, x0 + (i % per_row) * (CARD_W + 4), c.y, seat=seat)
    if len(zone.cards) > len(shown) and zone.show != "top":
        c.text(x0 + min(len(shown), per_row) * (CARD_W + 4), c.y + 26, f"+{len(zone.cards) - len(shown)}", size=12)
    c.y += CARD_H + 6


def _grid(c: Canvas, grid: Grid, x0: float, width: float, seat: int | None = None) -> None:
    c.text(x0, c.y + 12, grid.label, size=11, fill=MUTED)
    c.y += 16
    # row labels whole ("前衛 front"): as wide as the longest needs, within reason
    label_w = min(160.0, max(56.0, max((_units(r) for r in grid.row_labels), default=0) * 11 * 0.6 + 8)) \
        if grid.row_labels else 0
    col_w = (width - label_w) / max(1, grid.cols)
    if grid.col_labels:
        for col, label in enumerate(grid.col_labels[: grid.cols]):
            c.text(x0 + label_w + col * col_w + col_w / 2, c.y + 11, _fit(label, col_w, 11), size=11, fill=MUTED,
                   anchor="middle")
        c.y += 16
    cells = {(cell.row, cell.col): cell for cell in grid.cells}
    stacked = max([len(cell.cards) for cell in grid.cells] + [1])
    cell_h = max(CELL_H, 8 + stacked * (CARD_H + 2))
    for row in range(1, grid.rows + 1):
        if grid.row_labels and row <= len(grid.row_labels):
            pieces = _wrap(grid.row_labels[row - 1], label_w - 4, 11)
            top = c.y + cell_h / 2 + 4 - (len(pieces) - 1) * 13 / 2
            for i, piece in enumerate(pieces):
                c.text(x0, top + i * 13, piece, size=11, fill=MUTED)
        for col in range(1, grid.cols + 1):
            x = x0 + label_w + (col - 1) * col_w
            cell = cells.get((row, col))
            fill = {1: "#f2f7ff", 2: "#fff6f0"}.get(cell.owner or 0, "#fbfbfc") if cell else "#fbfbfc"
            c.rect(x + 1, c.y, col_w - 2, cell_h - 2, fill=fill, dash=True)
            if cell is None:
                continue
            if cell.label and not cell.cards:
                c.text(x + 5, c.y + 14, _fit(cell.label, col_w - 10, 10), size=10, fill=MUTED)
            for i, face in enumerate(cell.cards):
                _face(c, face, x + 4, c.y + 3 + i * (CARD_H + 2), w=col_w - 8, seat=seat)
        c.y += cell_h
    c.y += 6


def _parts(c: Canvas, parts: tuple[Part, ...], x0: float, width: float, seat: int | None = None) -> None:
    counters = [p for p in parts if isinstance(p, Counter)]
    if counters:     # as many lines as they need: a long counter line wraps between counters, never cut
        items = [f"{p.label} {p.value}" + (f"/{p.max}" if p.max is not None else "") for p in counters]
        line = ""
        for item in items:
            if line and _units(line + "   " + item) * 13 * 0.55 > width:
                c.text(x0, c.y + 13, line, size=13)
                c.y += LINE
                line = item
            else:
                line = f"{line}   {item}" if line else item
        c.text(x0, c.y + 13, line, size=13)
        c.y += LINE + 2
    for part in parts:
        if isinstance(part, Grid):
            _grid(c, part, x0, width, seat)
        elif isinstance(part, Zone):
            _zone(c, part, x0, width, seat)
        elif isinstance(part, Note):
            for line in _wrap(part.text, width, 13):
                c.text(x0, c.y + 13, line, size=13, fill=TONES.get(part.tone, INK) if part.tone else INK)
                c.y += LINE


def _panel(c: Canvas, panel: SeatPanel, layout: Layout, player: str) -> None:
    top = c.y
    c.y += 6
    title = f"Seat {panel.seat} {player}"
    tags = [t for t, on in (("to decide", panel.seat in layout.awaiting), ("chosen", panel.seat in layout.chosen),
                            ("choosing", panel.seat in layout.choosing and panel.seat not in layout.chosen),
                            (f"lost: {panel.lost}", bool(panel.lost))) if on]
    c.text(PAD + 8, c.y + 14, title + ("  · " + " · ".join(tags) if tags else ""), size=14, bold=True,
           fill="#a31515" if panel.lost else SEAT_C.get(panel.seat, INK))
    c.y += LINE + 4
    _parts(c, panel.parts, PAD + 8, WIDTH - 2 * PAD - 16, panel.seat)
    c.rect(PAD, top, WIDTH - 2 * PAD, c.y - top + 4, stroke=SEAT_C.get(panel.seat, LINE_C))
    c.rect(PAD, top, 4, c.y - top + 4, fill=SEAT_C.get(panel.seat, LINE_C), stroke=SEAT_C.get(panel.seat, LINE_C), r=1)
    c.y += 12


def svg(layout: Layout, players: tuple[str, ...] = (), caption: tuple[str, ...] = (),
        marked: frozenset[int] = frozenset()) -> str:
    """The layout as one SVG document; ``caption``: lines drawn below it (the event, its clause),
    wrapped; ``marked``: the cards the event names, outlined; the key of any abbreviated name last."""
    c = Canvas(marked=marked)
    status = [f"{layout.ruleset}", f"turn {layout.turn}" + (f" · {layout.step}" if layout.step else "")]
    if layout.active:
        status.append(f"seat {layout.active}'s turn")
    if layout.awaiting:
        status.append("awaiting " + " and ".join(f"seat {s}" for s in layout.awaiting))
    status.append("judge view" if layout.viewer is None else f"seat {layout.viewer}'s view")
    c.text(PAD, c.y + 14, " · ".join(status), size=14)
    if layout.outcome:
        c.text(WIDTH - PAD, c.y + 14, f"over: {layout.outcome}", size=14, bold=True, fill="#a31515", anchor="end")
    c.y += LINE + 10
    bottom = layout.viewer or 1
    order = sorted(layout.seats, key=lambda p: p.seat == bottom)
    for i, panel in enumerate(order):
        if i == len(order) - 1 and layout.board:
            top = c.y
            c.y += 6
            _parts(c, layout.board, PAD + 8, WIDTH - 2 * PAD - 16)
            c.rect(PAD, top, WIDTH - 2 * PAD, c.y - top + 4, stroke=MUTED)
            c.y += 12
        player = players[panel.seat - 1] if 0 < panel.seat <= len(players) else ""
        _panel(c, panel, layout, player)
    if not layout.seats:
        _parts(c, layout.board, PAD, WIDTH - 2 * PAD)
    for text in caption:
        for line in _wrap(text, WIDTH - 2 * PAD, 13):
            c.text(PAD, c.y + 14, line, size=13)
            c.y += LINE
    for name, key in c.keys.items():
        c.text(PAD, c.y + 14, f"{key} {name}", size=12, fill=MUTED)
        c.y += LINE
    height = int(c.y + PAD)
    body = "\n".join(c.items)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">\n'
            f'<rect width="100%" height="100%" fill="#ffffff"/>\n{body}\n</svg>\n')


def png(svg_text: str, scale: float = 1.0) -> bytes:
    """The SVG rasterised; a clear error when CairoSVG or libcairo2 is missing."""
    try:
        import cairosvg
    except (ImportError, OSError) as exc:
        raise RuntimeError(f"PNG needs CairoSVG and the system's libcairo2 ({exc}); --svg needs neither") from exc
    out: Any = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)
    return bytes(out)


def picture_of(timeline: Any, seq: int, seat: int | None) -> str:
    """The SVG of the board after event ``seq`` as ``seat`` saw it, captioned with that event."""
    from kifu.domain.core.visibility import redact, seat_view

    from .viewdata import ViewSource

    rules = timeline.ruleset
    # the seat's view with the core's scrub, as the stepper and the service show it
    layout = timeline.labelled(rules.presentation.layout(seat_view(rules, timeline.state_at(seq), seat)), seq)
    caption: tuple[str, ...] = ()
    marked: frozenset[int] = frozenset()
    env = timeline.envelope(seq)
    if env is not None:
        source = ViewSource(rules, timeline.header, [], seat, timeline=timeline, turns=[])
        ev = source.describe(redact(rules, env, seat), 0)
        entry = rules.content.clauses().get(env.clause or "")
        line = f"#{env.seq} {env.kind} {ev['type']} " + " ".join(f"{k}={v}" for k, v, _ in ev["fields"])
        caption = (line,) + ((f"{env.clause} {entry.title}",) if entry else ())
        marked = frozenset(ev.get("cards", ()))
    return svg(layout, timeline.header.players, caption, marked)
