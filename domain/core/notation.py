"""A ruleset's position notation (the ``Notation`` group of ``kifu.domain.core.ruleset``) and the
checks rulesets share to refuse an impossible position; ``kifu.domain.core.position`` writes and
reads the text itself (``docs/positions.md``)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .errors import Malformed


class BadPosition(Malformed):
    """A position text that is not one: bad syntax, a bad field, or an impossible position."""

    def __init__(self, what: str) -> None:
        super().__init__(what, "position")


# -- the ruleset's part ------------------------------------------------------------------------------------
def no_check(state: Any) -> None:
    """The default: a position that decodes to the State struct is taken as it is."""


@dataclass(frozen=True, slots=True)
class Notation:
    """A ruleset's position notation: its version (bumped when the text of a state changes) and
    the checks ``parse`` runs on a decoded state, raising ``BadPosition`` with a one-line reason."""

    version: str = ""                                   # e.g. "worlfard-pos/1"; "" is "<name>-pos/1"
    check: Callable[[Any], None] = no_check             # refuses an impossible position


# -- checks the rulesets share -----------------------------------------------------------------------------
def conserved(cards: list[int], known: set[int], where: str = "", *, complete: bool = True) -> None:
    """Every card of ``known`` in exactly one place of ``cards`` (the cards of every zone), none
    other; with ``complete`` False (a setup still dealing) some may be in no zone yet."""
    seen: set[int] = set()
    for card in cards:
        if card not in known:
            raise BadPosition(f"unknown card {card}{where}")
        if card in seen:
            raise BadPosition(f"cards not conserved: card {card} is in two places{where}")
        seen.add(card)
    missing = sorted(known - seen)
    if missing and complete:
        raise BadPosition(f"cards not conserved: card {missing[0]} is nowhere"
                          + (f" ({len(missing)} cards missing)" if len(missing) > 1 else "") + where)


def known_names(names: Iterable[str], catalog: Any, where: str = "") -> None:
    """Every card name of the match is one of the card set's."""
    for name in names:
        if name and name not in catalog:
            raise BadPosition(f"unknown card {name!r}{where}")
