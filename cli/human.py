"""A person at this terminal taking a seat: the same ``choose(seen)`` contract as a bot.

The board is drawn from the ruleset's layout of the seat's view; the legal decisions are listed
by number, grouped under the kind of decision they are, with card ids shown as names.
"""
from __future__ import annotations

from itertools import groupby
from typing import Any, Callable

import click
from rich.text import Text

from domain.core.bot import Seen
from domain.core.ruleset import Ruleset

from . import render


class HumanSeat:
    def __init__(self, rules: Ruleset[Any, Any, Any], players: tuple[str, ...], con: Any,
                 names: Callable[[int], str] | None = None) -> None:
        self.rules = rules
        self.players = players
        self.con = con
        self.names = names

    def choose(self, seen: Seen) -> Any:
        con = self.con
        con.print(render.board(self.rules.layout(seen.view), self.players))
        legal = seen.legal
        index = 0
        for kind, commands in groupby(legal, key=lambda c: type(c).__name__):
            con.print(Text(kind, style="bold"))
            for command in commands:
                index += 1
                described = render.describe_event(command, self.names).removeprefix(kind).strip()
                con.print(f"  [cyan]{index:>3}[/] {described or kind}")
        choice = click.prompt(f"seat {seen.seat}, your decision", type=click.IntRange(1, len(legal)))
        return legal[choice - 1]
