"""``kifu cards``: a ruleset's card catalogue, filtered by any of its columns or by text."""
from __future__ import annotations

import json

import click
import msgspec
from rich.table import Table
from rich.text import Text

from kifu.domain.core.catalogue import CardRow, Catalogue
from kifu.domain.core.ruleset import find_ruleset

from . import render
from .names import RulesetName


def _filters(catalogue: Catalogue, where: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    keys = catalogue.keys()
    for item in where:
        key, sep, value = item.partition("=")
        if not sep or not value:
            raise click.BadParameter(f"{item!r}: give COLUMN=VALUE, e.g. {keys[min(2, len(keys) - 1)]}=…",
                                     param_hint="--where")
        if key not in keys:
            raise click.BadParameter(f"{key!r} is not a column of this catalogue; columns: {', '.join(keys)}",
                                     param_hint="--where")
        out.append((key, value))
    return out


def _known_values(catalogue: Catalogue, filters: list[tuple[str, str]]) -> None:
    """A filter value no card holds at all is a typo (``type=XX``, ``element=fire``), not "0 cards"."""
    for key, value in filters:
        cells = {row.get(key) for row in catalogue.rows}
        if any(value.casefold() == c.casefold() or value in c for c in cells):
            continue
        shown = sorted(c for c in cells if c)
        hint = ", ".join(shown[:12]) + (", …" if len(shown) > 12 else "")
        raise click.BadParameter(f"no card has {key} {value!r}; {key} values: {hint}", param_hint="--where")


def _matches(row: CardRow, filters: list[tuple[str, str]], text: str | None) -> bool:
    for key, value in filters:
        cell = row.get(key)
        if value.casefold() != cell.casefold() and value not in cell:
            return False
    if not text:
        return True
    folded = text.casefold()
    return text in row.name or text in row.text or folded in row.name_en.casefold() or folded in row.gloss.casefold()


@click.command()
@click.argument("ruleset", type=RulesetName())
@click.option("--where", "where", multiple=True, metavar="COLUMN=VALUE",
              help="Only cards whose COLUMN holds VALUE (e.g. type=UT, element=火); repeat to narrow.")
@click.option("--text", help="Only cards whose name or text contains this.")
@click.option("--english", is_flag=True,
              help="Add each card's English name and gloss (the seed's text stays the card).")
@click.option("--json", "as_json", is_flag=True, help="Print the cards as JSON.")
def cards(ruleset: str, where: tuple[str, ...], text: str | None, english: bool, as_json: bool) -> None:
    """List the cards Kifu knows for RULESET, with which of their numbers are invented.

    ``--text`` finds a card by its Japanese name or text, or by its English name or gloss."""
    catalogue = find_ruleset(ruleset).content.catalogue()
    if english:
        catalogue = catalogue.in_english()
    filters = _filters(catalogue, where)
    _known_values(catalogue, filters)
    found = [row for row in catalogue.rows if _matches(row, filters, text)]
    if as_json:
        click.echo(json.dumps(msgspec.to_builtins(found), ensure_ascii=False, indent=1))
        return
    con = render.console()
    if not con.is_terminal:       # piped: one card a line, tab-separated, every column whole
        click.echo("\t".join(c.key for c in catalogue.columns))
        for row in found:
            click.echo("\t".join(row.get(c.key).replace("\n", " ").replace("\t", " ") for c in catalogue.columns))
        click.echo(f"{len(found)} cards", err=True)      # the count on stderr: stdout stays rows only
        return
    if con.width < 120:           # narrow: a card is a line of its numbers, then its text below
        short = [c for c in catalogue.columns if c.kind != "text"]
        for row in found:
            con.print(Text.assemble(*[(f"{row.get(c.key)}  ", "bold" if c.kind == "name" else "")
                                      for c in short if row.get(c.key) and c.key != "invented"]))
            if row.text:
                con.print(Text(row.text, style="green"), soft_wrap=False)
            if english and row.gloss:
                con.print(Text(row.gloss, style="italic"))
            if row.invented:
                con.print(Text("invented: " + ", ".join(row.invented), style="dim"))
        con.print(f"{len(found)} cards")
        return
    table = Table(show_lines=True, expand=True)
    for column in catalogue.columns:
        if column.kind == "text":
            table.add_column(column.title, ratio=3, overflow="fold")
        elif column.kind == "name":
            table.add_column(column.title, min_width=8)
        else:
            table.add_column(column.title, no_wrap=column.key != "invented")
    for row in found:
        table.add_row(*[row.get(c.key) or ("-" if c.key == "invented" else "") for c in catalogue.columns])
    con.print(table)
    con.print(f"{len(found)} cards")
