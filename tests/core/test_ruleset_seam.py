"""The ruleset seam: a game is its ``Decider`` plus optional groups, and a ruleset's caches are
not fields, so a ruleset made with ``dataclasses.replace`` runs the hooks it was given."""
from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from kifu.domain.core.bot import RandomBot
from kifu.domain.core.commit import ChoiceRevealed, PositionPrepared, SeedRevealed
from kifu.domain.core.driver import drive
from kifu.domain.core.layout import Layout
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Content, Decider, Ruleset, SpeedUps, find_ruleset, ruleset_names

_CORE_FOLDED = (ChoiceRevealed, SeedRevealed, PositionPrepared)   # the events the core folds itself


def _played(ruleset: Ruleset[Any, Any, Any], seed: int = 7) -> Match:
    decks = [ruleset.content.load_deck(name) for name in ruleset.content.presets()[:2]]
    match = Match.create(ruleset, match_id=f"seam-{seed}", seed=seed, decks=decks, players=("a", "b"))
    drive(match, {seat: ruleset.content.bots["random"](seed + seat) for seat in (1, 2)})
    return match


def _spied(ruleset: Ruleset[Any, Any, Any], seen: list[Any], **groups: Any) -> Ruleset[Any, Any, Any]:
    evolve = ruleset.decider.evolve

    def spy(state: Any, event: Any) -> Any:
        seen.append(event)
        return evolve(state, event)

    return replace(ruleset, decider=replace(ruleset.decider, evolve=spy), **groups)


def test_a_replaced_evolve_is_the_one_that_folds() -> None:
    """The record fold is built once per ruleset: once it was an init field that ``replace``
    shared, so a spied ``evolve`` folded nothing (the old fold ran)."""
    ruleset = find_ruleset("secretbid")
    match = _played(ruleset)
    Match.fold(ruleset, match.header, match.envelopes)        # the original's fold is built and kept
    seen: list[Any] = []
    spied = _spied(ruleset, seen)
    refolded = Match.fold(spied, match.header, match.envelopes)
    assert refolded.state == match.state
    ours = [env.event for env in match.envelopes if not isinstance(env.event, _CORE_FOLDED)]
    assert seen == ours and ours                 # every event the game folds (its own and the seals), in order


def test_a_replaced_evolve_with_its_table_dropped_folds_every_event() -> None:
    """``SpeedUps.evolve_cases`` is ``evolve``'s own table, and ``evolve_run`` folds through it: replace
    ``evolve`` and drop both, and the new ``evolve`` sees every event of the game."""
    ruleset = find_ruleset("worlfard")
    assert ruleset.speedups.evolve_cases and ruleset.speedups.evolve_run
    match = _played(ruleset, 3)
    seen: list[Any] = []
    spied = _spied(ruleset, seen, speedups=replace(ruleset.speedups, evolve_cases=None, evolve_run=None))
    assert Match.fold(spied, match.header, match.envelopes).state == match.state
    assert seen == [env.event for env in match.envelopes if not isinstance(env.event, _CORE_FOLDED)]


def test_replace_starts_with_fresh_caches() -> None:
    ruleset = find_ruleset("secretbid")
    ruleset.command_decoder()
    again = replace(ruleset, name="again")
    assert again.memo("command", lambda: "fresh") == "fresh"
    assert "_memo" not in {f.name for f in fields(Ruleset) if f.init}


def test_a_game_needs_only_its_decider() -> None:
    """Every group has defaults: no cards, decks as given, the core's random bot, an empty layout,
    nothing hidden, no speed-ups; a match plays to its end on the decider alone."""
    full = find_ruleset("secretbid")
    bare = Ruleset(name="bare", rules_version="1", decider=full.decider)
    assert list(bare.content.bots) == ["random"] and bare.content.bots["random"] is RandomBot
    assert full.content.bots["random"] is RandomBot and "greedy" in full.content.bots  # it brings greedy only
    assert bare.content.presets() == [] and bare.content.clauses() == {} and bare.content.card_set_digest() == ""
    assert bare.presentation.layout(None) == Layout(ruleset="?")
    assert bare.visibility.mask is None and bare.speedups == SpeedUps()
    decks = [full.content.load_deck(name) for name in full.content.presets()[:2]]
    match = Match.create(bare, match_id="bare", seed=5, decks=decks, players=("a", "b"))
    env = match.envelopes[0]
    assert bare.visibility.redact(env, 1) is env                  # open information by default
    drive(match, {seat: RandomBot(seat) for seat in (1, 2)})
    assert match.outcome is not None
    twin = Match.create(full, match_id="bare", seed=5, decks=decks, players=("a", "b"))
    assert [e.event for e in twin.envelopes] == [e.event for e in match.envelopes[:len(twin.envelopes)]]


def test_the_decider_is_what_a_game_must_define() -> None:
    required = [f.name for f in fields(Decider) if f.default is f.default_factory]   # both MISSING
    assert required == ["command_type", "event_type", "state_type", "initial_state", "begin", "decide",
                        "evolve", "legal", "awaiting", "outcome", "view", "command_of"]
    for group in (Content, SpeedUps):
        group()                                                    # every other group has defaults


def test_every_ruleset_folds_through_a_public_table() -> None:
    """The five games keep one file shape: the fold table is ``evolve.HANDLERS``, and it is what
    the ruleset declares to the core."""
    import importlib

    for name in ruleset_names():
        ruleset = find_ruleset(name)
        package = ruleset.decider.evolve.__module__
        if not package.startswith("kifu.domain."):
            continue                                             # a third-party ruleset (secretbid) has its own shape
        evolve = importlib.import_module(package)
        assert ruleset.speedups.evolve_cases is evolve.HANDLERS, name
        for module in ("state", "commands", "events", "decide", "evolve", "legal", "view", "ruleset", "cards",
                       "decks", "reference", "replay"):
            importlib.import_module(package.rsplit(".", 1)[0] + "." + module)
