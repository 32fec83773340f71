"""Bots: random plays every card; greedy beats random; every match ends by the rules."""
from __future__ import annotations

import pytest

from kifu.domain.core.driver import drive
from kifu.domain.core.match import Match

from .scenario import RULES

PRESETS = RULES.content.presets()


def _match(seed: int) -> Match:
    decks = [RULES.content.load_deck(PRESETS[seed % 4]), RULES.content.load_deck(PRESETS[(seed // 4) % 4])]
    return Match.create(RULES, match_id=f"b{seed}", seed=seed, decks=decks, players=("a", "b"))


def test_greedy_beats_random_on_a_few_seeds() -> None:
    wins = 0
    for seed in range(1, 9):
        m = _match(seed)
        greedy = 1 + seed % 2
        bots = {greedy: RULES.content.bots["greedy"](seed), 3 - greedy: RULES.content.bots["random"](seed)}
        drive(m, bots)
        assert m.outcome is not None
        wins += m.outcome.winner == greedy
    assert wins >= 6


@pytest.mark.slow
def test_greedy_beats_random_in_80_percent_of_200_seeds_and_every_card_is_played() -> None:
    wins, played = 0, set()
    for seed in range(1, 201):
        m = _match(seed)
        greedy = 1 + seed % 2
        drive(m, {greedy: RULES.content.bots["greedy"](seed), 3 - greedy: RULES.content.bots["random"](seed)})
        wins += m.outcome.winner == greedy
        played |= {RULES.presentation.played(m.state, env.event) for env in m.envelopes} - {None}
    assert wins >= 160
    assert played == {row.name for row in RULES.content.catalogue().rows}
