"""The answers ``legal`` and the turn rules keep by the row they read (a stage row with no raging
unit, a hand with no spell, a heart's paying souls) equal a fresh look at the cards, after every
event of played matches: a kept answer is never stale."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core.match import record_evolve
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard.card_facts import match_facts
from kifu.domain.worlfard.field import stat
from kifu.domain.worlfard.hearts import heart_souls, top_heart
from kifu.domain.worlfard.legal import _holds_spell
from kifu.domain.worlfard.state import State
from kifu.domain.worlfard.turns import rage_forces_attack
from kifu.domain.worlfard.vocabulary import Phase, Status
from kifu.tools.bench_work import play, preset_pairs

RULES = find_ruleset("worlfard")


def rage_from_scratch(state: State) -> bool:
    if state.turn == 1 or state.phase not in (Phase.MAIN1, Phase.BATTLE):
        return False
    seat = state.turn_seat
    return any(unit is not None and unit.status == Status.RAGE and not unit.broken
               and stat(state, seat, line, "AGI") >= 1 for line, unit in enumerate(state.side(seat).stage, 1))


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(1, 10_000))
def test_kept_answers_equal_a_fresh_look_after_every_event(seed: int) -> None:
    pairs = preset_pairs(RULES)
    match, _ = play(RULES, seed, pairs[seed % len(pairs)])
    fold = record_evolve(RULES)
    state = RULES.decider.initial_state(match.header)
    for env in match.envelopes:
        state = fold(state, env.event)
        facts = match_facts(state.names)
        assert rage_forces_attack(state) == rage_from_scratch(state), env.seq
        for seat in (1, 2):
            side = state.side(seat)
            assert _holds_spell(seat, side.hand, facts) == any(not facts[card].unit for card in side.hand), env.seq
            heart = top_heart(state, seat)
            if heart is not None:
                elements = facts[heart].elements
                fresh = tuple(s for s in side.soul if not elements.isdisjoint(facts[s].elements))
                assert heart_souls(state, seat, heart) == fresh, (env.seq, seat)
