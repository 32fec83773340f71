"""``legal``: exactly the decisions the rules allow a seat now, payments and targets included."""
from __future__ import annotations

from itertools import product

from . import commands as c
from .activate import why_not
from .cards import CardDef
from .combat import blockers, evader, targets as attack_targets
from .decide import awaiting
from .geometry import adjacent, lines
from .hearts import heart_souls, top_heart
from .payment import payments
from .spells import may_cast_now, on_own_spot, spell_cost, targeting_skill
from .state import State
from .stats import definition, unit_stats
from .targets import options
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
    if state.choice is not None:
        choice = state.choice
        out: list[c.Command] = [c.Choose(targets=(o,)) for o in choice.options]
        if not choice.options:
            out.append(c.Choose())
        if choice.optional:
            out.append(c.Decline())
        return out
    if state.window is not None:
        return [c.Pass(), *_casts(state, seat)]
    combat = state.combat
    if combat is not None:
        if combat.step == "target":
            return [c.Target(line=line) for line, _ in attack_targets(state)]
        if combat.step == "defend":
            out = [c.Block(line=line) for line, _, _ in blockers(state)]
            if evader(state) is not None:
                out.append(c.Evade())
            out.append(c.NoDefense())
            return out
        return []
    out = []
    if state.phase in (Phase.MAIN1, Phase.MAIN2):
        out.extend(_main_actions(state, seat))
    elif state.phase == Phase.BATTLE:
        out.extend(_attacks(state, seat))
    out.extend(c.Proceed(to=to) for to in proceed_targets(state))  # type: ignore[arg-type]
    return out


def _pays(cache: dict[int, tuple], state: State, seat: int, cost: int) -> tuple:
    found = cache.get(cost)
    if found is None:
        found = cache[cost] = payments(state, seat, cost)
    return found


def _main_actions(state: State, seat: int) -> list[c.Command]:
    side = state.side(seat)
    out: list[c.Command] = []
    if not state.tower_set:
        open_lines = [line for line in lines() if side.towers[line - 1].height < TOWER_MAX]
        for card in side.hand:
            out.extend(c.SetTower(card=card, line=line) for line in open_lines)
    cache: dict[int, tuple] = {}
    empty = [line for line in lines() if side.stage[line - 1] is None]
    heart = top_heart(state, seat)
    if empty:
        for card, from_heart in [(card, False) for card in side.hand] + ([(heart, True)] if heart else []):
            d = definition(state, card)
            if not d.is_unit:
                continue
            extras: list[int | None] = heart_souls(state, seat, card) if from_heart else [None]
            for extra in extras:
                for towers, souls in _pays(cache, state, seat, d.lv):
                    if extra is not None and extra in souls:
                        continue
                    out.extend(c.Summon(card=card, line=line, towers=towers, souls=souls, heart=from_heart,
                                        heart_soul=extra) for line in empty)
    out.extend(_casts(state, seat, cache))
    out.extend(_activations(state, seat, cache))
    for index, unit in enumerate(side.stage):
        if unit is None or unit.broken or unit.status in (Status.SLEEP, Status.RAGE):
            continue
        line = index + 1
        out.extend(c.Move(line=line, to=to) for to in adjacent(line) if side.stage[to - 1] is None)
    return out


def _casts(state: State, seat: int, cache: dict[int, tuple] | None = None) -> list[c.Command]:
    """Every spell cast open to ``seat`` now: card × table spot × targets × payment (× heart soul)."""
    cache = {} if cache is None else cache
    side = state.side(seat)
    spots = [line for line in lines() if side.table[line - 1] is None]
    if not spots:
        return []
    heart = top_heart(state, seat)
    out: list[c.Command] = []
    for card, from_heart in [(card, False) for card in side.hand] + ([(heart, True)] if heart else []):
        d: CardDef = definition(state, card)
        if not d.is_spell or may_cast_now(state, seat, d) is not None:
            continue
        skill = targeting_skill(d)
        choices: list[tuple[int, ...]] = [()]
        if skill is not None:
            choices = [(t,) for t in options(state, skill, seat, card)]
            if not choices:
                continue
        extras: list[int | None] = heart_souls(state, seat, card) if from_heart else [None]
        for line in spots:
            cost = spell_cost(state, seat, card, line)
            for (towers, souls), chosen, extra in product(_pays(cache, state, seat, cost), choices, extras):
                if (extra is not None and extra in souls) or (skill is not None and chosen
                                                              and on_own_spot(skill, line, chosen[0])):
                    continue
                out.append(c.Cast(card=card, line=line, towers=towers, souls=souls, targets=chosen,
                                  heart=from_heart, heart_soul=extra))
    return out


def _activations(state: State, seat: int, cache: dict[int, tuple]) -> list[c.Command]:
    side = state.side(seat)
    out: list[c.Command] = []
    sources = [u.card for u in side.stage if u is not None] + [t.card for t in side.table if t is not None]
    for card in sources:
        for index, skill in enumerate(definition(state, card).skill):
            if skill.mark != "!" or why_not(state, seat, card, index) is not None:
                continue
            choices: list[tuple[int, ...]] = [()]
            if skill.target is not None:
                choices = [(t,) for t in options(state, skill, seat, card)]
            for (towers, souls), chosen in product(_pays(cache, state, seat, skill.cost), choices):
                out.append(c.Activate(card=card, skill=index, towers=towers, souls=souls, targets=chosen))
    return out


def _attacks(state: State, seat: int) -> list[c.Command]:
    out: list[c.Command] = []
    for index, unit in enumerate(state.side(seat).stage):
        if unit is None or unit.broken or unit.status == Status.SLEEP:
            continue
        if unit_stats(state, seat, index + 1).AGI >= 1:
            out.append(c.Attack(line=index + 1))
    return out
