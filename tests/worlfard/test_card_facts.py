"""``card_facts``: what the decision lists read off a card, kept per printed card and per match,
must say what the card definition says when read from scratch."""
from __future__ import annotations

import msgspec
from scenario import Position

from kifu.domain.worlfard.card_facts import card_facts, extra_cost, match_facts, targeting_skill
from kifu.domain.worlfard.cards import catalog, definition
from kifu.domain.worlfard.spells import on_own_spot


def test_every_cards_facts_are_its_definitions() -> None:
    names = tuple(sorted(catalog()))
    state = msgspec.structs.replace(Position().state, names=(names, names))
    table = match_facts(state.names)
    assert sorted(table) == sorted(seat * 1000 + i for seat in (1, 2) for i in range(len(names)))
    for card, facts in table.items():
        d = definition(state, card)
        assert facts.card_def is d and card_facts(state, card) is facts
        assert facts.unit == d.is_unit and facts.short == (d.type == "SS")
        assert facts.lv == d.lv and facts.elements == set(d.elements)
        assert facts.aim is targeting_skill(d) and facts.extra == extra_cost(d)
        assert facts.places_spell == (facts.aim is not None and on_own_spot(facts.aim, 3, 13))
        assert facts.activated == tuple((i, s) for i, s in enumerate(d.skill) if s.mark == "!")


def test_a_match_seen_again_keeps_its_table_and_another_match_gets_its_own() -> None:
    one, two = Position().state, msgspec.structs.replace(Position().state, names=Position().state.names[::-1])
    first = match_facts(one.names)
    assert match_facts(two.names) is not first and match_facts(two.names)[1000].card_def is definition(two, 1000)
    assert match_facts(one.names) is first
