"""Properties of masters play, checked on random matches (hypothesis).

Random seeds and random preset pairs; random bots choose among ``legal``. Whole matches are
played per example, so examples are few and the deadline is off; the ``slow`` variants run
many more.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Illegal, KifuError
from kifu.domain.core.layout import faces
from kifu.domain.core.match import Match
from kifu.domain.core.roles import HIDDEN, cards_named
from kifu.domain.masters import commands as c
from kifu.domain.masters import events as ev
from kifu.domain.masters.board import SQUARES, name
from kifu.domain.masters.decks import preset, preset_names
from kifu.domain.masters.state import State

from .scenario import RULESET

PRESETS = preset_names()
DECKS = {name: preset(name) for name in PRESETS}
seeds = st.integers(min_value=0, max_value=2**63 - 1)
deck_pairs = st.tuples(st.sampled_from(PRESETS), st.sampled_from(PRESETS))
game = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
many = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_match(seed: int, decks: tuple[str, str]) -> Match:
    return Match.create(RULESET, match_id=f"prop-{seed}", seed=seed, decks=[DECKS[d] for d in decks],
                        players=("p1", "p2"))


def play(match: Match, seed: int, limit: int = 20_000) -> Iterator[tuple[int, list[Envelope[Any]]]]:
    rnd = random.Random(seed)
    for _ in range(limit):
        if match.outcome is not None:
            return
        (seat,) = match.awaiting
        legal = match.legal(seat)
        assert legal, f"seat {seat} is awaited but has no legal decision at seq {match.seq}"
        yield seat, match.submit(seat, rnd.choice(legal))
    raise AssertionError("no outcome")


def hidden_from(state: State, seat: int) -> set[int]:
    """Cards ``seat`` may not see in ``state``: both decks, the other hand, face-down mana."""
    out: set[int] = set()
    for s in (1, 2):
        side = state.side(s)
        out.update(side.deck)
        out.update(m.card for m in side.mana if not m.face_up)
        if s != seat:
            out.update(side.hand)
    return out


def zones(state: State, seat: int) -> list[int]:
    side = state.side(seat)
    return (list(side.deck) + list(side.hand) + list(side.grave) + [m.card for m in side.mana]
            + [p.card for p in state.pieces if p.seat == seat]
            + [i.card for i in state.stack if i.kind == "spell" and i.seat == seat])


def _random_legal_play(seed: int, decks: tuple[str, str]) -> None:
    match = new_match(seed, decks)
    for _, envs in play(match, seed):
        assert envs[0].kind == "decision" and all(e.kind == "rule" for e in envs[1:])
        assert all(e.cause is not None and e.cause < e.seq and e.clause for e in envs[1:])
    assert match.outcome is not None and match.outcome.clause == "M-1.2"
    ended = [e for e in match.envelopes if isinstance(e.event, ev.MatchEnded)]
    assert len(ended) == 1 and ended[0].clause == "M-1.2"
    assert match.awaiting == frozenset() and match.legal(1) == match.legal(2) == []


@settings(game)
@given(seed=seeds, decks=deck_pairs)
def test_random_legal_play_never_raises_and_ends_by_the_rules(seed, decks):
    _random_legal_play(seed, decks)


@pytest.mark.slow
@settings(many)
@given(seed=seeds, decks=deck_pairs)
def test_random_legal_play_never_raises_many(seed, decks):
    _random_legal_play(seed, decks)


def _commands(state: State) -> st.SearchStrategy[Any]:
    known = sorted({x for s in state.sides for x in s.hand + s.deck[:3]} | {p.card for p in state.pieces})
    cards = st.sampled_from(known) | st.integers(-3, 300)
    squares = st.sampled_from([name(x) for x in SQUARES]) | st.text(max_size=3)
    return st.one_of(
        st.just(c.Mulligan()), st.just(c.Keep()), st.builds(c.Bottom, card=cards), st.just(c.Draw()),
        st.just(c.Charge()), st.builds(c.ChargePiece, card=cards), st.builds(c.MoveMaster, to=squares),
        st.builds(c.Summon, card=cards, square=squares), st.builds(c.Cast, card=cards, target=squares),
        st.builds(c.Activate, card=cards, target=squares), st.just(c.Pass()),
        st.builds(c.Discard, card=cards),
        st.builds(c.Move, piece=cards, path=st.lists(squares, max_size=4).map(tuple)))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, decks=deck_pairs, steps=st.integers(0, 400), data=st.data())
def test_an_illegal_command_is_rejected_with_a_clause_and_changes_nothing(seed, decks, steps, data):
    match = new_match(seed, decks)
    for i, _ in enumerate(play(match, seed)):
        if i >= steps:
            break
    if match.outcome is not None:
        return
    seat = data.draw(st.sampled_from((1, 2)))
    command = data.draw(_commands(match.state))
    if seat in match.awaiting and command in match.legal(seat):
        return
    if isinstance(command, c.Move) and seat in match.awaiting and _same_move(command, match.legal(seat)):
        return            # another path to the same square from the same approach: the same decision
    before = (match.state, match.seq)
    try:
        match.submit(seat, command)
    except Illegal as exc:
        assert exc.clause.startswith("M-"), exc
    except KifuError:
        pass
    else:
        raise AssertionError(f"{command!r} is not in legal() but was accepted")
    assert (match.state, match.seq) == before


def _same_move(command: c.Move, legal: list[Any]) -> bool:
    def key(m: c.Move) -> tuple[int, int, int]:
        return m.piece, m.path[-1] if m.path else 0, m.path[-2] if len(m.path) > 1 else 0
    return any(isinstance(x, c.Move) and key(x) == key(command) and len(x.path) <= len(command.path)
               for x in legal) and bool(command.path)


@settings(game)
@given(seed=seeds, decks=deck_pairs)
def test_cards_are_conserved_and_the_fold_reproduces_the_state(seed, decks):
    match = new_match(seed, decks)
    for _ in play(match, seed):
        for s in (1, 2):
            ids = zones(match.state, s)
            assert Counter(ids) == Counter(range(s * 100, s * 100 + 40)), f"seat {s} at seq {match.seq}"
    folded = Match.fold(RULESET, match.header, match.envelopes)
    assert folded.state == match.state
    data = msgspec.json.encode(match.state)
    assert msgspec.json.decode(data, type=State) == match.state


@settings(game)
@given(seed=seeds, decks=deck_pairs)
def test_a_seats_view_layout_and_events_show_no_card_it_may_not_see(seed, decks):
    match = new_match(seed, decks)
    state = match.state
    decisions = 0
    for _, envs in play(match, seed):
        decisions += 1
        for env in envs:
            before, state = state, RULESET.decider.evolve(state, env.event)
            for seat in (1, 2):
                shown = RULESET.visibility.redact(env, seat)
                named = [x for x in cards_named(shown.event) if x != HIDDEN]
                leaked = set(named) & hidden_from(before, seat) & hidden_from(state, seat)
                assert not leaked, (seat, env)
        if decisions % 5:
            continue
        for seat in (1, 2):
            v = RULESET.decider.view(match.state, seat)
            secret = hidden_from(match.state, seat)
            raw = msgspec.to_builtins(v)
            seen = set(_ids(raw))
            assert not (seen & secret), (seat, seen & secret)
            lay = RULESET.presentation.layout(v)
            assert not ({f.id for _, f in faces(lay)} & secret)


def _ids(obj: Any) -> Iterator[int]:
    if isinstance(obj, dict):
        if "id" in obj and "name" in obj and isinstance(obj["id"], int):
            yield obj["id"]
        for v in obj.values():
            yield from _ids(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _ids(v)
