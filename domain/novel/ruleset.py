"""The novel ruleset (seed 004): the decider functions bundled and registered under "novel"."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.ruleset import Ruleset

from . import bots, cards, decks, reference, view
from .commands import Act, Command, Done, Pick, Reveal
from .events import Acted, Equipped, Event, MagicSet, Picked, RevealChosen, SelectDone, Summoned
from .evolve import _HANDLERS as EVOLVE_CASES
from .evolve import evolve, evolve_run
from .flow import awaiting, begin, decide, outcome, sealed, waiting_clause
from .long import long_match
from .options import legal
from .setup import initial_state
from .state import State

NAME = "novel"
RULES_VERSION = "1.0.0-kifu.1"


def command_of(event: Any) -> Command | None:
    """The command a decision event records (all of them are opened sealed choices)."""
    match event:
        case Picked():
            return Pick(card=event.card, target=event.target, face_down=event.face_down)
        case RevealChosen():
            return Reveal(card=event.card, target=event.target)
        case SelectDone():
            return Done()
        case Acted():
            return Act(card=event.card, target=event.target)
    return None


def played(state: State, event: Any) -> str | None:
    """The card an event puts into play: a summon, an equipping, a magic set on the field."""
    if isinstance(event, (Summoned, Equipped, MagicSet)):
        return state.card(event.card).name if event.card else None
    return None


def card_names(state: State):  # type: ignore[no-untyped-def]
    return lambda cid: state.card(cid).name if 1 <= cid <= len(state.cards) else ""


def build() -> Ruleset[State, Command, Event]:
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION, command_type=Command, event_type=Event, state_type=State,
        initial_state=initial_state, begin=begin, decide=decide, evolve=evolve, legal=legal, awaiting=awaiting,
        evolve_cases=EVOLVE_CASES, evolve_run=evolve_run,
        outcome=outcome, view=view.view, layout=view.layout, redact=view.redact, normalize_decks=decks.normalize,
        card_set_digest=cards.card_set_digest, clauses=reference.clauses, command_of=command_of,
        catalogue=cards.catalogue, load_deck=decks.load, presets=decks.preset_names,
        bots={"random": bots.RandomBot, "greedy": bots.GreedyBot}, card_names=card_names, played=played,
        sealed=sealed, mask=view.mask, hidden_cards=view.hidden_cards, prepared_clause="N-5.1", decide_clause="N-5.2",
        waiting_clause=waiting_clause, long_match=long_match,
    )



