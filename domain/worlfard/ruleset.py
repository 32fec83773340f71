"""WORLFARD as a ruleset: the decider functions bundled for the core (entry point "worlfard")."""
from __future__ import annotations

from kifu.domain.core.roles import target_cards
from kifu.domain.core.ruleset import Ruleset

from . import bots, cards, decks, layout, legal, reference, replay, setup, view
from .commands import Command
from .decide import awaited, decide, waiting_clause
from .events import Event
from .evolve import _HANDLERS as EVOLVE_CASES
from .evolve import evolve
from .long_match import long_match
from .state import State

NAME = "worlfard"
RULES_VERSION = "1.6.0-kifu.3"   # seed v1.6.0; our interpretation revision after the dash


def outcome(state: State):  # type: ignore[no-untyped-def]
    return state.outcome


def build() -> Ruleset[State, Command, Event]:
    """Targets and options are declared (``TargetRef``); ``card_refs`` reads every other int of an
    event the same way (a trigger's card, an effect's source and target are plain ints of the
    state's structs): card ids are seat*1000+index, so no count, line or amount is mistaken for one."""
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION, command_type=Command, event_type=Event, state_type=State,
        initial_state=setup.initial_state, begin=setup.begin, decide=decide, evolve=evolve,
        evolve_cases=EVOLVE_CASES,
        legal=legal.legal, options=legal.options, awaiting=awaited, outcome=outcome, view=view.view, layout=layout.layout,
        redact=view.redact, mask=view.mask, hidden_cards=view.hidden_cards, normalize_decks=decks.normalize,
        card_set_digest=cards.card_set_digest, clauses=reference.clauses, catalogue=layout.catalogue,
        command_of=replay.command_of, prepared_clause="W-4", decide_clause="W-5.6", waiting_clause=waiting_clause,
        load_deck=decks.load, presets=decks.preset_names,
        bots={"random": bots.RandomBot, "greedy": bots.GreedyBot},
        card_names=lambda state: state.name, card_refs=target_cards, played=replay.played,
        long_match=lambda seed: long_match(build(), seed),
    )
