"""A unit's current parameters (W-2.3): printed values plus what applies to it now.

Today that is the element effect of its tower (W-7.3); skills and effects (W-14) layer here too,
set-base first, then add/subtract, then floors at 0 for STR, VIT and AGI.
"""
from __future__ import annotations

import msgspec

from .cards import CardDef, card as card_def
from .state import State


class Stats(msgspec.Struct, frozen=True):
    STR: int
    VIT: int
    AGI: int
    DEF: int


def definition(state: State, card: int) -> CardDef:
    return card_def(state.name(card))


def keeper_bonus(state: State, seat: int, line: int, unit_card: int) -> int:
    """W-7.3: a keeper that has its tower's element gets [VIT+1] while it stays there."""
    top = state.side(seat).towers[line - 1].top
    if top is None:
        return 0
    tower_elements = definition(state, top).elements
    unit_elements = definition(state, unit_card).elements
    return 1 if any(e in tower_elements for e in unit_elements) else 0


def unit_stats(state: State, seat: int, line: int) -> Stats:
    unit = state.side(seat).stage[line - 1]
    assert unit is not None, f"no unit on seat {seat} line {line}"
    d = definition(state, unit.card)
    vit = d.VIT + keeper_bonus(state, seat, line, unit.card)
    return Stats(STR=max(0, d.STR), VIT=max(0, vit), AGI=max(0, d.AGI), DEF=d.DEF)
