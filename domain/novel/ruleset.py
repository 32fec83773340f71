"""The novel ruleset (seed 004): its parts assembled and registered under "novel"."""
from __future__ import annotations

from kifu.domain.core.ruleset import Bench, Content, Decider, Judging, Presentation, Ruleset, SpeedUps, Visibility

from . import bots, cards, decks, position, reference, replay, view
from .commands import Command
from .decide import awaiting, begin, decide, judged_result, outcome, sealed, waiting_clause
from .events import Event
from .evolve import HANDLERS, evolve
from .legal import legal
from .long import long_match
from .run import evolve_run
from .setup import initial_state
from .state import State

NAME = "novel"
RULES_VERSION = "1.0.0-kifu.1"


def build() -> Ruleset[State, Command, Event]:
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION,
        decider=Decider(
            command_type=Command, event_type=Event, state_type=State, initial_state=initial_state, begin=begin,
            decide=decide, evolve=evolve, legal=legal, awaiting=awaiting, outcome=outcome, view=view.view,
            command_of=replay.command_of, sealed=sealed,
            prepared_clause="N-5.1", decide_clause="N-5.2", waiting_clause=waiting_clause),
        content=Content(
            clauses=reference.clauses, card_set_digest=cards.card_set_digest, normalize_decks=decks.normalize,
            load_deck=decks.load, presets=decks.preset_names, catalogue=cards.catalogue,
            bots={"random": bots.RandomBot, "greedy": bots.GreedyBot}),
        presentation=Presentation(layout=view.layout, card_names=view.card_names, played=replay.played,
                                  declaration=replay.declaration, step_begun=view.step_begun),
        visibility=Visibility(redact=view.redact, mask=view.mask, hidden_cards=view.hidden_cards),
        speedups=SpeedUps(evolve_cases=HANDLERS, evolve_run=evolve_run),
        bench=Bench(long_match=long_match),
        notation=position.NOTATION,
        judging=Judging(end=judged_result),   # no reshuffle: a backup is refused (the deck is the cards' order)
    )
