"""The fold and the rules' small shortcuts against their from-scratch forms, on random matches.

The fold (evolve.py) shares frozen priorities, replaces only the changed side or piece, and lets
untap and end of turn rebuild nothing when nothing changes; ``parse`` reads the board's names
from a table; ``occupied`` builds its dict in one go; ``awaiting`` tests the usual case first;
``decide`` asks ``settle`` only when someone is at 0 life or lost. Each is checked here against
the plain form it replaces: every state of the fold equal to the plain fold's, and after every
decision nothing left for ``settle`` to do.
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from random_play import random_decisions

from kifu.domain.core import priority as prio
from kifu.domain.core.draft import Draft
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.masters import board, evolve, setup
from kifu.domain.masters import decide as decide_module
from kifu.domain.masters import events as ev
from kifu.domain.masters.decks import preset_names
from kifu.domain.masters.effects import settle
from kifu.domain.masters.state import State

RULESET = find_ruleset("masters")
PRESETS = preset_names()


# -- the plain forms -------------------------------------------------------------------------------
def _sides(state: State, seat: int, **fields: Any) -> tuple[Any, ...]:
    sides = list(state.sides)
    sides[seat - 1] = replace(sides[seat - 1], **fields)
    return tuple(sides)


def _side(state: State, seat: int, **fields: Any) -> State:
    return replace(state, sides=_sides(state, seat, **fields))


def _pieces(state: State, cid: int, **fields: Any) -> tuple[Any, ...]:
    return tuple(replace(p, **fields) if p.card == cid else p for p in state.pieces)


def _found(pieces: tuple[Any, ...], cid: int) -> int:
    return next((i for i, p in enumerate(pieces) if p.card == cid), -1)


def _after_act(state: State, seat: int) -> prio.Priority | None:
    return prio.acted(state.priority, seat) if state.priority is not None else None


def _untapped(s: State, e: ev.Untapped) -> State:
    side = s.side(e.seat)
    s = _side(s, e.seat, mana=tuple(replace(m, tapped=False) if m.tapped else m for m in side.mana))
    return replace(s, pieces=tuple(replace(p, tapped=False, fresh=False) if p.seat == e.seat else p
                                   for p in s.pieces))


def _turn_ended(s: State, e: ev.TurnEnded) -> State:
    return replace(s, pieces=tuple(replace(p, atk_bonus=0, shield=0) if p.atk_bonus or p.shield else p
                                   for p in s.pieces), priority=None, pending="")


def _passed(s: State, e: ev.PriorityPassed) -> State:
    return replace(s, priority=prio.passed(s.priority)) if s.priority is not None else s


def _phase_began(s: State, e: ev.PhaseBegan) -> State:
    return replace(s, phase=e.phase, priority=prio.opened(e.seat), moved_in_action=False)  # type: ignore[arg-type]


def _occupied(state: State) -> dict[int, int]:
    occ = {p.square: p.seat for p in state.pieces}
    for seat in (1, 2):
        occ[state.sides[seat - 1].master] = seat
    return occ


def _awaiting(state: State) -> frozenset[int]:
    if state.outcome is not None:
        return frozenset()
    if state.phase == "mulligan":
        return frozenset((setup.mulligan_seat(state),))
    if state.pending:
        return frozenset((state.active,))
    if state.priority is not None:
        return frozenset((state.priority.holder,))
    return frozenset()


PLAIN = {"_sides": _sides, "_side": _side, "_pieces": _pieces, "_found": _found, "_after_act": _after_act,
         "_opened": prio.opened, "parse": board._parse}
PLAIN_CASES = {ev.Untapped: _untapped, ev.TurnEnded: _turn_ended, ev.PriorityPassed: _passed,
               ev.PhaseBegan: _phase_began}


def _play(seed: int, decks: tuple[str, str]) -> tuple[Match, list[State]]:
    starts = []     # the state each decision starts from
    for match, _, _ in random_decisions(RULESET, seed, decks, f"fold-{seed}"):
        state = match.state
        assert decide_module.awaiting(state) == _awaiting(state), match.seq
        assert state.occupied() == _occupied(state) and list(state.occupied()) == list(_occupied(state))
        starts.append(state)
    return match, starts[1:] + [match.state]      # the state after each decision


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                               HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**63 - 1),
       decks=st.tuples(st.sampled_from(PRESETS), st.sampled_from(PRESETS)))
def test_the_fold_and_the_shortcuts_agree_with_their_plain_forms(seed, decks, monkeypatch: pytest.MonkeyPatch):
    match, decided = _play(seed, decks)
    fold = record_evolve(RULESET)
    states = [RULESET.decider.initial_state(match.header)]
    for env in match.envelopes:
        states.append(fold(states[-1], env.event))
    assert states[-1] == match.state
    # after every decision, settle has nothing left to do (decide skipped it only then)
    for state in decided:
        draft: Draft[State, Any] = Draft(state, 1 << 40, None, evolve.evolve)
        settle(draft, 1)
        assert not draft.envelopes
    # the fold with every shortcut undone gives the same state after every event
    with monkeypatch.context() as patch:
        for helper, plain in PLAIN.items():
            patch.setattr(evolve, helper, plain)
        for kind, plain in PLAIN_CASES.items():
            patch.setitem(evolve.HANDLERS, kind, plain)
        for env, before, after in zip(match.envelopes, states, states[1:], strict=False):
            plain = evolve.evolve if type(env.event) in evolve.HANDLERS else fold    # (fold's table is a copy)
            assert plain(before, env.event) == after, env.seq
