"""``legal``: exactly the decisions the rules allow a seat now, payments included."""
from __future__ import annotations

from . import commands as c
from .combat import blockers, evader, targets
from .decide import awaiting
from .geometry import adjacent, lines
from .payment import payments
from .state import State
from .stats import definition, unit_stats
from .turns import proceed_targets
from .vocabulary import TOWER_MAX, Phase, Status


def legal(state: State, seat: int) -> list[c.Command]:
    if awaiting(state) != seat:
        return []
    match state.phase:
        case Phase.ORDER:
            return [c.ChooseOrder(go_first=True), c.ChooseOrder(go_first=False)]
        case Phase.MULLIGAN:
            return [c.Mulligan(redraw=False), c.Mulligan(redraw=True)]
    combat = state.combat
    if combat is not None:
        if combat.target is None:
            return [c.Target(line=line) for line, _ in targets(state)]
        out: list[c.Command] = [c.Block(line=line) for line, _, _ in blockers(state)]
        if evader(state) is not None:
            out.append(c.Evade())
        out.append(c.NoDefense())
        return out
    out = []
    if state.phase in (Phase.MAIN1, Phase.MAIN2):
        out.extend(_main_actions(state, seat))
    elif state.phase == Phase.BATTLE:
        out.extend(_attacks(state, seat))
    out.extend(c.Proceed(to=to) for to in proceed_targets(state))  # type: ignore[arg-type]
    return out


def _main_actions(state: State, seat: int) -> list[c.Command]:
    side = state.side(seat)
    out: list[c.Command] = []
    if not state.tower_set:
        open_lines = [line for line in lines() if side.towers[line - 1].height < TOWER_MAX]
        for card in side.hand:
            out.extend(c.SetTower(card=card, line=line) for line in open_lines)
    empty = [line for line in lines() if side.stage[line - 1] is None]
    if empty:
        by_cost: dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        for card in side.hand:
            d = definition(state, card)
            if not d.is_unit:
                continue
            pays = by_cost.get(d.lv)
            if pays is None:
                pays = by_cost[d.lv] = list(payments(state, seat, d.lv))
            for line in empty:
                out.extend(c.Summon(card=card, line=line, towers=t, souls=s) for t, s in pays)
    for index, unit in enumerate(side.stage):
        if unit is None or unit.broken or unit.status == Status.SLEEP:
            continue
        line = index + 1
        out.extend(c.Move(line=line, to=to) for to in adjacent(line) if side.stage[to - 1] is None)
    return out


def _attacks(state: State, seat: int) -> list[c.Command]:
    out: list[c.Command] = []
    for index, unit in enumerate(state.side(seat).stage):
        if unit is None or unit.broken or unit.status == Status.SLEEP:
            continue
        if unit_stats(state, seat, index + 1).AGI >= 1:
            out.append(c.Attack(line=index + 1))
    return out
