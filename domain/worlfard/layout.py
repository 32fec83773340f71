"""WORLFARD drawn as neutral parts (the core's layout): what the terminal and the viewer show.

Each side is one row of grid: its towers, table and stage by line (W-3.1), seat 2's rows above
seat 1's as the players face each other; hearts, hand, soul, grave and seal are zones.
"""
from __future__ import annotations

from kifu.domain.core.catalogue import CardRow, Catalogue, Column
from kifu.domain.core.gloss import with_gloss
from kifu.domain.core.layout import Cell, Counter, Face, Grid, Layout, Note, Part, SeatPanel, Zone

from .cards import catalog
from .view import CardRef, SideView, SpellView, TowerView, UnitView, View

ROWS = ("tower", "table", "stage")


def _face(ref: CardRef | None) -> Face:
    return Face() if ref is None else Face(id=ref.id, name=ref.name)


def _unit(unit: UnitView) -> Face:
    marks = [f"『{k}』" for k in unit.skills]
    if unit.damage:
        marks.append(f"dmg {unit.damage}")
    if unit.broken:
        marks.append("broken")
    if unit.status:
        marks.append(unit.status)
    stats = f"S{unit.STR} V{unit.VIT} A{unit.AGI}" + (f" D{unit.DEF}" if unit.DEF else "")
    return Face(id=unit.card.id, name=unit.card.name, stats=stats, marks=tuple(marks),
                tone="bad" if unit.broken else "")


def _spell(spell: SpellView) -> Face:
    marks = (("chain",) if spell.waiting else ()) + (("broken",) if spell.broken else ())
    return Face(id=spell.card.id, name=spell.card.name, marks=marks, tone="bad" if spell.broken else "")


def _tower(tower: TowerView) -> Face | None:
    if not tower.height:
        return None
    top = tower.cards[-1]
    stats = f"HT{tower.HT}" if tower.HT == tower.height else f"HT{tower.HT} ({tower.height})"
    return Face(id=top.id, name=top.name, stats=stats, marks=("broken",) if tower.broken else (),
                tone="bad" if tower.broken else "")


def _grid(side: SideView) -> Grid:
    cells = []
    lines = len(side.stage)
    for row, name in enumerate(ROWS, start=1):
        for line in range(1, lines + 1):
            if name == "stage":
                unit = side.stage[line - 1]
                face = None if unit is None else _unit(unit)
            elif name == "table":
                spell = side.table[line - 1]
                face = None if spell is None else _spell(spell)
            else:
                face = _tower(side.towers[line - 1])
            if face is not None:
                cells.append(Cell(row=row, col=line, cards=(face,), owner=side.seat))
    return Grid(id=f"field-{side.seat}", label="field", rows=len(ROWS), cols=lines, cells=tuple(cells),
                row_labels=ROWS, col_labels=tuple(f"line {n}" for n in range(1, lines + 1)))


def _panel(side: SideView) -> SeatPanel:
    hearts = tuple(Face(marks=("broken",) if h.broken else ()) if h.card is None else
                   Face(id=h.card.id, name=h.card.name, marks=("broken",) if h.broken else (),
                        tone="bad" if h.broken else "")
                   for h in side.hearts)
    hand = Zone(id="hand", label="hand", count=side.hand_count,
                cards=tuple(_face(c) for c in side.hand) if side.hand is not None else (),
                show="cards" if side.hand is not None else "count")
    parts: tuple[Part, ...] = (
        Counter(id="life", label="life", value=side.life),
        Counter(id="deck", label="deck", value=side.deck_count),
        Counter(id="hand", label="hand", value=side.hand_count),
        Zone(id="hearts", label="hearts", cards=hearts, count=len(hearts)),
        _grid(side),
        hand,
        Zone(id="soul", label="soul", cards=tuple(_face(c) for c in side.soul), count=len(side.soul)),
        Zone(id="grave", label="grave", cards=tuple(_face(c) for c in side.grave), count=len(side.grave),
             show="top"),
        Zone(id="seal", label="seal", cards=tuple(_face(c) for c in side.seal), count=len(side.seal)),
    )
    if side.deck is not None:
        parts += (Zone(id="deck", label="deck order", cards=tuple(_face(c) for c in side.deck),
                       count=side.deck_count, show="count"),)
    return SeatPanel(seat=side.seat, parts=parts, lost=side.lost or "")


def layout(view: View) -> Layout:
    board: tuple[Note, ...] = ()
    if view.combat is not None:
        c = view.combat
        target = "the player" if c.on_player else (f"line {c.defender}" if c.defender else f"spot {c.target or '?'}")
        board = (Note(id="combat", text=f"combat: seat {view.turn_seat}'s line {c.attacker} attacks {target} "
                                         f"({c.step})", tone="hot"),)
    return Layout(ruleset="worlfard", viewer=view.seat, turn=view.turn, step=view.phase, active=view.turn_seat or None,
                  awaiting=(view.awaiting,) if view.awaiting else (),
                  outcome=view.outcome.describe() if view.outcome else "",
                  seats=tuple(_panel(side) for side in view.sides), board=board)


COLUMNS = (Column(key="number", title="no."), Column(key="name", title="name", kind="name"),
           Column(key="type", title="type"), Column(key="element", title="E"), Column(key="family", title="F"),
           Column(key="lv", title="LV"), Column(key="stats", title="S/V/A/D"),
           Column(key="text", title="text", kind="text"), Column(key="invented", title="invented"))


def catalogue() -> Catalogue:
    rows = []
    for d in sorted(catalog().values(), key=lambda d: d.number):
        stats = f"{d.STR}/{d.VIT}/{d.AGI}/{d.DEF}" if d.type == "UT" else ""
        rows.append(CardRow(name=d.name, text=d.text, invented=d.invented, values={
            "number": d.number, "type": d.type, "element": "".join(d.elements), "family": "・".join(d.families),
            "lv": str(d.lv), "stats": stats}))
    return with_gloss(Catalogue(columns=COLUMNS, rows=tuple(rows)), __package__)
