"""The contract a ruleset fulfils, grouped, and the registry that finds rulesets by entry point.

A ruleset is one package whose ``build()`` returns a ``Ruleset``, registered under the packaging
entry-point group ``kifu.rulesets``::

    [project.entry-points."kifu.rulesets"]
    reigeki = "kifu.domain.reigeki.ruleset:build"

As in OpenSpiel, a game is a small interface plus optional, discoverable extras. A ``Ruleset`` is
its name and rules version, the ``Decider`` every game must define (command, event and state
types; ``initial_state``, ``begin``, ``decide``, ``evolve``, ``legal``, ``awaiting``,
``outcome``, ``view``, ``command_of``), and six optional groups, each with defaults that suit
a game without that concern:

- ``Content``: what a match is played with besides the rules (the rules reference, the card set,
  decks and presets, the card catalogue, bots). Default: no cards, decks as given, the core's
  random bot.
- ``Presentation``: how front ends draw and describe it (layout, card names, what an event puts
  into play, the turn number, the declaration a ruling resolves). Default: an empty layout, cards by number.
- ``Visibility``: hidden information (redaction of events, the masked state bots simulate on,
  the card ids a seat may not see). Default: nothing is hidden.
- ``SpeedUps``: faster equivalents of the decider's own functions, used by the core's hot paths
  (``options`` for ``legal``, ``evolve_cases`` and ``evolve_run`` for ``evolve``). Default: none.
- ``Bench``: what only ``kifu bench`` asks for (a long match). Default: none.
- ``Notation``: the position notation's version and the checks that refuse an impossible position
  (``kifu.domain.core.position`` writes and reads the text). Default: ``<name>-pos/1``, no checks.
- ``Judging``: what a judge's backup and result need of the game (``judging.py``): the reshuffle
  that returns the random part to random, and how a judge's result is written into the state.
  Default: no reshuffle (a backup is refused where there is hidden information), the result in
  the state's ``outcome`` field where it has one.

The core names no game: the CLI, store, service and projections reach a game only through these
hooks. ``docs/adding-a-ruleset.md`` walks through writing one; ``tests/secretbid`` is the
smallest complete example and ``domain/<ruleset>/ruleset.py`` the five games' assembly.

Caches (decoders, the record fold) are not fields: ``dataclasses.replace`` makes a ruleset with
fresh ones, so a replaced hook is always the one used.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Generic, TypeVar, Union

import msgspec

from .bot import BotFactory, RandomBot
from .catalogue import Catalogue, Column
from .commit import CORE_EVENTS, PREPARED_CLAUSE, PositionPrepared
from .decks import LoadDeck, as_given
from .declared import Declaration, no_declaration
from .draft import Draft
from .envelope import Envelope, sorted_state
from .errors import UnknownRuleset
from .judging import judge_event_types
from .layout import Layout
from .notation import Notation
from .rng import Draws

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
T = TypeVar("T")

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
    interpretation: str = ""
    implemented_in: tuple[str, ...] = ()   # module:name of each definition declared for it (clauses.py)
    tested_in: tuple[str, ...] = ()        # path::name of each test named for it


# -- the defaults of the optional hooks ---------------------------------------------------------------
def _never(state: Any) -> bool:
    return False


def _as_given(value: T) -> T:
    return value


def _no_clauses() -> dict[str, ClauseEntry]:
    return {}


def _no_card_set() -> str:
    return ""


def _no_presets() -> list[str]:
    return []


def _empty_catalogue() -> Catalogue:
    return Catalogue(columns=(Column(key="name", title="name", kind="name"),
                              Column(key="text", title="text", kind="text")), rows=())


def _no_layout(view: Any) -> Layout:
    return Layout(ruleset="?")


def _nothing_played(state: Any, event: Any) -> str | None:
    return None


def _turn_field(state: Any) -> int:
    return getattr(state, "turn", 0)


def _shown_as_is(envelope: Envelope[E], seat: int | None) -> Envelope[E]:
    return envelope


def _no_card_refs(value: int) -> Iterable[int]:
    return ()


# -- the groups ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Decider(Generic[S, C, E]):
    """The game itself: what every ruleset must define (the decider of event sourcing).

    Seats are 1 and 2; ``None`` as a seat means the judge (sees everything). The core calls these
    on every decision and every event, so it binds them once per match, never per call."""

    command_type: Any                                    # tagged union of the decisions (msgspec)
    event_type: Any                                      # tagged union of the events (msgspec)
    state_type: Any                                      # the State struct (a prepared position decodes to it)
    initial_state: Callable[[Any], S]                    # (header) -> state before setup
    begin: Callable[[Any, S, Draft[S, E]], None]         # (header, state, draft): setup events
    decide: Callable[[S, int, C, Draft[S, E]], None]     # raises Illegal(clause, …); emits into the draft
    evolve: Callable[[S, E], S]                          # dumb fold, never validates; sees ChoiceSealed too
    legal: Callable[[S, int], list[C]]                   # every decision that seat may take now
    awaiting: Callable[[S], frozenset[int]]              # the seats the rules wait for (empty when over)
    outcome: Callable[[S], Outcome | None]               # None while the match goes on
    view: Callable[[S, int | None], Any]                 # what a seat may see (a msgspec Struct)
    command_of: Callable[[E], C | None]                  # the command a decision event records (the audit
    #   re-runs it through ``decide``); None for events that record no decision
    # -- optional: the clauses the core cites for the game, and whether a step is decided in secret
    sealed: Callable[[S], bool] = _never                 # the awaited step takes sealed (secret, simultaneous)
    #   decisions: the core records each seat's as a commitment and reveals them together (``commit.py``)
    prepared_clause: str = PREPARED_CLAUSE               # clause a prepared position (scenario, fork) cites
    decide_clause: str = ""                              # clause cited when a decision has no effect
    waiting_clause: Callable[[S], str] | None = None     # the clause that says whose decision it is now
    canonical_state: Callable[[S], bytes] = sorted_state  # the bytes a format-2 state digest is of: owned by
    #   the ruleset and versioned with its rules (a changed encoding is a new ``rules_version``); the default,
    #   sorted-field JSON under wire names, keeps records through any reordering or ``rename`` of fields


@dataclass(frozen=True, slots=True)
class Content:
    """What a match is played with besides the rules: the rules reference, cards, decks, bots."""

    clauses: Callable[[], dict[str, ClauseEntry]] = _no_clauses   # the rules reference (``kifu rules``)
    card_set_digest: Callable[[], str] = _no_card_set    # written into every header: which cards were played
    normalize_decks: Callable[[list[Any]], list[Any]] = _as_given  # validate deck lists (raises InvalidDeck)
    load_deck: LoadDeck = as_given                       # a preset name, or a deck file's name and text -> a deck
    presets: Callable[[], list[str]] = _no_presets       # the preset decks' names, the default pair first
    catalogue: Callable[[], Catalogue] = _empty_catalogue  # the card list ``kifu cards`` shows
    bots: Mapping[str, BotFactory] = field(default_factory=dict)  # name -> (seed) -> bot: "greedy" by
    #   convention; "random" is the core's (uniform over ``legal``) unless the game brings its own

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", {"random": RandomBot, **self.bots})


@dataclass(frozen=True, slots=True)
class Presentation:
    """How front ends draw and describe a match; the CLI and the viewer know no game's fields."""

    layout: Callable[[Any], Layout] = _no_layout        # a view drawn as neutral parts (zones, grids, counters)
    card_names: Callable[[Any], Callable[[int], str]] | None = None  # (state) -> card id -> name
    played: Callable[[Any, Any], str | None] = _nothing_played  # the card an event puts into play (stats)
    turn: Callable[[Any], int] = _turn_field             # the turn number a state is in
    concede: Callable[[int], Any] | None = None          # the command a seat concedes with: for people to
    #   offer, never in ``legal`` (a random bot would take it)
    declaration: Declaration = no_declaration            # (envelopes, seq) -> the declaration a ruling
    #   resolves (the skill on the stack, the attack, the sealed pick): ``why``'s second chain (``declared.py``)
    step_begun: Callable[[Any], str | None] | None = None  # the step an event begins, for the label of
    #   every event up to the next one, where the state keeps no word for it (novel's summon and magic phases)


@dataclass(frozen=True, slots=True)
class Visibility:
    """Hidden information; the default is a game of open information (everything is shown)."""

    redact: Callable[[Envelope[Any], int | None], Envelope[Any]] = _shown_as_is  # the ruleset's own events
    #   as a seat may see them (the core strips sealed choices itself)
    mask: Callable[[Any, int], Any] | None = None        # the state as a seat may know it (bots simulate on it)
    hidden_cards: Callable[[Any, int], Set[int]] | None = None  # card ids a seat may not see now
    #   (``kifu.domain.core.visibility`` scrubs them from its events): required with ``mask``, no default
    card_refs: Callable[[int], Iterable[int]] = _no_card_refs  # the card ids an int of an undeclared field
    #   may name (WORLFARD's targets: the card, or card*10+line); declare card fields CardId instead


@dataclass(frozen=True, slots=True)
class SpeedUps:
    """Faster equivalents of the decider's own functions; a game is right without any of them."""

    options: Callable[[Any, int], Sequence[Any]] | None = None  # ``legal`` in the same order, each decision
    #   built when read: what bots are shown (a random bot that draws an index builds one command, not hundreds)
    evolve_cases: Mapping[type, Callable[[Any, Any], Any]] | None = None  # ``evolve``'s own dispatch table
    #   (``evolve(s, e)`` is ``evolve_cases[type(e)](s, e)`` for every type it holds): the core folds each
    #   event through it directly, one call fewer per event. A ruleset that replaces ``evolve`` replaces this too
    evolve_run: Callable[[Any, Sequence[Any], Callable[[Any, Any], Any]], Any] | None = None  # (state,
    #   events, fold) -> the state ``fold`` makes of the events one at a time, where a ruleset can do once a
    #   run what ``evolve`` must do every event (novel: its card tuple); ``Match.fold`` reads with it


Run = Callable[[Any, Sequence[Any], Callable[[Any, Any], Any]], Any]   # an ``evolve_run``


def run_of_cases(cases: Mapping[type, Callable[[Any, Any], Any]]) -> Run:
    """An ``evolve_run`` for a ruleset that declares ``evolve_cases``: a run of events folded
    through the cases in one loop, one call fewer per event than the core's per-event ``fold``
    (which looks the same case up, then calls it); an event without a case (the core's own) goes
    to ``fold``. ``Match.fold`` reads a record this way."""
    case_of = cases.get

    def run(state: Any, events: Sequence[Any], fold: Callable[[Any, Any], Any]) -> Any:
        for event in events:
            case = case_of(type(event))
            state = fold(state, event) if case is None else case(state, event)
        return state

    return run


@dataclass(frozen=True, slots=True)
class Bench:
    """What only the benchmark asks for."""

    long_match: Callable[[int], tuple[list[Any], Any]] | None = None  # (seed) -> (decks, start state) of a
    #   match random play keeps going for 10,000+ events: the benchmark's long record (fold, seek, memory)
    longest: Callable[[int], tuple[list[Any], Any]] | None = None     # the same, of a match random play keeps
    #   going for 100,000+ events: how long a record the benchmark shows the engine can keep


def _outcome_field(state: Any, outcome: Outcome) -> Any:
    """A judge's result written into the state's ``outcome`` field (most games keep it there)."""
    return msgspec.structs.replace(state, outcome=outcome)


def shuffle_decks(state: Any, rng: Draws) -> Any:
    """Each seat's deck shuffled (a state with ``sides``, each with a ``deck``): the reshuffle of a
    judge's backup in games whose random part is the decks (MTG's IPG: what was drawn or seen
    after the backup point goes back and the library is shuffled)."""
    sides = tuple(msgspec.structs.replace(side, deck=rng.shuffled(side.deck)) for side in state.sides)
    return msgspec.structs.replace(state, sides=sides)


@dataclass(frozen=True, slots=True)
class Judging:
    """What a judge's acts need of the game (``kifu.domain.core.judging``)."""

    reshuffle: Callable[[Any, Draws], Any] | None = None   # (state backed up to, rng drawn at the backup's seq)
    #   -> the state with what one seat came to know returned to the random part; None: a game with hidden
    #   information refuses backups (one without any backs up as it is)
    end: Callable[[Any, Outcome], Any] | None = None      # (state, outcome) -> the state ended by a judge's
    #   result; None: the state's ``outcome`` field, where it has one (else a judge's result is refused)

    def ender(self, state_type: Any) -> Callable[[Any, Outcome], Any] | None:
        if self.end is not None:
            return self.end
        fields = getattr(state_type, "__struct_fields__", ())
        return _outcome_field if "outcome" in fields else None


@dataclass(frozen=True)
class Ruleset(Generic[S, C, E]):
    """A game: its name, its ``Decider`` and the optional groups. Data plus pure functions; the
    core drives them and never looks inside."""

    name: str
    rules_version: str
    decider: Decider[S, C, E]
    content: Content = field(default_factory=Content)
    presentation: Presentation = field(default_factory=Presentation)
    visibility: Visibility = field(default_factory=Visibility)
    speedups: SpeedUps = field(default_factory=SpeedUps)
    bench: Bench = field(default_factory=Bench)
    notation: Notation = field(default_factory=Notation)
    judging: Judging = field(default_factory=Judging)
    test_only: bool = False       # a ruleset for Kifu's own tests: not offered to users (``offered_rulesets``)
    _memo: dict[str, Any] = field(init=False, default_factory=dict, compare=False, repr=False)

    def memo(self, key: str, make: Callable[[], T]) -> T:
        """What ``make`` builds from this ruleset, built once (decoders, the record fold). The memo
        is no init field, so a ``dataclasses.replace`` of the ruleset starts with an empty one."""
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = make()
        return found

    # -- the record's event union: the ruleset's events plus the core's ----------------------------
    @property
    def record_event_type(self) -> Any:
        return self.memo("record_event_type", self._record_event_type)

    def _record_event_type(self) -> Any:
        state_type = self.decider.state_type
        # a type built from run-time values (the game's state and event types): no static type has it
        core = tuple(PositionPrepared[state_type] if e is PositionPrepared else e  # type: ignore[valid-type]
                     for e in CORE_EVENTS)
        core += judge_event_types(state_type)
        return Union[_union_members(self.decider.event_type) + core]  # noqa: UP007

    def command_decoder(self) -> msgspec.json.Decoder[Any]:
        return self.memo("command", lambda: msgspec.json.Decoder(self.decider.command_type))

    def envelope_decoder(self) -> msgspec.json.Decoder[Any]:
        return self.memo("envelope", lambda: msgspec.json.Decoder(self._envelope_type()))

    def _envelope_type(self) -> Any:
        return Envelope[self.record_event_type]  # type: ignore[name-defined]   # (the same: built at run time)

    def envelope_converter(self, raw: Any) -> Envelope[E]:
        envelope: Envelope[E] = msgspec.convert(raw, self._envelope_type())
        return envelope

    def command_from_builtins(self, raw: Any) -> C:
        """A command from JSON values (a sealed choice as recorded); raises msgspec.ValidationError."""
        command: C = msgspec.convert(raw, self.decider.command_type)
        return command


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
                if found.visibility.mask is not None and found.visibility.hidden_cards is None:
                    raise TypeError(f"ruleset {found.name} has a mask but does not declare hidden_cards: "
                                    "which card ids a seat may not see is the ruleset's to say")
                found.command_decoder()
                found.envelope_decoder()
                msgspec.json.Decoder(found.decider.event_type)
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
