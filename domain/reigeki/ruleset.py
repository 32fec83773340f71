"""Reigeki (seed 001) as a ruleset: its parts assembled and registered under "reigeki"."""
from __future__ import annotations

from kifu.domain.core.ruleset import (
    Content,
    Decider,
    Judging,
    Presentation,
    Ruleset,
    SpeedUps,
    Visibility,
    shuffle_decks,
)

from . import bots, cards, decide, decks, legal, loose, position, reference, replay, view
from .commands import Command
from .events import Event
from .evolve import HANDLERS, evolve
from .state import State, initial_state, judged_result, outcome

NAME = "reigeki"
RULES_VERSION = "1.0.0-kifu.1"   # the seed has no version; our interpretation revision after the dash


def build() -> Ruleset[State, Command, Event]:
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION,
        decider=Decider(
            command_type=Command, event_type=Event, state_type=State, initial_state=initial_state,
            begin=decide.begin, decide=decide.decide, evolve=evolve, legal=legal.legal, awaiting=decide.awaiting,
            outcome=outcome, view=view.view, command_of=replay.command_of,
            prepared_clause="R-5", decide_clause="R-6", waiting_clause=decide.waiting_clause),
        content=Content(
            clauses=reference.clauses, card_set_digest=cards.card_set_digest, normalize_decks=decks.normalize,
            load_deck=decks.BOOK.load, presets=decks.BOOK.preset_names, catalogue=cards.catalogue,
            bots={"random": bots.RandomBot, "greedy": bots.GreedyBot}),
        presentation=Presentation(layout=view.layout, card_names=view.card_names, played=replay.played,
                                  declaration=replay.declaration),
        visibility=Visibility(redact=view.redact, mask=view.mask, hidden_cards=view.hidden_cards),
        speedups=SpeedUps(evolve_cases=HANDLERS, evolve_run=loose.evolve_run),
        notation=position.NOTATION,
        judging=Judging(reshuffle=shuffle_decks, end=judged_result),   # IPG: the decks reshuffled
    )
