"""Every decision a seat may take now (the random bot samples these uniformly).

Options that differ only in which copy of the same card is used are listed once (the first copy),
so the list stays short; ``decide`` accepts any copy."""
from __future__ import annotations

from typing import Any

from . import commands as c
from .decide import (
    NEIGHBOURS,
    adjacent_count,
    awaiting,
    can_attack_from,
    card_of,
    cast_options,
    distinct_cards,
)
from .state import State, other


def legal(state: State, seat: int) -> list[Any]:
    if seat not in awaiting(state):
        return []
    phase = state.phase
    if phase == "mulligan":
        return [c.Mulligan(redraw=False), c.Mulligan(redraw=True)]
    if phase == "step":
        return moves(state, seat) + [c.Proceed()]
    if phase == "main":
        return plays(state, seat) + cast_options(state, seat) + [c.Proceed()]
    if phase == "attack":
        return attacks(state, seat) + [c.Proceed()]
    if phase == "guard":
        side = state.side(seat)
        out: list[Any] = [c.Guard(card=card) for card in distinct_cards(state, side.hand)]
        out += [c.GuardWith(place=i + 1) for i, u in enumerate(side.stage)
                if u is not None and not u.leader and not u.burst and card_of(state, u.card).guard]
        return out + [c.Proceed()]
    if phase == "spell":
        return cast_options(state, seat) + [c.Proceed()]
    if phase == "end":
        return [c.Discard(card=card) for card in distinct_cards(state, state.side(seat).hand)]
    return []


def moves(state: State, seat: int) -> list[Any]:
    stage = state.side(seat).stage
    out: list[Any] = []
    for i, unit in enumerate(stage):
        if unit is None or unit.card in state.moved:
            continue
        for to in NEIGHBOURS[i + 1]:
            there = stage[to - 1]
            if there is None or unit.leader:
                out.append(c.Move(source=i + 1, to=to))
    return out


def plays(state: State, seat: int) -> list[Any]:
    side = state.side(seat)
    out: list[Any] = []
    empty = [p for p in range(1, 7) if side.stage[p - 1] is None]
    counts = {p: adjacent_count(state, seat, p) for p in empty}
    for card in distinct_cards(state, side.hand):
        info = card_of(state, card)
        if info.type != "character":
            continue
        if info.level == "Ex":
            for p, u in enumerate(side.stage, start=1):
                if u is not None and not u.leader and not u.under and u.entered != state.turn:
                    below = card_of(state, u.card)
                    if below.level == 3 and below.printed_name == info.printed_name:
                        out.append(c.Play(card=card, place=p))
            continue
        out.extend(c.Play(card=card, place=p) for p in empty if counts[p] >= info.lv)
    return out


def attacks(state: State, seat: int) -> list[Any]:
    mine = state.side(seat).stage
    theirs = state.side(other(seat)).stage
    targets = [p for p in range(1, 7) if theirs[p - 1] is not None]
    out: list[Any] = []
    for i, unit in enumerate(mine):
        if unit is not None and can_attack_from(state, i + 1, unit):
            out.extend(c.Attack(attacker=i + 1, target=t) for t in targets)
    return out
