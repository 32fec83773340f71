"""alteil as a ruleset: the decider functions bundled and registered under "alteil"."""
from __future__ import annotations

from kifu.domain.core.ruleset import Outcome, Ruleset

from . import bots, cards, decks, legal, reference, replay, rules, setup, view
from .commands import Command, Concede
from .events import Event
from .evolve import _HANDLERS as EVOLVE_CASES
from .evolve import evolve
from .state import State

NAME = "alteil"
RULES_VERSION = "2008.02.11-kifu.1"   # the seed's last update (2008/2/11); our interpretation revision after the dash


def outcome(state: State) -> Outcome | None:
    return state.outcome


def build() -> Ruleset[State, Command, Event]:
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION, command_type=Command, event_type=Event, state_type=State,
        initial_state=setup.initial_state, begin=setup.begin, decide=rules.decide, evolve=evolve,
        evolve_cases=EVOLVE_CASES,
        legal=legal.legal, awaiting=legal.awaiting, outcome=outcome, view=view.view, layout=view.layout,
        redact=view.redact, normalize_decks=decks.normalize, card_set_digest=cards.card_set_digest,
        clauses=reference.clauses, command_of=replay.command_of, catalogue=cards.catalogue,
        load_deck=decks.load, presets=decks.preset_names,
        bots={"random": bots.RandomBot, "greedy": bots.GreedyBot},
        card_names=view.card_names, played=replay.played, sealed=legal.sealed, mask=view.mask,
        hidden_cards=view.hidden_cards,
        prepared_clause="A-4", decide_clause="A-5", waiting_clause=rules.waiting_clause,
        concede=lambda seat: Concede(),
    )
