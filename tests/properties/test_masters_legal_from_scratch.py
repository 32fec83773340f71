"""``legal`` keeps work between decisions (what the pieces alone decide, per pieces tuple by
identity; card facts per definition; square names built once) and ``options`` counts summons and
moves without building them (built when read): at every
decision of random matches it must list exactly what the rules give when worked out from
scratch, in the same order (the random bot draws an index over it).

The reference below asks ``decide``'s own ``may_*`` permissions (with their reasons), looks every
card up by name, and builds every command afresh.
"""
from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from random_play import random_decisions

from kifu.domain.core import priority as prio
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.masters import commands as c
from kifu.domain.masters import permissions as pm
from kifu.domain.masters.board import around, name, paths
from kifu.domain.masters.cards import card as definition
from kifu.domain.masters.combat import can_move
from kifu.domain.masters.decide import awaiting
from kifu.domain.masters.decks import preset_names
from kifu.domain.masters.effects import target_ok
from kifu.domain.masters.legal import legal, options
from kifu.domain.masters.state import State

RULESET = find_ruleset("masters")
PRESETS = preset_names()


def _targets(state: State, seat: int, source: int, skill: Any) -> list[str]:
    if skill.target in ("none", "self"):
        return [] if target_ok(state, seat, source, skill, 0) else [""]
    return [name(p.square) for p in state.pieces if not target_ok(state, seat, source, skill, p.card)]


def from_scratch(state: State, seat: int) -> list[Any]:
    """Every decision ``seat`` may take now, each permission asked afresh."""
    if seat not in awaiting(state):
        return []
    side = state.side(seat)
    if state.phase == "mulligan":
        return [c.Bottom(card=card) for card in side.hand] if side.kept else [c.Keep(), c.Mulligan()]
    if state.pending == "draw":
        return [c.Draw(), c.Charge()] if side.deck else [c.Draw()]
    if state.pending == "discard":
        return [c.Discard(card=card) for card in side.hand]
    normal = pm.may_summon(state, seat) is None
    assert normal == (pm.may_cast(state, seat) is None)
    ambush = not normal and pm.may_ambush(state, seat) is None
    charge = pm.may_charge_piece(state, seat) is None
    out: list[Any] = [c.Pass()]
    for card in side.hand:
        d = definition(state.name(card))
        if d.kind == "piece":
            if charge:
                out.append(c.ChargePiece(card=card))
            if (normal or (ambush and d.keyword("ambush") is not None)) and d.cost <= state.untapped_mana(seat):
                out += [c.Summon(card=card, square=name(sq)) for sq in pm.summon_squares(state, seat, not normal)]
        elif normal and d.skill is not None and d.cost <= state.untapped_mana(seat):
            out += [c.Cast(card=card, target=t) for t in _targets(state, seat, card, d.skill)]
    if pm.may_move_master(state, seat) is None:
        out += [c.MoveMaster(to=name(sq)) for sq in around(side.master) if sq not in state.occupied()]
    moving = pm.may_move_piece(state, seat) is None
    activating = pm.may_activate(state, seat) is None
    for p in state.pieces:
        if p.seat != seat:
            continue
        d = definition(state.name(p.card))
        if moving and not can_move(state, p):
            out += [c.Move(piece=p.card, path=tuple(name(x) for x in path))
                    for path in paths(p.square, d.mov, state.occupied(), seat)]
        skill = d.skill
        if not activating or skill is None or skill.when != "activated" or (skill.tap and p.tapped):
            continue
        if skill.mana > state.untapped_mana(seat):
            continue
        if any(op.op == "avoid" for op in skill.ops) and (state.combat is None or state.combat.defender != p.card):
            continue
        out += [c.Activate(card=p.card, target=t) for t in _targets(state, seat, p.card, skill)]
    return out


def _variants(state: State) -> list[State]:
    """States next to ``state``: the first move of the action phase made or not, the other master
    holding priority, the once-a-turn master step and face-up charge used or not, all mana
    untapped (random players spend it early: what it would afford is otherwise rarely listed)."""
    out = [replace(state, moved_in_action=not state.moved_in_action)]
    if state.priority is not None:
        out.append(replace(state, priority=prio.opened(3 - state.priority.holder)))
    sides = tuple(replace(side, master_moved=not side.master_moved, charged=not side.charged) for side in state.sides)
    out.append(replace(state, sides=sides))  # type: ignore[arg-type]
    rich = tuple(replace(side, mana=tuple(replace(m, tapped=False) for m in side.mana)) for side in state.sides)
    out.append(replace(state, sides=rich))  # type: ignore[arg-type]
    out.append(replace(state, sides=rich, moved_in_action=not state.moved_in_action))  # type: ignore[arg-type]
    if state.combat is not None:
        out.append(replace(state, combat=None))
    return out


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1),
       decks=st.tuples(st.sampled_from(PRESETS), st.sampled_from(PRESETS)))
def test_legal_lists_what_the_rules_give_from_scratch_at_every_decision(seed, decks):
    states = []
    for match, seat, shown in random_decisions(RULESET, seed, decks, f"scratch-{seed}"):
        listed = legal(match.state, seat)
        expected = from_scratch(match.state, seat)
        assert listed == expected, match.seq
        # ``shown``: what the bots are shown (``options``), summons and moves built when read
        assert len(shown) == len(expected), match.seq
        assert [shown[i] for i in range(len(shown))] == expected, match.seq
        assert [shown[i] for i in range(-len(shown), 0)] == expected, match.seq
        assert list(shown) == expected and shown[:] == expected, match.seq
        assert legal(match.state, 3 - seat) == from_scratch(match.state, 3 - seat) == [], match.seq
        states.append((match.state, seat, listed))
        for variant in _variants(match.state):     # the same pieces and sides, other flags: other parts apply
            for s in (1, 2):
                assert legal(variant, s) == list(options(variant, s)) == from_scratch(variant, s), match.seq
    assert match.outcome is not None
    assert legal(match.state, 1) == legal(match.state, 2) == []
    # asked out of order (each position's parts worked out afresh or found), the answers do not change
    random.Random(seed).shuffle(states)
    for state, seat, listed in states:
        assert legal(state, seat) == listed
