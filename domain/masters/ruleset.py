"""The masters game (seed 002) as a ruleset: its parts assembled and registered under "masters"."""
from __future__ import annotations

from operator import attrgetter

from kifu.domain.core.ruleset import (
    Bench,
    Content,
    Decider,
    Judging,
    Presentation,
    Ruleset,
    SpeedUps,
    Visibility,
    shuffle_decks,
)

from . import bots, cards, decks, legal, position, reference, replay, setup, view
from .commands import Command
from .decide import awaiting, decide, waiting_clause
from .events import Event
from .evolve import HANDLERS, evolve, evolve_run
from .long import long_match
from .state import State

NAME = "masters"
RULES_VERSION = "0.1.0-kifu.1"   # the seed has no version; our interpretation revision after the dash


def build() -> Ruleset[State, Command, Event]:
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION,
        decider=Decider(
            command_type=Command, event_type=Event, state_type=State, initial_state=setup.initial_state,
            begin=setup.begin, decide=decide, evolve=evolve, legal=legal.legal, awaiting=awaiting,
            outcome=attrgetter("outcome"),   # the state's outcome (a C call: the core asks it twice a decision)
            view=view.view, command_of=replay.command_of,
            prepared_clause="M-1", decide_clause="M-2.1", waiting_clause=waiting_clause),
        content=Content(
            clauses=reference.clauses, card_set_digest=cards.card_set_digest, normalize_decks=decks.normalize,
            load_deck=decks.load, presets=decks.preset_names, catalogue=cards.catalogue,
            bots={"random": bots.RandomBot, "greedy": bots.GreedyBot}),
        presentation=Presentation(layout=view.layout, card_names=attrgetter("name"), played=replay.played,
                                  declaration=replay.declaration),
        visibility=Visibility(redact=view.redact, mask=view.mask, hidden_cards=view.hidden_cards),
        speedups=SpeedUps(options=legal.options, evolve_cases=HANDLERS, evolve_run=evolve_run),
        notation=position.NOTATION,
        judging=Judging(reshuffle=shuffle_decks),     # a judge's backup: the decks reshuffled (IPG)
        bench=Bench(long_match=lambda seed: long_match(build(), seed)),
    )
