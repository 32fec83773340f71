"""A ruleset may say which cards a seat may not see (``Visibility.hidden_cards``) instead of the
core working it out by walking the whole state against the mask: at every event of random
matches, for both seats, the hook must name exactly the cards the mask hides."""
from __future__ import annotations

from dataclasses import replace

import pytest

from kifu.domain.core.match import record_evolve
from kifu.domain.core.ruleset import find_ruleset, ruleset_names
from kifu.domain.core.visibility import hidden_cards
from kifu.tools.bench_work import play, preset_pairs

HOOKED = [n for n in ruleset_names() if find_ruleset(n).visibility.hidden_cards is not None]


def test_worlfard_declares_the_hook() -> None:
    assert "worlfard" in HOOKED


@pytest.mark.parametrize("name", HOOKED)
@pytest.mark.parametrize("seed", [3, 11])
def test_the_hook_names_what_the_mask_hides_at_every_event(name: str, seed: int) -> None:
    ruleset = find_ruleset(name)
    by_mask = replace(ruleset, visibility=replace(ruleset.visibility, hidden_cards=None))  # the core's default:
    #   derived from the mask
    pairs = preset_pairs(ruleset)
    match, _ = play(ruleset, seed, pairs[seed % len(pairs)])
    fold = record_evolve(ruleset)
    state = ruleset.decider.initial_state(match.header)
    hid_some = False
    for env in match.envelopes:
        state = fold(state, env.event)
        for seat in (1, 2):
            hook, derived = hidden_cards(ruleset, state, seat), hidden_cards(by_mask, state, seat)
            assert set(hook) == set(derived), (env.seq, seat, set(hook) ^ set(derived))
            hid_some = hid_some or bool(derived)
    assert hid_some     # the decks at least were hidden at some point: the comparison meant something
