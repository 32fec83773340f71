"""Self-play figures the ruleset promises: greedy beats random, every match ends by the rules,
every card gets played; and the regression corpus regenerates byte for byte."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kifu.domain.core.driver import drive
from kifu.domain.core.match import Match
from kifu.domain.novel.cards import catalog

from .scenario import RULES

ROOT = Path(__file__).resolve().parents[2]


def _match(seed: int, p1: str, p2: str) -> Match:
    presets = RULES.content.presets()
    d1, d2 = presets[seed % 4], presets[(seed // 4) % 4]
    m = Match.create(RULES, match_id=f"sp{seed}", seed=seed,
                     decks=[RULES.content.load_deck(d1), RULES.content.load_deck(d2)], players=(p1, p2))
    drive(m, {1: RULES.content.bots[p1](seed), 2: RULES.content.bots[p2](seed + 7919)})
    return m


def test_greedy_beats_random_on_a_few_seeds_and_matches_end_by_the_rules():
    wins = 0
    for seed in range(1, 21):
        m = _match(seed, "greedy", "random")
        assert m.outcome is not None and m.outcome.clause in ("N-4.1", "N-4.2", "N-4.3")
        wins += m.outcome.winner == 1
    assert wins >= 14


@pytest.mark.slow
def test_greedy_beats_random_in_80_percent_of_200_seeds_and_every_card_is_played():
    wins, played = 0, set()
    for seed in range(1, 201):
        m = _match(seed, "greedy", "random")
        assert m.outcome is not None and m.outcome.clause in ("N-4.1", "N-4.2", "N-4.3")
        wins += m.outcome.winner == 1
        state = RULES.decider.initial_state(m.header)
        for env in m.envelopes:
            name = RULES.presentation.played(state, env.event)
            if name:
                played.add(name)
    assert wins >= 160, wins
    assert played == set(catalog())


def test_the_corpus_regenerates_unchanged():
    done = subprocess.run([sys.executable, "replays/novel/make.py", "--check"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_long_match_position_plays_by_the_rules():
    decks, start = RULES.bench.long_match(1)
    m = Match.create(RULES, match_id="long", seed=1, decks=decks, players=("a", "b"), start=start)
    bots = {1: RULES.content.bots["random"](1), 2: RULES.content.bots["random"](2)}
    drive(m, bots, until=lambda: m.seq >= 1500)
    assert m.seq >= 1500 and m.outcome is None and m.state.turn > 5
