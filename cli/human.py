"""A person at this terminal taking a seat: the same ``choose(seen)`` contract as a bot.

The board is drawn from the ruleset's layout of the seat's view. A short list of legal
decisions is shown numbered; a long one (a WORLFARD main phase has ~200: every card, spot and
payment) is narrowed step by step — the kind of decision, then the card, then the place, then
the rest (the payment) — each step a short numbered list with how many decisions each choice
leaves. Cards are shown by name (the ids the layout shows are mapped to names even where a
ruleset's command declares no roles), a card can be chosen by typing its name (a close
miss gets "did you mean"), ``?N`` prints the text of the card of choice N, ``0`` goes back a step.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
import msgspec
from rich.text import Text

from kifu.domain.core.bot import Seen
from kifu.domain.core.layout import faces
from kifu.domain.core.roles import roles_of
from kifu.domain.core.ruleset import Ruleset

from . import render
from .names import suggestion

SHORT = 12          # at most this many decisions are listed at once
_ORDER = {"card": 0, "place": 1, "seat": 2}   # grouping order: card → place → the rest (payment)


class HumanSeat:
    def __init__(self, rules: Ruleset[Any, Any, Any], players: tuple[str, ...], con: Any,
                 names: Callable[[int], str] | None = None) -> None:
        self.rules = rules
        self.players = players
        self.con = con
        self.names = names
        self._catalogue: Any = None

    # -- what a value looks like ---------------------------------------------------------------
    def _name(self, card: int, shown: dict[int, str]) -> str | None:
        if card in shown:
            return shown[card]
        if self.names is not None:
            try:
                return self.names(card)
            except (IndexError, KeyError, TypeError):
                return None
        return None

    def _say(self, value: Any, card_role: bool, shown: dict[int, str]) -> str:
        """A field value in words: card ids as names (a role says so, or the board shows that id)."""
        ints = value if isinstance(value, (list, tuple)) else [value]
        if ints and all(isinstance(v, int) and not isinstance(v, bool) for v in ints):
            named = [self._name(v, shown) if (card_role or v in shown) else None for v in ints]
            names = [n for n in named if n is not None]
            if len(names) == len(named):
                return ", ".join(names) if isinstance(value, (list, tuple)) else names[0]
        if isinstance(value, (list, tuple)):
            return "none" if not value else ", ".join(str(v) for v in value)
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def _fields(self, command: Any) -> list[tuple[str, Any, str]]:
        """(field, value, role) in the order choices are narrowed: card, place, then the rest."""
        roles = {f.name: f.role for f in roles_of(type(command))}
        fields = [(f.name, getattr(command, f.name), roles.get(f.name, "")) for f in msgspec.structs.fields(command)]
        return sorted(fields, key=lambda f: _ORDER.get(f[2], 3))

    def describe(self, command: Any, shown: dict[int, str]) -> str:
        parts = [f"{name} {self._say(value, role == 'card', shown)}" for name, value, role in self._fields(command)]
        return " · ".join(parts) if parts else ""

    def card_text(self, name: str) -> str:
        if self._catalogue is None:
            self._catalogue = self.rules.content.catalogue()
        row = self._catalogue.card(name)
        return f"{name}: {row.text}" if row is not None and row.text else f"{name}: no text in the catalogue"

    # -- choosing ------------------------------------------------------------------------------
    def choose(self, seen: Seen) -> Any:
        con = self.con
        layout = self.rules.presentation.layout(seen.view)
        con.print(render.board(layout, self.players))
        shown = {face.id: face.name for _, face in faces(layout) if face.id and face.name}
        legal = list(seen.legal)
        picked: list[tuple[str, Any]] = []        # (key, value) chosen so far
        while True:
            left = [c for c in legal if all(_key_value(self, c, k) == v for k, v in picked)]
            if len(left) <= SHORT:
                options = [(self._label(c, picked, shown), c, _card_of(self, c, shown)) for c in left]
                choice = self._ask(seen.seat, options, bool(picked))
                if choice is None:
                    picked.pop()
                    continue
                return choice
            key = next(k for k in _keys(self, left) if len({repr(_key_value(self, c, k)) for c in left}) > 1)
            values: dict[str, tuple[Any, int, str | None]] = {}
            for c in left:
                v = _key_value(self, c, key)
                label = type(c).__name__ if key == "decision" else self._say(v, _role(c, key) == "card", shown)
                old = values.get(repr(v))
                values[repr(v)] = (v, (old[1] if old else 0) + 1, label)
            con.print(Text(f"choose the {key}:", style="bold"))
            options = [(f"{label}  ({n} decision{'s' if n > 1 else ''})", v,
                        label if key != "decision" and label in shown.values() else None)
                       for v, n, label in values.values()]
            choice = self._ask(seen.seat, options, bool(picked), final=False)
            if choice is _BACK:
                picked.pop()
                continue
            picked.append((key, choice))

    def label(self, command: Any, shown: dict[int, str]) -> str:
        """A decision in full: its kind, then each field it sets (cards by name); a field left at its
        default (no target) says nothing, as in the record."""
        defaults = {f.name: f.default for f in msgspec.structs.fields(command)}
        rest = [f"{name} {self._say(value, role == 'card', shown)}" for name, value, role in self._fields(command)
                if value != defaults.get(name, msgspec.NODEFAULT)]
        return " ".join([type(command).__name__, " · ".join(rest)]).strip()

    def _label(self, command: Any, picked: list[tuple[str, Any]], shown: dict[int, str]) -> str:
        done = {k for k, _ in picked}
        kind = type(command).__name__
        rest = [f"{name} {self._say(value, role == 'card', shown)}" for name, value, role in self._fields(command)
                if name not in done and value not in (None, [], ())]    # unset fields say nothing
        head = "" if "decision" in done else kind
        gap = " " if rest and "decision" not in done else ""
        return head + gap + " · ".join(rest) or kind

    def _ask(self, seat: int, options: list[tuple[str, Any, str | None]], can_go_back: bool,
             final: bool = True) -> Any:
        con = self.con
        for i, (label, _, _) in enumerate(options, start=1):
            con.print(f"  [cyan]{i:>3}[/] {label}")
        hints = (["0 back"] if can_go_back else []) + (["?N card text"] if any(o[2] for o in options) else [])
        while True:
            answer = click.prompt(f"seat {seat}, your {'decision' if final else 'choice'}"
                                  + (f" ({', '.join(hints)})" if hints else ""), type=str).strip()
            if answer.startswith("?") and answer[1:].isdigit() and 1 <= int(answer[1:]) <= len(options):
                card = options[int(answer[1:]) - 1][2]
                con.print(self.card_text(card) if card else "that choice names no card")
                continue
            if answer == "0" and can_go_back:
                return None if final else _BACK
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1][1]
            by_name = self._by_name(answer, options)
            if isinstance(by_name, str):
                con.print(f"[red]{by_name}[/]")
                continue
            if by_name is not None:
                return options[by_name][1]
            con.print(f"[red]give a number from 1 to {len(options)}[/]")

    @staticmethod
    def _by_name(answer: str, options: list[tuple[str, Any, str | None]]) -> int | str | None:
        """A card typed by name: the index of the one choice that names it; a hint when several
        do, or when the name is close to one (``did you mean``); None when it names no card here."""
        cards = {i: card for i, (_, _, card) in enumerate(options) if card}
        if not answer or not cards:
            return None
        hits = [i for i, card in cards.items() if card.casefold() == answer.casefold()]
        if len(hits) == 1:
            return hits[0]
        if hits:
            return f"{len(hits)} choices name {answer}: give the number of one ({', '.join(str(i + 1) for i in hits)})"
        guess = suggestion(answer, set(cards.values()))
        if guess is not None:
            numbers = ", ".join(str(i + 1) for i, card in cards.items() if card == guess)
            return f"no choice names {answer!r}; did you mean {guess!r} (choice {numbers})?"
        return None


_BACK = object()


def _role(command: Any, key: str) -> str:
    return next((f.role for f in roles_of(type(command)) if f.name == key), "")


def _keys(seat: HumanSeat, commands: list[Any]) -> list[str]:
    keys = ["decision"]
    for c in commands:
        for name, _, _ in seat._fields(c):
            if name not in keys:
                keys.append(name)
    return keys


def _key_value(seat: HumanSeat, command: Any, key: str) -> Any:
    if key == "decision":
        return type(command).__name__
    value = getattr(command, key, None)
    return msgspec.to_builtins(value)


def _card_of(seat: HumanSeat, command: Any, shown: dict[int, str]) -> str | None:
    """The name of the card a decision plays (its first card-valued field), for ``?N``."""
    for _field, value, role in seat._fields(command):
        if isinstance(value, int) and not isinstance(value, bool) and (role == "card" or value in shown):
            return seat._name(value, shown)
    return None
