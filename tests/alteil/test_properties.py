"""Properties of alteil play, checked on random matches (hypothesis).

Random seeds and preset deck pairs; bots choose among ``legal``. Each example plays whole matches,
so examples are few by default (the ``slow`` variants run many); a failure shrinks to a seed and
deck pair that ``kifu`` can replay.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu.domain.alteil import commands as c
from kifu.domain.alteil import events as ev
from kifu.domain.alteil.state import State
from kifu.domain.alteil.vocabulary import SQUARES
from kifu.domain.core.driver import drive
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Illegal
from kifu.domain.core.layout import faces
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.record import decode_record, encode_record
from kifu.domain.core.roles import cards_named
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.core.visibility import redact

RULES = find_ruleset("alteil")
PRESETS = RULES.content.presets()
DECKS = {name: RULES.content.load_deck(name) for name in PRESETS}

seeds = st.integers(min_value=0, max_value=2**63 - 1)
deck_pairs = st.tuples(st.sampled_from(PRESETS), st.sampled_from(PRESETS))
few = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
many = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_match(seed: int, decks: tuple[str, str]) -> Match:
    return Match.create(RULES, match_id=f"prop-{seed}", seed=seed, decks=[DECKS[d] for d in decks],
                        players=("p1", "p2"))


def played(seed: int, decks: tuple[str, str], greedy: bool = False) -> Match:
    m = new_match(seed, decks)
    bots = RULES.content.bots
    drive(m, {1: bots["greedy" if greedy else "random"](seed), 2: bots["random"](seed ^ 0x5DEECE66D)})
    return m


def states(m: Match) -> Iterator[tuple[Envelope[Any], State]]:
    fold = record_evolve(RULES)
    state = RULES.decider.initial_state(m.header)
    for env in m.envelopes:
        state = fold(state, env.event)
        yield env, state


def zones(state: State, seat: int) -> list[int]:
    side = state.side(seat)
    return [*side.deck, *side.hand, *side.soul, *(x for x in side.squares if x), *(u.card for u in side.units),
            *side.influence, *side.senka, *side.cemetery]


# -- play ------------------------------------------------------------------------------------------
def _check_play(seed: int, decks: tuple[str, str], greedy: bool) -> None:
    m = played(seed, decks, greedy)
    assert m.outcome is not None and m.outcome.clause.startswith("A-1.")
    assert not m.awaiting


@few
@given(seed=seeds, decks=deck_pairs, greedy=st.booleans())
def test_random_legal_play_never_raises_and_ends_by_the_rules(seed: int, decks: tuple[str, str], greedy: bool) -> None:
    _check_play(seed, decks, greedy)


@pytest.mark.slow
@many
@given(seed=seeds, decks=deck_pairs, greedy=st.booleans())
def test_random_legal_play_never_raises_many(seed: int, decks: tuple[str, str], greedy: bool) -> None:
    _check_play(seed, decks, greedy)


# -- illegal commands ------------------------------------------------------------------------------
def _universe(state: State, draw: Any) -> Any:
    cards = [0, 1, 999, 3001] + [x for s in (1, 2) for x in zones(state, s)]
    card = st.sampled_from(cards)
    square = st.integers(min_value=-1, max_value=SQUARES + 1)
    return draw(st.one_of(
        st.builds(c.Mulligan, redraw=st.booleans()), st.builds(c.PlaceInfluence, card=card),
        st.just(c.NoInfluence()), st.just(c.EndInfluence()), st.builds(c.PlaceUnit, card=card, square=square),
        st.just(c.PassSet()), st.builds(c.UseGrimoire, card=card, target=card, discard=card), st.just(c.Pass()),
        st.builds(c.ChooseActor, card=card), st.builds(c.Wait, card=card), st.builds(c.Move, card=card, square=square),
        st.builds(c.UseSkill, card=card, target=card), st.builds(c.Attack, card=card, target=card),
        st.builds(c.AttackBattlefield, card=card, square=square), st.builds(c.DiscardForSoul, card=card),
        st.just(c.EndDiscards()), st.builds(c.DiscardToLimit, card=card)))


@few
@given(seed=seeds, decks=deck_pairs, data=st.data())
def test_a_random_illegal_command_is_refused_with_a_clause_and_changes_nothing(
        seed: int, decks: tuple[str, str], data: st.DataObject) -> None:
    _check_refusals(seed, decks, data)


@pytest.mark.slow
@many
@given(seed=seeds, decks=deck_pairs, data=st.data())
def test_a_random_illegal_command_is_refused_many(seed: int, decks: tuple[str, str], data: st.DataObject) -> None:
    _check_refusals(seed, decks, data)


def _check_refusals(seed: int, decks: tuple[str, str], data: st.DataObject) -> None:
    """Play a random number of legal decisions, then offer random commands for a while: each one
    that is not legal for that seat is refused naming a clause, and nothing changes."""
    m = new_match(seed, decks)
    bots = {1: RULES.content.bots["random"](seed), 2: RULES.content.bots["random"](seed + 1)}
    skip = data.draw(st.integers(min_value=0, max_value=400), label="decisions before probing")
    decided = probes = 0
    while m.outcome is None and probes < 40:
        seat = min(m.awaiting)
        legal = m.legal(seat)
        if decided >= skip:
            for who in (1, 2):
                command = _universe(m.state, data.draw)
                if who in m.awaiting and command in m.legal(who):
                    continue
                seq, state = m.seq, m.state
                with pytest.raises(Illegal) as refused:
                    m.submit(who, command)
                assert refused.value.clause.startswith(("A-", "K-")), refused.value
                assert m.seq == seq and m.state == state
                probes += 1
        m.submit(seat, bots[seat].choose(_seen(m, seat, legal)))
        decided += 1


def _seen(m: Match, seat: int, legal: list[Any]) -> Any:
    from kifu.domain.core.bot import Seen
    return Seen(seat, legal)


# -- conservation, fold, encoding ---------------------------------------------------------------------
@few
@given(seed=seeds, decks=deck_pairs)
def test_cards_are_conserved_across_zones(seed: int, decks: tuple[str, str]) -> None:
    m = played(seed, decks)
    for env, state in states(m):
        for seat in (1, 2):
            held = zones(state, seat)
            assert Counter(held) == Counter(range(seat * 1000 + 1, seat * 1000 + 52)), (env.seq, env.event)
            side = state.side(seat)
            assert not any(side.destroyed[u.square - 1] for u in side.units)          # A-Q10
            assert len({u.square for u in side.units}) == len(side.units)


@few
@given(seed=seeds, decks=deck_pairs)
def test_folding_the_record_reproduces_the_state_and_encoding_round_trips(seed: int, decks: tuple[str, str]) -> None:
    m = played(seed, decks, greedy=True)
    assert Match.fold(RULES, m.header, m.envelopes).state == m.state
    for _, state in states(m):
        assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state


def test_a_record_with_sealed_choices_reads_back() -> None:
    m = played(7, (PRESETS[0], PRESETS[1]))
    header, envelopes, _ = decode_record(encode_record(m.header, m.envelopes))
    assert envelopes == m.envelopes
    assert Match.fold(RULES, header, envelopes).state == m.state
    for env in m.envelopes:
        assert RULES.envelope_converter(msgspec.to_builtins(env)) == env


# -- hidden information ----------------------------------------------------------------------------
def _ids(obj: Any) -> set[int]:
    out: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, msgspec.Struct):
            if type(x).__name__ == "CardRef":
                out.add(x.id)
            for f in x.__struct_fields__:
                walk(getattr(x, f))
        elif isinstance(x, (tuple, list)):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for y in x.values():
                walk(y)

    walk(obj)
    return out


@few
@given(seed=seeds, decks=deck_pairs)
def test_a_seat_never_sees_a_card_it_may_not_see(seed: int, decks: tuple[str, str]) -> None:
    """Every card id in a seat's redacted events, view, layout and masked state is one it has
    legitimately seen by the end of that decision: its own hand, the public zones (units,
    influence, 戦禍, cemetery) and destroyed battlefield cards (shown to both, A-6.5)."""
    m = played(seed, decks)
    known: dict[int, set[int]] = {1: {0}, 2: {0}}
    group: list[Envelope[Any]] = []
    decisions = 0

    def flush(state: State) -> None:
        nonlocal decisions
        public: set[int] = {u.card for s in state.sides for u in s.units}
        for s in state.sides:
            public |= {*s.influence, *s.senka, *s.cemetery}
        for env in group:
            if isinstance(env.event, ev.BattlefieldDestroyed):
                public.add(env.event.card)
        for seat in (1, 2):
            known[seat] |= public | set(state.side(seat).hand)
            for env in group:
                seen = redact(RULES, env, seat)
                assert set(cards_named(seen.event)) <= known[seat], (seat, env.seq, seen.event)
        decisions += 1
        if decisions % 5 == 0:
            for seat in (1, 2):
                v = RULES.decider.view(state, seat)
                assert _ids(v) <= known[seat], (seat, group[-1].seq)
                assert {f.id for _, f in faces(RULES.presentation.layout(v))} <= known[seat]
                masked = RULES.visibility.mask(state, seat)
                assert set(zones(masked, seat)) - {0} <= known[seat]
                assert set(zones(masked, 3 - seat)) - {0} <= known[seat]
        group.clear()

    previous: State | None = None
    for env, state in states(m):
        if env.kind == "decision" and group and previous is not None:
            flush(previous)
        group.append(env)
        previous = state
    assert previous is not None
    flush(previous)


@pytest.mark.slow
def test_greedy_beats_random_in_at_least_80_percent_over_200_seeds() -> None:
    wins = 0
    for seed in range(1, 201):
        decks = (PRESETS[seed % 4], PRESETS[(seed // 4) % 4])
        m = new_match(seed, decks)
        greedy_seat = 1 + seed % 2
        made = RULES.content.bots
        bots = {greedy_seat: made["greedy"](seed), 3 - greedy_seat: made["random"](seed + 7)}
        drive(m, bots)
        assert m.outcome is not None and m.outcome.clause.startswith("A-1.")
        wins += m.outcome.winner == greedy_seat
    assert wins >= 160, wins
