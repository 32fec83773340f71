"""Properties of novel play, checked on random matches (hypothesis).

Random seeds and preset deck pairs; random bots choose among ``legal`` (always through the core's
sealed path: ChoiceSealed, then ChoiceRevealed and the ruleset's decide). Whole matches are
played per example, so examples are few and the deadline is off.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu.domain.core.commit import ChoiceRevealed, ChoiceSealed
from kifu.domain.core.errors import Illegal
from kifu.domain.core.layout import faces
from kifu.domain.core.match import Match
from kifu.domain.core.roles import cards_named
from kifu.domain.novel import events as ev
from kifu.domain.novel.commands import Act, Command, Done, Pick, Reveal
from kifu.domain.novel.state import ZONES, State

from .scenario import RULES

PRESETS = RULES.content.presets()
DECKS = {name: RULES.content.load_deck(name) for name in PRESETS}
MAX_DECISIONS = 20_000


def _command(choice):  # type: ignore[no-untyped-def]
    return msgspec.convert(choice, Command)

seeds = st.integers(min_value=0, max_value=2**63 - 1)
deck_pairs = st.tuples(st.sampled_from(PRESETS), st.sampled_from(PRESETS))
game = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_match(seed: int, decks: tuple[str, str]) -> Match:
    return Match.create(RULES, match_id=f"prop-{seed}", seed=seed, decks=[DECKS[d] for d in decks],
                        players=("p1", "p2"))


def play(match: Match, seed: int) -> Iterator[tuple[int, list[Any]]]:
    """Random legal play; yields (seat, envelopes) after every decision."""
    rnd = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if match.outcome is not None:
            return
        awaited = sorted(match.awaiting)
        assert awaited, f"nobody awaited at seq {match.seq}"
        seat = rnd.choice(awaited)        # either seat may land first: the order of sealed choices is free
        legal = match.legal(seat)
        assert legal, f"seat {seat} awaited without a legal choice at seq {match.seq}"
        yield seat, match.submit(seat, rnd.choice(legal))
    raise AssertionError("no outcome")


def hidden_from(state: State, seat: int) -> set[int]:
    """Cards ``seat`` may not see: the other seat's deck (its pending picks among them) and face-down magic."""
    other = 3 - seat
    return {c.id for c in state.cards if c.owner == other and (c.zone == "deck" or (c.zone == "magic" and c.face_down))}


def ids_in(obj: Any) -> set[int]:
    """Every card id a view holds (CardView ids) or an event names (its card-role fields)."""
    out: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("id", "card", "target") and isinstance(v, int) and not isinstance(v, bool):
                    out.add(v)
                elif k == "cards" and isinstance(v, list):
                    out.update(i for i in v if isinstance(i, int))
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(msgspec.to_builtins(obj))
    return out


def event_ids(envelope: Any) -> set[int]:
    e = envelope.event
    if isinstance(e, (ChoiceSealed, ChoiceRevealed)):
        return set() if e.choice is None else set(cards_named(_command(e.choice)))
    return set(cards_named(e))


# -- random legal play ------------------------------------------------------------------------------
@game
@given(seed=seeds, decks=deck_pairs)
def test_random_legal_play_never_raises_and_ends_by_the_rules(seed, decks):
    match = new_match(seed, decks)
    for _seat, envs in play(match, seed):
        assert envs[0].kind == "decision" and isinstance(envs[0].event, ChoiceSealed)
        assert (all(e.kind == "rule" for e in envs[1:])
                and all(e.cause is not None and e.cause < e.seq for e in envs[1:]))
    outcome = match.outcome
    assert outcome is not None and outcome.clause in ("N-4.1", "N-4.2", "N-4.3")
    assert len([e for e in match.envelopes if isinstance(e.event, ev.MatchEnded)]) == 1
    assert match.awaiting == frozenset() and match.legal(1) == match.legal(2) == []


# -- illegal commands change nothing ----------------------------------------------------------------
def _commands(n: int) -> st.SearchStrategy[Any]:
    cards = st.integers(-2, n + 2)
    return st.one_of(st.builds(Pick, card=cards, target=cards, face_down=st.booleans()),
                     st.builds(Reveal, card=cards, target=cards), st.just(Done()),
                     st.builds(Act, card=cards, target=cards))


@game
@given(seed=seeds, decks=deck_pairs, data=st.data())
def test_an_illegal_command_is_rejected_with_a_clause_and_changes_nothing(seed, decks, data):
    match = new_match(seed, decks)
    rnd = random.Random(seed)
    tried = 0
    for _ in play(match, seed):
        if match.outcome is not None or rnd.random() > 0.2:
            continue
        seat = data.draw(st.sampled_from([1, 2]))
        cmd = data.draw(_commands(len(match.state.cards)))
        if seat in match.awaiting and cmd in match.legal(seat):
            continue
        before, seq = match.state, match.seq
        with pytest.raises(Illegal) as err:
            match.submit(seat, cmd)
        assert err.value.clause
        assert match.state == before and match.seq == seq
        tried += 1
        if tried > 20:
            break


# -- conservation, fold, encoding -------------------------------------------------------------------
def _conserved(state: State) -> None:
    for c in state.cards:
        assert c.zone in ZONES
    for side in state.sides:
        for cid in side.front:
            assert state.card(cid).zone == "front" and state.card(cid).owner == side.seat
        for cid in side.back:
            assert state.card(cid).zone == "back" and state.card(cid).owner == side.seat
        for cid in side.magic:
            assert state.card(cid).zone == "magic"
        on_field = [c.id for c in state.cards if c.owner == side.seat and c.zone in ("front", "back", "magic")]
        assert sorted(on_field) == sorted(side.front + side.back + side.magic)
        assert len(side.front) <= 3 and len(side.back) <= 3 and len(side.magic) <= 3
        assert side.back == () or side.front != () or state.phase != "select"


@game
@given(seed=seeds, decks=deck_pairs)
def test_cards_are_conserved_fold_reproduces_and_encoding_round_trips(seed, decks):
    match = new_match(seed, decks)
    n = len(match.state.cards)
    for _ in play(match, seed):
        assert len(match.state.cards) == n
        _conserved(match.state)
    assert Match.fold(RULES, match.header, match.envelopes).state == match.state
    raw = msgspec.json.encode(match.state)
    assert msgspec.json.decode(raw, type=State) == match.state


# -- hidden information ---------------------------------------------------------------------------
@game
@given(seed=seeds, decks=deck_pairs)
def test_views_layouts_and_redacted_events_leak_nothing(seed, decks):
    match = new_match(seed, decks)
    seen_upto = {1: 0, 2: 0}
    streams: dict[int, set[int]] = {1: set(), 2: set()}
    for _ in play(match, seed):
        state = match.state
        for seat in (1, 2):
            secret = hidden_from(state, seat)
            for env in match.envelopes[seen_upto[seat]:]:
                streams[seat] |= event_ids(RULES.visibility.redact(env, seat))
            seen_upto[seat] = len(match.envelopes)
            v = RULES.decider.view(state, seat)
            lay = RULES.presentation.layout(v)
            assert not (ids_in(v) & secret)
            assert not ({f.id for _, f in faces(lay)} & secret)
            assert not (streams[seat] & secret), "an event showed a card the seat may not see"


@game
@given(seed=seeds, decks=deck_pairs)
def test_select_phase_never_shows_the_opponents_pending_choice(seed, decks):
    match = new_match(seed, decks)
    for _ in play(match, seed):
        state = match.state
        if state.phase not in ("first", "select") or state.ended is not None:
            continue
        for seat in (1, 2):
            other = state.side(3 - seat)
            pending = {p.card for p in other.picks} | {r.card for r in other.reveals}
            v = RULES.decider.view(state, seat)
            theirs = v.sides[other.seat - 1]
            assert theirs.picks == () and theirs.reveals == () and theirs.chosen == () and theirs.spent == 0
            assert theirs.status in ("choosing", "chosen", "done")
            lay = RULES.presentation.layout(v)
            assert not ({f.id for _, f in faces(lay)} & pending)
            assert not (ids_in(v) & pending)
            for env in match.envelopes:
                seen = RULES.visibility.redact(env, seat)
                e = seen.event
                if isinstance(e, ChoiceSealed) and e.seat != seat:
                    assert e.choice is None and e.salt is None
                if isinstance(e, ChoiceRevealed) and e.seat != seat:
                    assert e.choice is None or isinstance(_command(e.choice), Act)
                if isinstance(e, (ev.Picked, ev.RevealChosen)) and e.seat != seat:
                    assert e.card == 0 and e.target == 0
                assert not (event_ids(seen) & pending)


@game
@given(seed=seeds, decks=deck_pairs)
def test_the_judge_can_check_every_commitment(seed, decks):
    """K-seal / K-reveal: every reveal opens the commitment it cites; a forged reveal is caught."""
    from kifu.domain.core.record import first_broken_seal

    match = new_match(seed, decks)
    for _ in play(match, seed):
        pass
    assert first_broken_seal(match.header, match.envelopes) is None
    reveals = [i for i, e in enumerate(match.envelopes) if isinstance(e.event, ChoiceRevealed)]
    assert reveals
    i = reveals[len(reveals) // 2]
    forged = list(match.envelopes)
    e = forged[i].event
    forged[i] = msgspec.structs.replace(forged[i], event=ChoiceRevealed(seat=e.seat, choice={"type": "Done"},
                                                                         salt=e.salt))
    if e.choice != {"type": "Done"}:
        assert first_broken_seal(match.header, forged) is not None


@game
@given(seed=seeds, decks=deck_pairs)
def test_a_seats_redacted_stream_folds_without_error(seed, decks):
    """A client may fold what it was sent: hidden picks and face-down cards (id 0) touch no card."""
    match = new_match(seed, decks)
    for _ in play(match, seed):
        pass
    for seat in (1, 2):
        seen = [RULES.visibility.redact(env, seat) for env in match.envelopes]
        folded = Match.fold(RULES, match.header, seen).state
        assert folded.ended == match.state.ended
        mine = RULES.decider.view(folded, seat).sides[seat - 1]
        assert mine == RULES.decider.view(match.state, seat).sides[seat - 1]


@game
@given(seed=seeds, decks=deck_pairs)
def test_the_masked_position_names_no_card_the_seat_has_not_seen(seed, decks):
    """``mask`` (bots' position, a seat's prepared position): ids follow the public deck lists, so
    an unseen card must be blank and a face-down slot must not keep its real id."""
    match = new_match(seed, decks)
    for _ in play(match, seed):
        state = match.state
        for seat in (1, 2):
            masked = RULES.visibility.mask(state, seat)
            secret = hidden_from(state, seat)
            for cid in secret:
                c = masked.card(cid)
                assert c.name == "" and c.hp == c.atk == c.max_hp == 0 and c.target == 0
            down = [cid for cid in masked.side(3 - seat).magic if masked.card(cid).face_down]
            assert down == sorted(secret)[:len(down)]
            assert masked.side(3 - seat).picks == ()
