"""``kifu cards``: the card catalogue of a ruleset, filtered by type, element or text."""
from __future__ import annotations

import json

import click
import msgspec
from rich.table import Table

from domain.core.ruleset import find_ruleset, ruleset_names

from . import render


@click.command()
@click.argument("ruleset", type=click.Choice(ruleset_names(), case_sensitive=False))
@click.option("--type", "type_", help="Only this card type (UT, MS, SS, LS).")
@click.option("--element", help="Only cards that have this element (火 水 風 地 光 闇).")
@click.option("--text", help="Only cards whose name or text contains this.")
@click.option("--json", "as_json", is_flag=True, help="Print the cards as JSON.")
def cards(ruleset: str, type_: str | None, element: str | None, text: str | None, as_json: bool) -> None:
    """List the cards Kifu knows for RULESET, with which of their numbers are invented."""
    found = find_ruleset(ruleset).cards()
    if type_:
        found = [d for d in found if d.type.upper() == type_.upper()]
    if element:
        found = [d for d in found if element in d.elements]
    if text:
        found = [d for d in found if text in d.name or text in d.text]
    if as_json:
        click.echo(json.dumps(msgspec.to_builtins(found), ensure_ascii=False, indent=1))
        return
    table = Table(show_lines=True, expand=True)
    for header, kwargs in (("no.", {"no_wrap": True}), ("name", {"min_width": 8}), ("type", {}), ("E", {}),
                           ("F", {}), ("LV", {}), ("S/V/A/D", {"no_wrap": True}),
                           ("text", {"ratio": 3, "overflow": "fold"}), ("invented", {"ratio": 1})):
        table.add_column(header, **kwargs)
    for d in found:
        stats = f"{d.STR}/{d.VIT}/{d.AGI}/{d.DEF}" if d.type == "UT" else ""
        table.add_row(d.number, d.name, d.type, "".join(d.elements), "・".join(d.families), str(d.lv), stats,
                      d.text, ", ".join(d.invented) or "-")
    con = render.console()
    con.print(table)
    con.print(f"{len(found)} cards")
