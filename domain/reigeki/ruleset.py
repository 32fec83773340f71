"""Reigeki (seed 001) as a ruleset: the decider functions bundled and registered under "reigeki"."""
from __future__ import annotations

from kifu.domain.core.reference import RulesReference
from kifu.domain.core.ruleset import Outcome, Ruleset

from . import bots, cards, decks, legal, replay, rules, view
from .commands import Command
from .events import Event
from .evolve import _FOLD as EVOLVE_CASES
from .evolve import evolve
from .state import State

NAME = "reigeki"
RULES_VERSION = "1.0.0-kifu.1"   # the seed has no version; our interpretation revision after the dash

REFERENCE = RulesReference("kifu.domain.reigeki", "R")


def initial_state(header: object) -> State:
    return State()


def outcome(state: State) -> Outcome | None:
    r = state.result
    return None if r is None else Outcome(termination=r.termination, winner=r.winner, clause=r.clause)


def build() -> Ruleset[State, Command, Event]:
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION, command_type=Command, event_type=Event, state_type=State,
        initial_state=initial_state, begin=rules.begin, decide=rules.decide, evolve=evolve, legal=legal.legal,
        evolve_cases=EVOLVE_CASES,
        awaiting=rules.awaiting, outcome=outcome, view=view.view, layout=view.layout, redact=view.redact,
        normalize_decks=decks.normalize, card_set_digest=cards.card_set_digest, clauses=REFERENCE.clauses,
        command_of=replay.command_of, catalogue=cards.catalogue, load_deck=decks.BOOK.load,
        presets=decks.BOOK.preset_names, bots={"random": bots.RandomBot, "greedy": bots.GreedyBot},
        card_names=lambda state: (lambda card: rules.card_of(state, card).key),
        played=view.played, mask=view.mask, hidden_cards=view.hidden_cards, prepared_clause="R-5", decide_clause="R-6",
        waiting_clause=rules.waiting_clause,
    )
