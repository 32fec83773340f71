"""The decider contract every ruleset fulfils, and the registry that finds them by entry point.

A ruleset is one package that builds a ``Ruleset`` (data plus pure functions) and registers it
under the packaging entry-point group ``kifu.rulesets``::

    [project.entry-points."kifu.rulesets"]
    reigeki = "kifu.domain.reigeki.ruleset:build"

The core names no game: the CLI, store, service and projections reach a game only through the
hooks below. What each hook must do is written beside it; ``domain/worlfard/ruleset.py`` is a
complete example.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import AbstractSet, Any, Callable, Generic, Iterable, Mapping, Sequence, TypeVar, Union

import msgspec

from .bot import BotFactory
from .catalogue import Catalogue, Column
from .commit import CORE_EVENTS, PositionPrepared
from .draft import Draft
from .envelope import Envelope
from .errors import UnknownRuleset
from .layout import Layout

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")

ENTRY_POINT_GROUP = "kifu.rulesets"


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


def _no_layout(view: Any) -> Layout:
    return Layout(ruleset="?")


def _empty_catalogue() -> Catalogue:
    return Catalogue(columns=(Column(key="name", title="name", kind="name"),
                              Column(key="text", title="text", kind="text")), rows=())


@dataclass(frozen=True)
class Ruleset(Generic[S, C, E]):
    """A ruleset is data plus pure functions; the core drives them and never looks inside.

    Seats are 1 and 2; ``None`` as a seat means the judge (sees everything)."""

    name: str
    rules_version: str
    command_type: Any                                    # tagged union of the decisions (msgspec)
    event_type: Any                                      # tagged union of the events (msgspec)
    state_type: Any                                      # the State struct (for prepared positions)
    initial_state: Callable[[Any], S]                    # (header) -> state before setup
    begin: Callable[[Any, S, Draft[S, E]], None]         # (header, state, draft): setup events
    decide: Callable[[S, int, C, Draft[S, E]], None]     # raises Illegal(clause, …); emits into the draft
    evolve: Callable[[S, E], S]                          # dumb fold, never validates; sees ChoiceSealed too
    legal: Callable[[S, int], list[C]]                   # every decision that seat may take now
    awaiting: Callable[[S], frozenset[int]]              # the seats the rules wait for (empty when over)
    outcome: Callable[[S], Outcome | None]
    view: Callable[[S, int | None], Any]                 # what a seat may see (a msgspec Struct)
    layout: Callable[[Any], Layout]                      # a view drawn as neutral parts
    redact: Callable[[Envelope[E], int | None], Envelope[E]]  # the ruleset's own events as a seat may see them
    normalize_decks: Callable[[list[Any]], list[Any]]    # validate deck lists (raises InvalidDeck)
    card_set_digest: Callable[[], str]
    clauses: Callable[[], dict[str, ClauseEntry]]
    command_of: Callable[[E], C | None]                  # the command a decision event records (audit)
    catalogue: Callable[[], Catalogue] = _empty_catalogue
    load_deck: Callable[[str], Any] = lambda spec: spec  # a preset name or a deck file's path
    presets: Callable[[], list[str]] = lambda: []
    bots: dict[str, BotFactory] = field(default_factory=dict)   # name -> (seed) -> bot; "random", "greedy"
    card_names: Callable[[S], Callable[[int], str]] | None = None  # card id -> name, for display
    played: Callable[[Any, E], str | None] = lambda state, event: None   # the card an event puts into play
    sealed: Callable[[S], bool] = lambda state: False    # the awaited step takes sealed (secret) decisions
    mask: Callable[[S, int], S] | None = None            # the state as a seat may know it (bots simulate on it)
    hidden_cards: Callable[[S, int], AbstractSet[int]] | None = None  # card ids a seat may not see now;
    #   default: every card id ``mask`` replaces (``kifu.domain.core.visibility`` scrubs them from that seat's events)
    card_refs: Callable[[int], Iterable[int]] = lambda value: ()  # the card ids an int of an undeclared
    #   field may name (WORLFARD's targets: the card, or card*10+line); declare card fields CardId instead
    concede: Callable[[int], C] | None = None            # the command a seat concedes with: offered to people,
    #   never in ``legal`` (a random bot would take it)
    turn: Callable[[S], int] = lambda state: getattr(state, "turn", 0)
    long_match: Callable[[int], tuple[list[Any], Any]] | None = None  # (seed) -> (decks, start state) of a
    #   match random play keeps going for 10,000+ events: the benchmark's long record (fold, seek, memory)
    prepared_clause: str = "K-prepared"                  # clause a prepared position (scenario, fork) cites
    decide_clause: str = ""                              # clause cited when a decision has no effect
    waiting_clause: Callable[[S], str] | None = None     # the clause that says whose decision it is now
    options: Callable[[S, int], Sequence[C]] | None = None  # ``legal`` in the same order, each decision built
    #   when read: what bots are shown (a random bot that draws an index builds one command, not hundreds)
    evolve_cases: Mapping[type, Callable[[S, E], S]] | None = None  # ``evolve``'s own dispatch table, where it
    #   is one (``evolve(s, e)`` is ``evolve_cases[type(e)](s, e)`` for every type it holds): the core folds
    #   each event through it directly, one call fewer on every event of every record
    evolve_run: Callable[[S, Sequence[E], Callable[[S, E], S]], S] | None = None  # (state, events, fold) -> the
    #   state ``fold`` (``evolve`` with the core's events) makes of the events one at a time, where a ruleset can
    #   do once a run what ``evolve`` must do every event (novel: its card tuple); ``Match.fold`` reads with it
    test_only: bool = False                              # a ruleset for Kifu's own tests: not offered to users
                                                         # (``offered_rulesets``) unless they ask for test rulesets
    _decoders: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # -- the record's event union: the ruleset's events plus the core's ----------------------------
    @property
    def record_event_type(self) -> Any:
        t = self._decoders.get("record_event_type")
        if t is None:
            core = tuple(PositionPrepared[self.state_type] if e is PositionPrepared else e for e in CORE_EVENTS)
            members = _union_members(self.event_type) + core
            t = self._decoders["record_event_type"] = Union[members]  # type: ignore[valid-type]
        return t

    def command_decoder(self) -> msgspec.json.Decoder[Any]:
        dec = self._decoders.get("command")
        if dec is None:
            dec = self._decoders["command"] = msgspec.json.Decoder(self.command_type)
        return dec

    def envelope_decoder(self) -> msgspec.json.Decoder[Any]:
        dec = self._decoders.get("envelope")
        if dec is None:
            dec = self._decoders["envelope"] = msgspec.json.Decoder(Envelope[self.record_event_type])
        return dec

    def envelope_converter(self, raw: Any) -> Envelope[E]:
        return msgspec.convert(raw, Envelope[self.record_event_type])

    def command_from_builtins(self, raw: Any) -> C:
        """A command from JSON values (a sealed choice as recorded); raises msgspec.ValidationError."""
        return msgspec.convert(raw, self.command_type)


def _union_members(t: Any) -> tuple[Any, ...]:
    args = getattr(t, "__args__", None)
    return tuple(args) if args else (t,)


# -- the registry -----------------------------------------------------------------------------------
_REGISTRY: dict[str, Callable[[], Ruleset[Any, Any, Any]]] = {}
_LOADED: dict[str, Ruleset[Any, Any, Any]] = {}
_LOADING = threading.Lock()
_DISCOVERED = False


def register(name: str, loader: Callable[[], Ruleset[Any, Any, Any]]) -> None:
    """Register a ruleset by name without an entry point (tests); ``loader`` runs once, on first use."""
    _REGISTRY[name.lower()] = loader
    _LOADED.pop(name.lower(), None)


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    with _LOADING:
        if not _DISCOVERED:
            for ep in entry_points(group=ENTRY_POINT_GROUP):
                _REGISTRY.setdefault(ep.name.lower(), _loader(ep))
            _DISCOVERED = True


def _loader(ep: Any) -> Callable[[], Ruleset[Any, Any, Any]]:
    """The entry point names a ``build() -> Ruleset``: imported and called on first use only."""
    return lambda: ep.load()()


def find_ruleset(name: str) -> Ruleset[Any, Any, Any]:
    _discover()
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
    _discover()
    return sorted(_REGISTRY)


TEST_RULESETS_ENV = "KIFU_TEST_RULESETS"


def offered_rulesets(environ: Mapping[str, str]) -> list[str]:
    """The rulesets a user is offered (``kifu play``, ``GET /rulesets``): every one but the
    test-only ones, which only ``KIFU_TEST_RULESETS=1`` in ``environ`` adds (the caller passes its
    environment in: the rules read none). A test ruleset's records still read everywhere."""
    tests = environ.get(TEST_RULESETS_ENV) == "1"
    return [name for name in ruleset_names() if tests or not find_ruleset(name).test_only]
