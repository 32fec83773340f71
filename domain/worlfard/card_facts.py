"""What the decision lists read off a card many times a match — kind, LV, elements, the skill
aimed at cast, the extra cost, the activated skills — worked out once per printed card.

``legal`` asks these of every hand card, table spot and source at every decision (over 200,000
definition lookups per 20 matches, each then scanning the card's skills again). A card's
printed data never changes, so its facts are kept by its definition (which the catalog keeps
alive for the process, so its id stays its own), and a match's cards map to theirs in one table
made when the match is first seen (a few dozen cards: one dictionary lookup per card after).
"""
from __future__ import annotations

from typing import Any

from kifu.domain.core.clauses import implements
from kifu.domain.core.memo import ByIdentity

from .cards import CardDef, catalog
from .skills import Skill
from .state import State
from .vocabulary import card_id


@implements("W-2.5")
def spell_skill(d: CardDef) -> tuple[int, Skill] | None:
    """The ○ skill (W-2.5); a Long Spell may have none."""
    for index, skill in enumerate(d.skill):
        if skill.mark == "○":
            return index, skill
    return None


def targeting_skill(d: CardDef) -> Skill | None:
    """The skill whose 【…】 is chosen at cast: the ○ skill, or a Long Spell's lasting one."""
    for skill in d.skill:
        if skill.target is not None and (skill.mark == "○" or (skill.zone == "table" and skill.static)):
            return skill
    return None


@implements("W-10.5")
def extra_cost(d: CardDef) -> int:
    """{コスト:〔n〕} on the spell skill: paid on top of the LV, even when cast instantly (W-10.5)."""
    found = spell_skill(d)
    return found[1].cost if found else 0


class Facts:
    """One printed card as ``legal`` reads it."""

    __slots__ = ("card_def", "unit", "short", "lv", "elements", "aim", "extra", "places_spell", "activated")

    def __init__(self, d: CardDef) -> None:
        self.card_def = d
        self.unit: bool = d.is_unit
        self.short: bool = d.type == "SS"                        # a Short Spell (W-10.2, W-13)
        self.lv: int = d.lv
        self.elements: frozenset[str] = frozenset(d.elements)
        self.aim: Skill | None = targeting_skill(d)              # chosen at cast (W-10.4)
        self.extra: int = extra_cost(d)                         # paid on top of the LV
        # a spell that puts a spell on a table spot cannot aim at the spot it is cast to (on_own_spot)
        self.places_spell: bool = self.aim is not None and self.aim.target is not None \
            and self.aim.target.kind == "hand_spell"
        self.activated: tuple[tuple[int, Skill], ...] = tuple((i, s) for i, s in enumerate(d.skill) if s.mark == "!")


# by printed card (the catalog keeps each alive for the process; a few hundred at most)
_of = ByIdentity("worlfard.card_facts", Facts, bound=1024)


Table = dict[int, Facts]


def _facts_of(names: Any) -> Table:
    defs = catalog()
    return {card_id(seat, i): _of(defs[name]) for seat, seat_names in enumerate(names, 1)
            for i, name in enumerate(seat_names)}


# the facts of every card of a match, by card id, from its ``state.names``: a few dozen cards,
# one table a match, then one dictionary lookup per card
match_facts = ByIdentity("worlfard.match_facts", _facts_of, bound=64)


def card_facts(state: State, card: int) -> Facts:
    """The facts of the printed card behind ``card`` in ``state``'s match."""
    last = match_facts.last         # the match asked last, read without a call
    table: Table = last[1] if last[0] is state.names else match_facts(state.names)
    return table[card]
