"""A tournament (an "event") as an event-sourced stream of its own, beside the matches it creates.

Pure, like a game's rules: ``decide(state, command)`` returns the events a command causes (or
raises ``Illegal`` naming the rule that forbids it), ``evolve(state, event)`` folds one in. The
store keeps the events as the event's stream (``MatchStore.append_entries``); pairings (``swiss``),
standings with named tiebreakers (``standings``) and the deck check (``decklists``) are pure
functions of the state. Organiser rules cited as ``E-…`` ids (see docs/events.md).
"""
from .decide import decide
from .events import Event
from .state import State, evolve, fold

__all__ = ["Event", "State", "decide", "evolve", "fold"]
