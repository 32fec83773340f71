"""alteil as a ruleset: its parts assembled and registered under "alteil"."""
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

from . import bots, cards, decide, decks, legal, position, reference, replay, setup, view
from .commands import Command, Concede
from .events import Event
from .evolve import HANDLERS, evolve, evolve_run
from .long import long_match
from .state import State

NAME = "alteil"
RULES_VERSION = "2008.02.11-kifu.1"   # the seed's last update (2008/2/11); our interpretation revision after the dash


def build() -> Ruleset[State, Command, Event]:
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION,
        decider=Decider(
            command_type=Command, event_type=Event, state_type=State, initial_state=setup.initial_state,
            begin=setup.begin, decide=decide.decide, evolve=evolve, legal=legal.legal, awaiting=legal.awaiting,
            outcome=attrgetter("outcome"), view=view.view, command_of=replay.command_of, sealed=legal.sealed,
            prepared_clause="A-4", decide_clause="A-5", waiting_clause=decide.waiting_clause),
        content=Content(
            clauses=reference.clauses, card_set_digest=cards.card_set_digest, normalize_decks=decks.normalize,
            load_deck=decks.load, presets=decks.preset_names, catalogue=cards.catalogue,
            bots={"random": bots.RandomBot, "greedy": bots.GreedyBot}),
        presentation=Presentation(layout=view.layout, card_names=view.card_names, played=replay.played,
                                  concede=lambda seat: Concede()),
        visibility=Visibility(redact=view.redact, mask=view.mask, hidden_cards=view.hidden_cards),
        speedups=SpeedUps(evolve_cases=HANDLERS, evolve_run=evolve_run),
        notation=position.NOTATION,
        judging=Judging(reshuffle=shuffle_decks),     # a judge's backup: the decks reshuffled (IPG)
        bench=Bench(long_match=lambda seed: long_match(build(), seed)),
    )
