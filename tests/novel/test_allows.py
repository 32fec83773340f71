"""``allows`` answers ``command in legal(state, seat)`` for one command without listing every
choice (``decide`` checks each revealed choice with it): on states from random and greedy matches,
sealed seats and finished matches included, it must agree with the plain ``legal`` on every choice
``legal`` offers either seat and on near misses of them (other cards, targets, face down or not),
and on what each seat may know of the state (``view.mask``: the other seat's unseen cards blank)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from kifu.domain.core.match import record_evolve
from kifu.domain.novel.cards import card, catalog
from kifu.domain.novel.commands import Act, Command, Done, Pick, Reveal
from kifu.domain.novel.decide import _unsealed
from kifu.domain.novel.legal import _legal, allows, can_pick, in_range, magic_targets, pick_options, skill_targets
from kifu.domain.novel.state import State
from kifu.domain.novel.view import mask
from kifu.tools.bench_work import play, preset_pairs

from .scenario import RULES

PAIRS = preset_pairs(RULES)
FOLD = record_evolve(RULES)


def states_of(seed: int, players: tuple[str, str]) -> Iterator[State]:
    """Every state of a bot match, event by event (sealed seats, half-resolved groups, the end)."""
    match, _ = play(RULES, seed, PAIRS[seed % len(PAIRS)], players=players)
    state = RULES.decider.initial_state(match.header)
    for env in match.envelopes:
        state = FOLD(state, env.event)
        yield state


def near_misses(state: State) -> Iterator[Command]:
    """Choices around the legal ones: every card id (and two out of range) with the targets a
    choice may name (none, either side's characters, the dead, one out of range), face down or not."""
    n = len(state.cards)
    targets = {0, n + 1, *state.field(1), *state.field(2)}
    targets |= {c.id for c in state.cards if c.zone == "grave"}
    yield Done()
    for cid in range(-1, n + 2):
        yield Pick(card=cid)
        yield Pick(card=cid, face_down=True)
        for t in targets:
            yield Pick(card=cid, target=t)
            yield Reveal(card=cid, target=t)
            yield Act(card=cid, target=t)
        yield Pick(card=cid, target=next(iter(targets - {0})), face_down=True)


@pytest.mark.parametrize(("seed", "players"), [(1, ("random", "random")), (2, ("greedy", "random")),
                                                (5, ("random", "greedy")), (11, ("random", "random"))])
def test_allows_agrees_with_legal(seed: int, players: tuple[str, str]) -> None:
    checked = 0
    for i, state in enumerate(states_of(seed, players)):
        offered = [*_legal(state, 1), *_legal(state, 2)]
        thorough = i % 7 == 0 or state.phase == "first"   # near misses on these: on the rest, what is offered
        for seat in (1, 2):
            for probe in (state, _unsealed(state, seat), mask(state, seat)):   # (greedy simulates on the mask)
                plain = _legal(probe, seat)
                for command in [*offered, *(near_misses(probe) if thorough else ())]:
                    assert allows(probe, seat, command) == (command in plain), (seat, command, probe)
                    checked += 1
    assert checked > 10_000


def test_allows_agrees_with_legal_in_every_first_phase() -> None:
    """The first phase's own limit (room left for a character, N-5.1) bites in few states: the
    first phases of many matches, every choice near the legal ones."""
    for seed in range(1, 61):
        for state in states_of(seed, ("random", "random")):
            if state.phase != "first":
                break
            for seat in (1, 2):
                plain = _legal(state, seat)
                for command in near_misses(state):
                    assert allows(state, seat, command) == (command in plain), (seed, seat, command)


@pytest.mark.parametrize("seed", [3, 4])
def test_can_pick_is_whether_there_is_a_pick(seed: int) -> None:
    """N-4.2's check at a turn's start asks only whether any Pick exists."""
    for state in states_of(seed, ("random", "random")):
        for seat in (1, 2):
            assert can_pick(state, seat) == bool(pick_options(state, seat))


@pytest.mark.parametrize("seed", [6, 7])
def test_skill_targets_are_those_in_range(seed: int) -> None:
    """N-7.2: ``skill_targets`` works each line out once; it must name exactly the characters of
    the side its skill reaches for that ``in_range`` (range ≥ distance, N-7.1) says it reaches."""
    for whole in states_of(seed, ("random", "random")):
        for state in (whole, mask(whole, 1)):
            check_targets(state)


def check_targets(state: State) -> None:
    for cid in state.field(1) + state.field(2):
        c = state.card(cid)
        action = card(c.name).action
        side = c.owner if action == "heal" else 3 - c.owner
        plain = [t for t in state.field(side) if in_range(state, cid, t)] if action else []
        assert skill_targets(state, cid) == plain, (cid, state)


@pytest.mark.parametrize("seed", [8, 9])
def test_a_revival_may_target_each_dead_character_of_its_seat(seed: int) -> None:
    """The dead are kept per card tuple: they must be the seat's characters in the graveyard, in id order."""
    revivals = [d for d in catalog().values() if d.target == "ally_dead"]
    assert revivals
    dead = 0
    for state in states_of(seed, ("random", "random")):
        for seat in (1, 2):
            plain = [c.id for c in state.cards
                     if c.owner == seat and c.zone == "grave" and card(c.name).kind == "character"]
            assert magic_targets(state, seat, revivals[0]) == plain
            dead += len(plain)
    assert dead
