"""Properties of random legal play: it never raises, illegal commands change nothing, cards are
conserved, folding reproduces the state, the state round-trips, and no seat sees a hidden card."""
from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu.domain.core.errors import Illegal, KifuError
from kifu.domain.core.layout import Grid, Zone
from kifu.domain.core.match import Match
from kifu.domain.core.rng import Rng
from kifu.domain.core.roles import cards_named
from kifu.domain.reigeki import commands as c
from kifu.domain.reigeki.state import State

from .scenario import RULES

PRESETS = RULES.content.presets()


def _played(seed: int, decisions: int) -> Match:
    rng = Rng(seed)
    decks = [RULES.content.load_deck(PRESETS[rng.below(len(PRESETS))]) for _ in range(2)]
    m = Match.create(RULES, match_id=f"p{seed}", seed=seed, decks=decks, players=("a", "b"))
    bots = {1: RULES.content.bots["random"](seed), 2: RULES.content.bots["random"](seed + 1)}
    from kifu.domain.core.driver import seen_by
    for _ in range(decisions):
        if m.outcome is not None:
            break
        seat = min(m.awaiting)
        m.submit(seat, bots[seat].choose(seen_by(m, seat)))
    return m


def _all_cards(state: State, seat: int) -> list[int]:
    side = state.side(seat)
    out = list(side.deck + side.hand + side.discard + side.exdeck + side.exdiscard + side.reiryoku + side.damage)
    for unit in side.stage:
        if unit is not None:
            out.append(unit.card)
            if unit.under:
                out.append(unit.under)
    return out


def _visible(state: State, seat: int) -> set[int]:
    """The ids ``seat`` may know: its hand and 霊力, every public zone and the stage."""
    out: set[int] = {0}
    for s in (1, 2):
        side = state.side(s)
        out |= set(side.discard + side.exdiscard + side.damage)
        out |= {u.card for u in side.stage if u is not None} | {u.under for u in side.stage if u is not None}
        out |= {r for r in side.reiryoku if state.side(s).keys[r % 100] == "霊撃"}
    mine = state.side(seat)
    return out | set(mine.hand) | set(mine.reiryoku)


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(1, 10_000), decisions=st.integers(0, 400))
def test_random_legal_play_never_raises_and_conserves_cards(seed: int, decisions: int) -> None:
    m = _played(seed, decisions)
    for seat in (1, 2):
        cards = _all_cards(m.state, seat)
        assert len(cards) == len(set(cards)) == 71
    assert Match.fold(RULES, m.header, m.envelopes).state == m.state
    raw = msgspec.json.encode(m.state)
    assert msgspec.json.decode(raw, type=State) == m.state


COMMANDS = st.one_of(
    st.builds(c.Mulligan, redraw=st.booleans()),
    st.builds(c.Move, source=st.integers(0, 7), to=st.integers(0, 7)),
    st.builds(c.Play, card=st.integers(0, 180), place=st.integers(0, 7)),
    st.builds(c.Cast, card=st.integers(0, 180), pay=st.lists(st.integers(0, 180), max_size=4).map(tuple),
              flip=st.integers(0, 180), target_seat=st.integers(0, 2), target=st.integers(0, 7), to=st.integers(0, 7)),
    st.builds(c.Attack, attacker=st.integers(0, 7), target=st.integers(0, 7)),
    st.builds(c.Guard, card=st.integers(0, 180)),
    st.builds(c.GuardWith, place=st.integers(0, 7)),
    st.builds(c.Discard, card=st.integers(0, 180)),
    st.just(c.Proceed()),
)


@SETTINGS
@given(seed=st.integers(1, 10_000), decisions=st.integers(0, 300), command=COMMANDS, seat=st.sampled_from([1, 2]))
def test_illegal_commands_are_refused_with_a_clause_and_change_nothing(seed: int, decisions: int, command: Any,
                                                                       seat: int) -> None:
    m = _played(seed, decisions)
    if m.outcome is not None:
        return
    before, seq = m.state, m.seq
    legal = m.legal(seat)
    try:
        m.submit(seat, command)
    except Illegal as exc:
        assert exc.clause.startswith("R-") and m.state == before and m.seq == seq
        return
    except KifuError:
        assert m.state == before
        return
    assert seat in RULES.decider.awaiting(before)
    assert m.seq > seq
    _ = legal


@SETTINGS
@given(seed=st.integers(1, 10_000), decisions=st.integers(0, 400))
def test_a_seat_never_sees_a_card_it_may_not(seed: int, decisions: int) -> None:
    m = _played(seed, decisions)
    for seat in (1, 2):
        allowed = _visible(m.state, seat)
        layout = RULES.presentation.layout(RULES.decider.view(m.state, seat))
        for panel in layout.seats:
            for part in panel.parts:
                faces = part.cards if isinstance(part, Zone) else \
                    [f for cell in part.cells for f in cell.cards] if isinstance(part, Grid) else []
                for face in faces:
                    assert face.id in allowed, (seat, part, face)
        view_ids = {card.id for sv in RULES.decider.view(m.state, seat).seats
                    for zone in (sv.hand, sv.discard, sv.exdiscard, sv.reiryoku, sv.damage) for card in zone}
        assert view_ids <= allowed
        masked = RULES.visibility.mask(m.state, seat)
        other = masked.side(3 - seat)
        assert set(other.hand) <= {0} and set(masked.side(seat).deck) <= {0}
        # every event as this seat sees it names only cards it saw at that moment (a drawn card of the
        # opponent, a face-down charge and any deck order are hidden)
        state = Match.empty(RULES, m.header).state
        from kifu.domain.core.match import record_evolve
        fold = record_evolve(RULES)
        for env in m.envelopes:
            seen = RULES.visibility.redact(env, seat)
            known = _visible(state, seat)
            state = fold(state, env.event)
            known |= _visible(state, seat)
            for card in cards_named(seen.event):
                assert card in known or card == 0, (seat, env)


@pytest.mark.slow
def test_many_random_matches_end_by_the_rules() -> None:
    from kifu.domain.core.driver import drive
    for seed in range(1, 60):
        m = _played(seed, 0)
        drive(m, {1: RULES.content.bots["random"](seed), 2: RULES.content.bots["random"](seed + 7)})
        assert m.outcome is not None


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 1_000_000), decisions=st.integers(0, 1500))
def test_long_random_play_conserves_cards_and_folds(seed: int, decisions: int) -> None:
    m = _played(seed, decisions)
    for seat in (1, 2):
        assert len(set(_all_cards(m.state, seat))) == 71
    assert Match.fold(RULES, m.header, m.envelopes).state == m.state


@SETTINGS
@given(seed=st.integers(1, 10_000), decisions=st.integers(0, 400))
def test_every_legal_decision_is_accepted(seed: int, decisions: int) -> None:
    from kifu.domain.core.draft import Draft
    from kifu.domain.reigeki.decide import decide
    from kifu.domain.reigeki.evolve import evolve
    m = _played(seed, decisions)
    for seat in sorted(m.awaiting):
        for command in m.legal(seat):
            decide(m.state, seat, command, Draft(m.state, m.seq + 1, Rng(seed), evolve))
