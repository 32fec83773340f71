"""Redaction in both directions (issue 24): a seat is sent no hidden card and no count of hidden
cards, and every card the game shows it (its own, public ones) reaches it unscrubbed.

``scrub_audit`` compares each seat's stream with the judge's over random matches: a *zeroed
reference* the game shows the seat before and after the event is over-hidden (novel used to
scrub a seat's own picks: its mask's zeroed numbers were read as card ids); an option list with a
hidden card in it counts them (WORLFARD's 召喚術師). The other direction, no secret card in any
payload, is ``test_leak_scan``.
"""
from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kifu.domain.core.match import record_evolve
from kifu.domain.core.roles import HIDDEN, target_cards
from kifu.domain.core.ruleset import Ruleset, find_ruleset, ruleset_names
from kifu.domain.core.visibility import hidden_cards, redacted

from .scrub_audit import Figures, audit, measure, play

SUMMONER = 42       # a WORLFARD seed whose random match reaches 召喚術師's choice over hidden cards (record format 2)


@pytest.mark.parametrize("name", ruleset_names())
def test_every_card_a_seat_sees_reaches_it_and_no_hidden_count_does(name: str) -> None:
    figures = measure(name, range(58, 61))
    print(f"\n{figures.line(name)}")
    assert figures.over_hidden == 0, "\n".join(figures.examples)
    assert figures.counted == 0
    assert figures.zeroed > 0          # something was hidden: the comparison had something to find


def test_worlfard_summoner_options_reach_the_opponent_as_the_options_it_may_see() -> None:
    """W-2.4: 召喚術師's trigger offers its controller (hand unit × empty line) options; the other
    seat learns that a choice is pending and sees the options it may see, never their number."""
    rules = find_ruleset("worlfard")
    match = play(rules, SUMMONER)
    initial = rules.decider.initial_state(match.header)
    evolve = record_evolve(rules)
    streams = {s: redacted(rules, initial, match.envelopes, s) for s in (1, 2)}
    state, checked = initial, 0
    for i, env in enumerate(match.envelopes):
        before, state = state, evolve(state, env.event)
        if type(env.event).__name__ != "ChoiceAwaited" or not env.event.choice.options:
            continue
        chooser = env.event.choice.seat
        other = 3 - chooser
        secret = hidden_cards(rules, before, other) & hidden_cards(rules, state, other)
        visible = tuple(o for o in env.event.choice.options if not any(c in secret for c in target_cards(o)))
        assert streams[chooser][i].event.choice.options == env.event.choice.options
        assert streams[other][i].event.choice.options == visible
        assert HIDDEN not in streams[other][i].event.choice.options
        checked += len(visible) < len(env.event.choice.options)
    assert checked, f"seed {SUMMONER} no longer reaches a choice over hidden cards: pick another seed"


def test_novel_a_seats_own_pick_reaches_it_named() -> None:
    """N-5.2: a seat's own pick is its own card; only the other seat's copy hides it."""
    rules = find_ruleset("novel")
    match = play(rules, 58)
    initial = rules.decider.initial_state(match.header)
    picks = [(i, e) for i, e in enumerate(match.envelopes) if type(e.event).__name__ == "Picked"]
    assert picks
    for seat in (1, 2):
        stream = redacted(rules, initial, match.envelopes, seat)
        for i, env in picks:
            mine = env.event.seat == seat
            assert (stream[i].event.card == env.event.card) if mine else (stream[i].event.card == HIDDEN)


def test_a_ruleset_with_a_mask_must_say_which_cards_it_hides(monkeypatch: pytest.MonkeyPatch) -> None:
    """No core default reads hidden cards off the mask (it confused a zeroed total with a card)."""
    from dataclasses import replace

    from kifu.domain.core import ruleset as registry

    base = find_ruleset("secretbid")
    monkeypatch.setitem(registry._REGISTRY, "maskonly",   # undone after the test: others list every ruleset
                        lambda: replace(base, name="maskonly", visibility=replace(base.visibility, hidden_cards=None)))
    with pytest.raises(TypeError, match="hidden_cards"):
        find_ruleset("maskonly")


def test_a_prepared_position_is_scrubbed_like_an_event() -> None:
    """A seat's copy of a prepared position (a scenario, a fork) is its mask, and options of a
    pending choice over hidden cards are left out of it as they are of the event."""
    from kifu.domain.core.commit import PositionPrepared
    from kifu.domain.core.envelope import Envelope
    from kifu.domain.core.visibility import redact

    rules: Ruleset[Any, Any, Any] = find_ruleset("worlfard")
    match = play(rules, SUMMONER)
    state, evolve = rules.decider.initial_state(match.header), record_evolve(rules)
    for env in match.envelopes:
        state = evolve(state, env.event)
        if getattr(state, "choice", None) is not None and state.choice.options:
            break
    other = 3 - state.choice.seat
    seen = redact(rules, Envelope(seq=1, kind="setup", event=PositionPrepared(state=state)), other)
    options = seen.event.state.choice.options
    secret = hidden_cards(rules, state, other)
    assert any(c in secret for o in state.choice.options for c in target_cards(o))   # the case at hand
    assert not any(c in secret for o in options for c in target_cards(o)) and HIDDEN not in options
    assert not set(msgspec.to_builtins(seen.event.state.sides[state.choice.seat - 1].hand)) - {HIDDEN}


def test_figures_add_up() -> None:
    f = Figures()
    rules = find_ruleset("secretbid")
    audit(rules, play(rules, 1), f)
    assert f.matches == 1 and f.events > 0 and f.zeroed > 0
