"""What the decision lists read without a call equal what the calls they stand for answer: a
payer's "no payment" is its one empty answer (tested by identity), a unit's AGI read off its
card wherever nothing on the field may change AGI is ``unit_stat``'s, and ``has`` for an exact
skill name (one set lookup) is the pattern match over its skills, and a seat's tower heights
(as ``check_payment`` reads them) are each tower's ``tower_value``, after every event of played
matches."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.domain.core.match import record_evolve
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard import commands as c
from kifu.domain.worlfard.field import has, keywords, tower_heights
from kifu.domain.worlfard.legal import _attacks
from kifu.domain.worlfard.payment import NO_PAYMENTS, _ByCost, tower_value
from kifu.domain.worlfard.skills import keyword_matches
from kifu.domain.worlfard.state import State
from kifu.domain.worlfard.stats import unit_stat
from kifu.domain.worlfard.vocabulary import LINES, Status
from kifu.tools.bench_work import play, preset_pairs

RULES = find_ruleset("worlfard")


@settings(max_examples=200, deadline=None)
@given(towers=st.lists(st.tuples(st.integers(1, LINES), st.integers(0, 6)), max_size=LINES, unique_by=lambda t: t[0]),
       souls=st.lists(st.integers(1000, 2999), max_size=7, unique=True), cost=st.integers(-1, 12))
def test_a_payer_answers_no_payment_by_its_one_empty_answer(towers, souls, cost):
    towers.sort()
    pay = _ByCost(tuple(t for t, _ in towers), tuple(h for _, h in towers), tuple(souls))
    assert (pay[cost] is NO_PAYMENTS) == (len(pay[cost]) == 0)
    for soul in souls:
        without = pay.without(soul)
        assert (without[cost] is NO_PAYMENTS) == (len(without[cost]) == 0)


def attacks_from_scratch(state: State, seat: int) -> list[c.Command]:
    return [c.Attack(line=line) for line, unit in enumerate(state.side(seat).stage, 1)
            if unit is not None and not unit.broken and unit.status != Status.SLEEP
            and unit_stat(state, seat, line, "AGI") >= 1]


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(1, 10_000))
def test_attacks_read_off_the_cards_equal_unit_stat_after_every_event(seed: int) -> None:
    pairs = preset_pairs(RULES)
    match, _ = play(RULES, seed, pairs[seed % len(pairs)])
    fold = record_evolve(RULES)
    state = RULES.decider.initial_state(match.header)
    for env in match.envelopes:
        state = fold(state, env.event)
        for seat in (1, 2):
            assert _attacks(state, seat) == attacks_from_scratch(state, seat), (env.seq, seat)
            # check_payment reads a seat's heights as tower_value reads each tower
            assert tower_heights(state, seat) == tuple(tower_value(state, seat, line) for line in range(1, LINES + 1))
            for line, unit in enumerate(state.side(seat).stage, 1):
                if unit is not None:
                    found = keywords(state, seat, line)
                    for pattern in PATTERNS + tuple(found):
                        assert has(state, seat, line, pattern) == any(keyword_matches(k, pattern) for k in found)


# the skills the rules ask about by name (exactly, or by a family with ``*``: W-2.6)
PATTERNS = ("防衛", "神速", "スペル破壊無効", "強襲*", "強襲:1", "貫通")
