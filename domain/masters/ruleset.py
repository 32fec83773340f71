"""The masters game (seed 002) as a ruleset, registered under "masters"."""
from __future__ import annotations

from operator import attrgetter

from kifu.domain.core.ruleset import Ruleset

from . import bots, cards, decks, legal, reference, replay, setup, view
from .commands import Command
from .decide import awaiting, decide, waiting_clause
from .events import Event
from .evolve import _HANDLERS as EVOLVE_CASES
from .evolve import evolve
from .state import State

NAME = "masters"
RULES_VERSION = "0.1.0-kifu.1"   # the seed has no version; our interpretation revision after the dash


outcome = attrgetter("outcome")   # the state's outcome (a C call: the core asks it twice a decision)


def build() -> Ruleset[State, Command, Event]:
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION, command_type=Command, event_type=Event, state_type=State,
        initial_state=setup.initial_state, begin=setup.begin, decide=decide, evolve=evolve, legal=legal.legal, options=legal.options,
        evolve_cases=EVOLVE_CASES,
        awaiting=awaiting, outcome=outcome, view=view.view, layout=view.layout, redact=view.redact,
        normalize_decks=decks.normalize, card_set_digest=cards.card_set_digest, clauses=reference.clauses,
        command_of=replay.command_of, catalogue=cards.catalogue, load_deck=decks.load, presets=decks.preset_names,
        bots={"random": bots.RandomBot, "greedy": bots.GreedyBot}, card_names=lambda state: state.name,
        played=replay.played, mask=view.mask, hidden_cards=view.hidden_cards, prepared_clause="M-1",
        decide_clause="M-2.1",
        waiting_clause=waiting_clause,
    )

