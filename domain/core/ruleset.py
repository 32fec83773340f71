"""The decider contract every ruleset fulfils, and the flat registry they are found in by name."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

import msgspec

from .draft import Draft
from .envelope import Envelope
from .errors import UnknownRuleset

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a match ended: ``winner`` is None for a draw."""

    termination: str
    winner: int | None = None
    clause: str = ""

    def describe(self) -> str:
        return f"draw ({self.termination})" if self.winner is None else f"seat {self.winner} wins ({self.termination})"


class ClauseEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of a ruleset's rules reference: what the clause says and where it lives."""

    id: str
    title: str
    text: str
    original: str = ""
    implemented_in: str = ""
    interpretation: str = ""
    tested_in: str = ""


@dataclass(frozen=True)
class Ruleset(Generic[S, C, E]):
    """A ruleset is data plus pure functions; the core drives them and never looks inside."""

    name: str
    rules_version: str
    command_type: Any
    event_type: Any
    initial_state: Callable[[Any], S]                   # (header) -> state before setup
    begin: Callable[[Any, S, Draft[S, E]], None]         # (header, state, draft): setup events
    decide: Callable[[S, int, C, Draft[S, E]], None]     # raises Illegal; emits into the draft
    evolve: Callable[[S, E], S]                          # dumb fold, never validates
    legal: Callable[[S, int], list[C]]                   # every decision that seat may take now
    awaiting: Callable[[S], int | None]                  # the seat the rules wait for
    outcome: Callable[[S], Outcome | None]
    view: Callable[[S, int | None], Any]                 # None = judge (everything)
    redact: Callable[[Envelope[E], int | None], Envelope[E]]  # an event as a seat may see it
    normalize_decks: Callable[[list[Any]], list[Any]]    # validate deck lists (raises InvalidDeck)
    card_set_digest: Callable[[], str]
    clauses: Callable[[], dict[str, ClauseEntry]]
    command_of: Callable[[E], C | None] = lambda event: None  # the command a decision event records
    load_deck: Callable[[str], Any] = lambda spec: spec     # a preset name or a deck file's text path
    presets: Callable[[], list[str]] = lambda: []
    bots: dict[str, Callable[[int], Any]] = field(default_factory=dict)   # name -> (seed) -> bot
    card_names: Callable[[S], Callable[[int], str]] | None = None         # for display
    played: Callable[[Any, E], str | None] = lambda state, event: None   # card name an event plays
    cards: Callable[[], list[Any]] = lambda: []                          # the card catalogue
    decide_clause: str = ""                              # clause cited when nothing is awaited
    waiting_clause: Callable[[S], str] | None = None     # the clause that says whose decision it is now
    _decoders: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def command_decoder(self) -> msgspec.json.Decoder[Any]:
        dec = self._decoders.get("command")
        if dec is None:
            dec = self._decoders["command"] = msgspec.json.Decoder(self.command_type)
        return dec

    def envelope_decoder(self) -> msgspec.json.Decoder[Any]:
        dec = self._decoders.get("envelope")
        if dec is None:
            dec = self._decoders["envelope"] = msgspec.json.Decoder(Envelope[self.event_type])
        return dec

    def envelope_converter(self, raw: Any) -> Envelope[E]:
        return msgspec.convert(raw, Envelope[self.event_type])


_REGISTRY: dict[str, Callable[[], Ruleset[Any, Any, Any]]] = {}
_LOADED: dict[str, Ruleset[Any, Any, Any]] = {}
_LOADING = threading.Lock()


def register(name: str, loader: Callable[[], Ruleset[Any, Any, Any]]) -> None:
    """Register a ruleset by name; ``loader`` is called once, on first use."""
    _REGISTRY[name] = loader


def find_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    _ensure_builtin()
    key = name.strip().lower()
    if key not in _REGISTRY:
        raise UnknownRuleset(name, sorted(_REGISTRY))
    found = _LOADED.get(key)
    if found is None:
        with _LOADING:   # load once, and build the decoders before any thread can decode
            found = _LOADED.get(key)
            if found is None:
                found = _REGISTRY[key]()
                found.command_decoder()
                found.envelope_decoder()
                msgspec.json.Decoder(found.event_type)
                _LOADED[key] = found
    return found


def ruleset_names() -> list[str]:
    _ensure_builtin()
    return sorted(_REGISTRY)


def _ensure_builtin() -> None:
    if "worlfard" not in _REGISTRY:
        from domain.worlfard import ruleset as _w  # noqa: F401  (registers itself)
