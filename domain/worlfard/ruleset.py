"""WORLFARD as a ruleset: its parts assembled and registered under "worlfard"."""
from __future__ import annotations

from operator import attrgetter

from kifu.domain.core.roles import target_cards
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

from . import bots, cards, decks, layout, legal, position, reference, replay, setup, view
from .commands import Command
from .decide import awaited, decide, waiting_clause
from .events import Event
from .evolve import HANDLERS, evolve, evolve_run
from .long_match import long_match, longest
from .state import State

NAME = "worlfard"
RULES_VERSION = "1.6.0-kifu.3"   # seed v1.6.0; our interpretation revision after the dash


def build() -> Ruleset[State, Command, Event]:
    """Targets and options are declared (``TargetRef``); ``card_refs`` reads every other int of an
    event the same way (a trigger's card, an effect's source and target are plain ints of the
    state's structs): card ids are seat*1000+index, so no count, line or amount is mistaken for one."""
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION,
        decider=Decider(
            command_type=Command, event_type=Event, state_type=State, initial_state=setup.initial_state,
            begin=setup.begin, decide=decide, evolve=evolve, legal=legal.legal, awaiting=awaited,
            outcome=attrgetter("outcome"), view=view.view, command_of=replay.command_of,
            prepared_clause="W-4", decide_clause="W-5.6", waiting_clause=waiting_clause),
        content=Content(
            clauses=reference.clauses, card_set_digest=cards.card_set_digest, normalize_decks=decks.normalize,
            load_deck=decks.load, presets=decks.preset_names, catalogue=layout.catalogue,
            bots={"random": bots.RandomBot, "greedy": bots.GreedyBot}),
        presentation=Presentation(layout=layout.layout, card_names=attrgetter("name"), played=replay.played,
                                  declaration=replay.declaration),
        visibility=Visibility(redact=view.redact, mask=view.mask, hidden_cards=view.hidden_cards,
                              card_refs=target_cards),
        speedups=SpeedUps(options=legal.options, evolve_cases=HANDLERS, evolve_run=evolve_run),
        bench=Bench(long_match=lambda seed: long_match(build(), seed), longest=lambda seed: longest(build(), seed)),
        notation=position.NOTATION,
        judging=Judging(reshuffle=shuffle_decks),     # a judge's backup: the decks reshuffled (IPG)
    )
