"""The bots: random plays every card, greedy beats random, every match ends by the rules."""
from __future__ import annotations

import pytest

from kifu.domain.core.driver import drive
from kifu.domain.core.match import Match

from .scenario import RULESET

PRESETS = RULESET.content.presets()


def play(seed: int, p1: str, p2: str) -> Match:
    m = Match.create(RULESET, match_id=f"bots-{seed}", seed=seed, players=("a", "b"),
                     decks=[RULESET.content.load_deck(PRESETS[seed % 4]),
                            RULESET.content.load_deck(PRESETS[(seed // 4) % 4])])
    drive(m, {1: RULESET.content.bots[p1](seed), 2: RULESET.content.bots[p2](seed + 7)})
    return m


def _greedy_vs_random(seeds: range) -> tuple[int, set[str]]:
    wins, played = 0, set()
    for seed in seeds:
        for greedy_seat in (1, 2):
            m = play(seed, *(("greedy", "random") if greedy_seat == 1 else ("random", "greedy")))
            assert m.outcome is not None and m.outcome.clause == "M-1.2"
            wins += m.outcome.winner == greedy_seat
            fold = RULESET.decider.initial_state(m.header)
            for env in m.envelopes:
                name = RULESET.presentation.played(fold, env.event)
                if name:
                    played.add(name)
                ours = type(env.event).__module__.startswith("kifu.domain.masters")
                fold = RULESET.decider.evolve(fold, env.event) if ours else fold
    return wins, played


def test_greedy_beats_random_in_most_matches():
    wins, _ = _greedy_vs_random(range(1, 6))
    assert wins >= 8, f"greedy won {wins} of 10"


@pytest.mark.slow
def test_greedy_beats_random_in_80_percent_over_200_seeds_and_every_card_is_played():
    wins, played = _greedy_vs_random(range(1, 101))
    assert wins >= 160, f"greedy won {wins} of 200"
    assert played == {row.name for row in RULESET.content.catalogue().rows}


def test_the_random_bot_draws_as_rng_choice_does():
    """RandomBot indexes with ``rng.below`` (``rng.choice`` without its call), and ``below(1)`` only
    steps the generator (its one draw is always accepted): the same picks and the same generator
    state after each as ``Rng.choice`` over the full draw."""
    from kifu.domain.core.bot import Seen
    from kifu.domain.core.rng import Rng
    from kifu.domain.masters.bots import RandomBot

    bot, reference, lengths = RandomBot(12345), Rng(12345), Rng(99)
    for _ in range(2000):
        items = list(range(1 + lengths.below(3) * lengths.below(5)))     # many of length 1
        limit = (1 << 64) - ((1 << 64) % len(items))                      # below(), each draw computed
        while (x := reference.next_u64()) >= limit:
            pass
        assert bot.choose(Seen(1, items)) == items[x % len(items)]
        assert bot.rng.next_u64() == reference.next_u64()                 # the generators stay in step
