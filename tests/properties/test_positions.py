"""Positions as text round trip: the judge's text of every state a random match reaches, and of
every state of corpus records, parses back to an equal state, for every ruleset (issue 25)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu.domain.core import position
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.ruleset import Ruleset, find_ruleset
from kifu.projections.recordfile import read_record

RULESETS = ("worlfard", "masters", "reigeki", "alteil", "novel")
REPLAYS = Path(__file__).resolve().parents[2] / "replays"
# whole matches are played per example: few examples, no deadline; a decision cap keeps each short
game = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_round_trip(ruleset: Ruleset[Any, Any, Any], state: Any, where: str) -> None:
    text = position.to_text(ruleset, state)
    assert text.startswith(position.version(ruleset) + " await:"), where
    back = position.parse(ruleset, text)
    assert back == state, f"{where}: the text parses to another state\n{text}"
    for seat in (1, 2):       # a seat's form writes, and never shows a value hidden from it
        assert position.to_text(ruleset, state, seat).startswith(position.version(ruleset)), where


def random_states(ruleset: Ruleset[Any, Any, Any], seed: int, decisions: int) -> list[Any]:
    presets = ruleset.content.presets()
    rng = random.Random(seed)
    decks = [ruleset.content.load_deck(rng.choice(presets)) for _ in (1, 2)]
    match = Match.create(ruleset, match_id=f"pos-{seed}", seed=seed, decks=decks, players=("a", "b"))
    states = [match.state]
    for _ in range(decisions):
        if match.outcome is not None:
            break
        seat = rng.choice(sorted(match.awaiting))
        match.submit(seat, rng.choice(ruleset.decider.legal(match.state, seat)))
        states.append(match.state)
    return states


@pytest.mark.parametrize("name", RULESETS)
@game
@given(seed=st.integers(0, 2**31))
def test_every_state_of_a_random_match_round_trips(name: str, seed: int) -> None:
    ruleset = find_ruleset(name)
    for i, state in enumerate(random_states(ruleset, seed, 150)):
        assert_round_trip(ruleset, state, f"{name} seed {seed}, decision {i}")


def corpus(name: str) -> list[Path]:
    files = sorted((REPLAYS / name).glob("*.kifu.jsonl"))
    bots = [f for f in files if f.name.startswith("bot-")]
    rulings = [f for f in files if not f.name.startswith("bot-")]
    return bots[:1] + rulings[:2]


@pytest.mark.parametrize("record", [pytest.param(f, id=f"{n}/{f.name}") for n in RULESETS for f in corpus(n)])
def test_every_state_of_corpus_records_round_trips(record: Path) -> None:
    found = read_record(record)
    evolve = record_evolve(found.ruleset)
    state = found.ruleset.decider.initial_state(found.header)
    for env in found.envelopes:
        state = evolve(state, env.event)
        assert_round_trip(found.ruleset, state, f"{record.name} #{env.seq}")
