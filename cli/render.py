"""Rendering for the terminal with rich: boards, events, cause chains. Presentation only."""
from __future__ import annotations

from typing import Any, Callable

import msgspec
from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from domain.core.envelope import Envelope

_CARD_FIELDS = {"card", "cards", "order", "hearts", "souls", "defender_card", "attacker_card"}
_KIND_STYLE = {"decision": "bold cyan", "rule": "yellow", "setup": "magenta"}


def card_name(names: Callable[[int], str] | None, card: int) -> str:
    if card == 0:
        return "?"
    if names is None:
        return str(card)
    try:
        return f"{names(card)}#{card}"
    except (IndexError, KeyError, TypeError):
        return str(card)


def describe_event(event: Any, names: Callable[[int], str] | None = None) -> str:
    """``TypeName key=value …`` with card ids shown as names; hidden cards as ``?``."""
    raw = msgspec.to_builtins(event)
    if not isinstance(raw, dict):
        return str(raw)
    kind = raw.pop("type", type(event).__name__)
    parts = []
    for key, value in raw.items():
        if isinstance(value, (list, tuple)) and key not in _CARD_FIELDS:
            value = "[" + ", ".join(str(v) for v in value) + "]"
        elif key in _CARD_FIELDS:
            if isinstance(value, (list, tuple)):
                shown = [card_name(names, v) for v in value]
                value = "[" + ", ".join(shown[:8]) + (f", … {len(shown)} cards" if len(shown) > 8 else "") + "]"
            elif isinstance(value, int):
                value = card_name(names, value)
        parts.append(f"{key}={value}")
    return f"{kind} " + " ".join(parts)


def event_line(env: Envelope[Any], names: Callable[[int], str] | None = None) -> Text:
    text = Text()
    text.append(f"#{env.seq:<5}", style="bold")
    text.append(f"{env.kind:<9}", style=_KIND_STYLE.get(env.kind, ""))
    text.append(f"{env.clause or '':<9}", style="green")
    text.append(f"seat {env.seat} " if env.seat else "       ")
    text.append(describe_event(env.event, names))
    if env.cause:
        text.append(f"  ← #{env.cause}", style="dim")
    return text


def _ref(ref: Any) -> str:
    return "?" if ref is None else f"{ref.name}"


def _unit_cell(unit: Any) -> Text:
    if unit is None:
        return Text("·", style="dim")
    t = Text(unit.card.name, style="bold")
    t.append(f"\nS{unit.STR} V{unit.VIT} A{unit.AGI}" + (f" D{unit.DEF}" if unit.DEF else ""))
    if unit.skills:
        t.append("\n" + " ".join(f"『{k}』" for k in unit.skills), style="cyan")
    flags = []
    if unit.damage:
        flags.append(f"dmg {unit.damage}")
    if unit.broken:
        flags.append("broken")
    if unit.status:
        flags.append(unit.status)
    if flags:
        t.append("\n" + ", ".join(flags), style="red" if unit.broken else "yellow")
    return t


def _spell_cell(spell: Any) -> Text:
    if spell is None:
        return Text("·", style="dim")
    t = Text(spell.card.name, style="magenta")
    if spell.waiting:
        t.append(" (chain)", style="yellow")
    if spell.broken:
        t.append(" (broken)", style="red")
    return t


def _tower_cell(tower: Any) -> Text:
    if not tower.height:
        return Text("·", style="dim")
    t = Text(f"HT{tower.HT} " if tower.HT == tower.height else f"HT{tower.HT}({tower.height}) ", style="bold")
    t.append(tower.cards[-1].name)
    if tower.broken:
        t.append(" (broken)", style="red")
    return t


def _side_header(side: Any, player: str, turn_seat: int) -> Text:
    hearts = " ".join(("♡" if h.broken else "♥") + ("?" if h.card is None else h.card.name) for h in side.hearts)
    t = Text()
    t.append(f"Seat {side.seat} {player}", style="bold underline" if side.seat == turn_seat else "bold")
    t.append(f"  life {side.life}  deck {side.deck_count}  hand {side.hand_count}  soul {len(side.soul)}"
             f"  grave {len(side.grave)}  hearts {hearts or '-'}")
    if side.lost:
        t.append(f"  LOST: {side.lost}", style="bold red")
    return t


def board(view: Any, players: tuple[str, str]) -> Group:
    """The WORLFARD field: seat 2's rows on top (towers, table, stage), then seat 1's stage up."""
    table = Table(show_header=True, header_style="dim", expand=False, pad_edge=False, box=box.SIMPLE_HEAD,
                  show_lines=False, collapse_padding=True)
    table.add_column("", style="dim", no_wrap=True)
    lines = len(view.sides[0].stage)
    for line in range(1, lines + 1):
        table.add_column(f"line {line}", justify="center", min_width=10, max_width=14)
    top, bottom = view.sides[1], view.sides[0]
    table.add_row("tower2", *[_tower_cell(t) for t in top.towers])
    table.add_row("table2", *[_spell_cell(c) for c in top.table])
    table.add_row("stage2", *[_unit_cell(u) for u in top.stage], end_section=True)
    table.add_row("stage1", *[_unit_cell(u) for u in bottom.stage])
    table.add_row("table1", *[_spell_cell(c) for c in bottom.table])
    table.add_row("tower1", *[_tower_cell(t) for t in bottom.towers])
    status = Text(f"turn {view.turn}  seat {view.turn_seat}'s turn  phase {view.phase}")
    if view.awaiting:
        status.append(f"  awaiting seat {view.awaiting}", style="cyan")
    if view.combat:
        c = view.combat
        status.append(f"  combat: attacker line {c.attacker} → spot {c.target or '?'}"
                      + (" (on player)" if c.on_player else f" defender line {c.defender}" if c.defender else ""),
                      style="red")
    if view.outcome:
        status.append(f"  OVER: {view.outcome.describe()}", style="bold red")
    parts: list[Any] = [_side_header(top, players[1], view.turn_seat), table, _side_header(bottom, players[0], view.turn_seat), status]
    for side in view.sides:
        if side.hand is not None:
            parts.append(Text(f"hand {side.seat}: " + ", ".join(f"{c.name}#{c.id}" for c in side.hand)))
        if side.soul:
            parts.append(Text(f"soul {side.seat}: " + ", ".join(c.name for c in side.soul), style="dim"))
    return Group(*parts)


def console() -> Console:
    return Console(highlight=False, soft_wrap=False)


def panel(body: Any, title: str) -> Panel:
    return Panel(body, title=title, expand=False)
