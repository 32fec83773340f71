"""``legal`` keeps work between decisions (card facts per printed card and per match, payments by
their sources, counted rather than listed, a heart summon's payments as those from the other souls,
one pass over the stage and table rows that also reads the activation checks off them): at every
decision of random matches it must list exactly what the rules give when worked out from scratch,
in the same order (the random bot draws an index over it).

The reference below reads every card definition and every rule afresh and builds every command.
"""
from __future__ import annotations

from itertools import combinations, product
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_play import random_decisions

from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard import commands as c
from kifu.domain.worlfard.activate import why_not
from kifu.domain.worlfard.card_facts import targeting_skill
from kifu.domain.worlfard.cards import definition
from kifu.domain.worlfard.combat import blockers, evader
from kifu.domain.worlfard.combat import targets as attack_targets
from kifu.domain.worlfard.decide import awaiting
from kifu.domain.worlfard.decks import preset_names
from kifu.domain.worlfard.field import stat, tower_heights
from kifu.domain.worlfard.payment import is_redundant_free, payments
from kifu.domain.worlfard.spells import may_cast_now
from kifu.domain.worlfard.state import State
from kifu.domain.worlfard.targets import options as targets_of
from kifu.domain.worlfard.turns import proceed_targets
from kifu.domain.worlfard.vocabulary import LINES, TOWER_MAX, Phase, Status

RULESET = find_ruleset("worlfard")
PRESETS = preset_names()


def _payments(state: State, seat: int, cost: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """W-6.3/W-6.4 from scratch: every breakable tower set, fewest first, alone or with souls."""
    side = state.side(seat)
    heights = tower_heights(state, seat)
    ready = [line for line in range(1, LINES + 1) if side.towers[line - 1].cards and not side.towers[line - 1].broken
             and (side.stage[line - 1] is None or not side.stage[line - 1].broken)]
    out = []
    for n in range(len(ready) + 1):
        for towers in combinations(ready, n):
            hs = [heights[line - 1] for line in towers]
            if any(h == 0 for h in hs):
                continue
            if sum(hs) >= cost:
                if is_redundant_free(hs, cost):
                    out.append((towers, ()))
                continue
            need = cost - sum(hs)
            if need <= len(side.soul) and all(sum(hs) + need - h < cost for h in hs):
                out.extend((towers, chosen) for chosen in combinations(side.soul, need))
    return out


def _spell_cost(state: State, seat: int, card: int, line: int) -> int:
    d = definition(state, card)
    top = state.side(seat).towers[line - 1].top
    shares = top is not None and set(definition(state, top).elements) & set(d.elements)
    extra = next((s.cost for s in d.skill if s.mark == "○"), 0)
    return max(0, d.lv - (1 if shares else 0)) + extra


def _heart_souls(state: State, seat: int, card: int) -> list[int]:
    elements = set(definition(state, card).elements)
    return [s for s in state.side(seat).soul if elements & set(definition(state, s).elements)]


def _top_heart(state: State, seat: int) -> int | None:
    hearts = state.side(seat).hearts
    return hearts[0].card if hearts and hearts[0].face_up else None


def _casts(state: State, seat: int) -> list[Any]:
    side = state.side(seat)
    spots = [line for line in range(1, LINES + 1) if side.table[line - 1] is None]
    out: list[Any] = []
    if not spots:
        return out
    heart = _top_heart(state, seat)
    for card, from_heart in [(card, False) for card in side.hand] + ([(heart, True)] if heart else []):
        d = definition(state, card)
        if d.is_unit or may_cast_now(state, seat, d) is not None:
            continue
        skill = targeting_skill(d)
        choices: list[tuple[int, ...]] = [()]
        if skill is not None:
            choices = [(t,) for t in targets_of(state, skill, seat, card)]
            if not choices:
                continue
        extras: list[int | None] = _heart_souls(state, seat, card) if from_heart else [None]
        for line in spots:
            aimed = [t for t in choices if not (t and skill is not None and skill.target is not None
                                                and skill.target.kind == "hand_spell" and t[0] % 10 == line)]
            for (towers, souls), chosen, extra in product(_payments(state, seat, _spell_cost(state, seat, card, line)),
                                                          aimed, extras):
                if from_heart and extra not in souls:
                    out.append(c.Cast(card=card, line=line, towers=towers, souls=souls, targets=chosen, heart=True,
                                      heart_soul=extra))
                elif not from_heart:
                    out.append(c.Cast(card=card, line=line, towers=towers, souls=souls, targets=chosen))
    return out


def _main(state: State, seat: int) -> list[Any]:
    side = state.side(seat)
    out: list[Any] = []
    if not state.tower_set:
        open_lines = [line for line in range(1, LINES + 1) if side.towers[line - 1].height < TOWER_MAX]
        out += [c.SetTower(card=card, line=line) for card in side.hand for line in open_lines]
    empty = [line for line in range(1, LINES + 1) if side.stage[line - 1] is None]
    if empty:
        for card in side.hand:
            d = definition(state, card)
            if d.is_unit:
                out += [c.Summon(card=card, line=line, towers=towers, souls=souls)
                        for towers, souls in _payments(state, seat, d.lv) for line in empty]
        heart = _top_heart(state, seat)
        if heart and definition(state, heart).is_unit:
            out += [c.Summon(card=heart, line=line, towers=towers, souls=souls, heart=True, heart_soul=extra)
                    for extra in _heart_souls(state, seat, heart)
                    for towers, souls in _payments(state, seat, definition(state, heart).lv) if extra not in souls
                    for line in empty]
    out += _casts(state, seat)
    for card in [u.card for u in side.stage if u is not None] + [t.card for t in side.table if t is not None]:
        for index, skill in enumerate(definition(state, card).skill):
            if skill.mark != "!" or why_not(state, seat, card, index) is not None:
                continue
            choices = [(t,) for t in targets_of(state, skill, seat, card)] if skill.target is not None else [()]
            out += [c.Activate(card=card, skill=index, towers=towers, souls=souls, targets=chosen)
                    for towers, souls in _payments(state, seat, skill.cost) for chosen in choices]
    for line in range(1, LINES + 1):
        unit = side.stage[line - 1]
        if unit is not None and not unit.broken and unit.status not in (Status.SLEEP, Status.RAGE):
            out += [c.Move(line=line, to=to) for to in (line - 1, line + 1)
                    if 1 <= to <= LINES and side.stage[to - 1] is None]
    return out


def from_scratch(state: State, seat: int) -> list[Any]:
    """Every decision ``seat`` may make now, each rule read afresh."""
    if awaiting(state) != seat:
        return []
    if state.phase == Phase.ORDER:
        return [c.ChooseOrder(go_first=True), c.ChooseOrder(go_first=False)]
    if state.phase == Phase.MULLIGAN:
        return [c.Mulligan(redraw=False), c.Mulligan(redraw=True)]
    if state.choice is not None:
        chosen = [c.Choose(targets=(o,)) for o in state.choice.options] or [c.Choose()]
        return chosen + ([c.Decline()] if state.choice.optional else [])
    if state.window is not None:
        return [c.Pass()] + _casts(state, seat)
    if state.combat is not None:
        if state.combat.step == "target":
            return [c.Target(line=line) for line, _ in attack_targets(state)]
        if state.combat.step == "defend":
            return [c.Block(line=line) for line, _, _ in blockers(state)] + \
                ([c.Evade()] if evader(state) is not None else []) + [c.NoDefense()]
        return []
    out: list[Any] = []
    if state.phase in (Phase.MAIN1, Phase.MAIN2):
        out = _main(state, seat)
    elif state.phase == Phase.BATTLE:
        out = [c.Attack(line=line) for line in range(1, LINES + 1)
               if (u := state.side(seat).stage[line - 1]) is not None and not u.broken and u.status != Status.SLEEP
               and stat(state, seat, line, "AGI") >= 1]
    return out + [c.Proceed(to=to) for to in proceed_targets(state)]  # type: ignore[arg-type]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1),
       decks=st.tuples(st.sampled_from(PRESETS), st.sampled_from(PRESETS)))
def test_legal_lists_what_the_rules_give_from_scratch_at_every_decision(seed, decks):
    for match, seat, listed in random_decisions(RULESET, seed, decks, f"scratch-{seed}", limit=3000):
        expected = from_scratch(match.state, seat)
        assert len(listed) == len(expected), match.seq
        assert list(listed) == expected, match.seq
        assert [listed[i] for i in range(len(listed))] == expected, match.seq
        for cost in range(7):      # as the rules ask for them (an instant cast's extra cost, can_pay)
            assert list(payments(match.state, seat, cost)) == _payments(match.state, seat, cost), (match.seq, cost)
