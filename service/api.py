"""The wire schema of the match service: every request and response body is one of these Structs.

Requests are untrusted input: ``forbid_unknown_fields`` and bounded sizes, decoded by msgspec
before a handler runs. Ruleset-specific payloads (a command, a view, an event) travel as the
ruleset's own tagged Structs; here they are ``Any`` and the ruleset's decoder checks them.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from kifu.domain.core.ruleset import Outcome

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=256)]
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
# A preset name (``GET /rulesets`` lists them) or a deck list the ruleset validates.
DeckSpec = Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | dict[str, Any]
Status = Literal["ongoing", "over"]


class RequestBody(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Options every request body shares: untrusted input, so unknown fields are refused.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class ResponseBody(msgspec.Struct, frozen=True):
    """Options every response body shares (subclasses repeat ``frozen`` and ``kw_only``, as requests do)."""


# -- requests -----------------------------------------------------------------------------------
class CreateMatch(RequestBody, frozen=True, kw_only=True):
    """A new match. ``decks``: seat 1's, then seat 2's (default: the ruleset's first two presets).

    There is no ``seed``: the service draws it, so no creator can choose the shuffles. The match
    commits to it (``seed_commitment``) and reveals it when the match ends."""

    ruleset: Name = "worlfard"
    decks: tuple[DeckSpec, DeckSpec] | None = None
    players: tuple[Name, Name] = ("seat 1", "seat 2")
    event: Name | None = None      # tournament metadata for the record's header
    round: Name | None = None
    table: Name | None = None


class Decision(RequestBody, frozen=True, kw_only=True):
    """A seat's decision, based on the match as it stood at ``seq`` (stale: 409, nothing stored)."""

    # a JSON integer, however it is written (``5`` or ``5.0``: JSON does not tell them apart)
    seq: Annotated[int, msgspec.Meta(ge=0)] | Annotated[float, msgspec.Meta(ge=0, multiple_of=1)]
    command: dict[str, Any]   # one of the ruleset's commands, e.g. {"type": "Attack", "line": 2}


Glyph = Literal["", "!", "?", "!?", "?!", "!!", "??"]
Arrow = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9#:._/]{1,40}(-[A-Za-z0-9#:._/]{1,40})?$")]


class NewNote(RequestBody, frozen=True, kw_only=True):
    """A note on event ``seq`` (0: the match as a whole), outside the match's events and chain.
    ``author`` defaults to the caller's player name (the judge: "judge"); ``public``: a judge's
    note the seats may see (a seat's note is only ever seen by its seat and the judge)."""

    seq: Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
    text: Annotated[str, msgspec.Meta(max_length=4000)] = ""
    glyph: Glyph = ""
    arrows: Annotated[tuple[Arrow, ...], msgspec.Meta(max_length=16)] = ()
    variation: Annotated[str, msgspec.Meta(max_length=80)] = ""   # a match forked from this one
    author: Name | None = None
    public: bool = False


Text = Annotated[str, msgspec.Meta(min_length=1, max_length=2000)]
SeqNo = Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]


class JudgeAct(RequestBody, frozen=True, kw_only=True):
    """A judge's act (judge token only): ``act`` says which, and the fields it needs are given.

    - ``call``: ``seat`` (who called), ``at`` (the seq it is about), ``question``;
    - ``ruling``: ``call`` (the call's seq), ``clause`` (a clause id of the ruleset), ``text``,
      ``decision`` (``upheld`` or ``changed``);
    - ``backup``: ``to`` (the seq of the decision taken again), optional ``reason``;
    - ``penalty``: ``seat``, ``infraction``, ``penalty`` (from the service's penalty list), optional ``note``;
    - ``extend``: ``seat``, ``minutes``, optional ``reason``;
    - ``result``: ``result`` (``game loss`` with the ``seat`` that loses, or ``draw``), ``reason``.

    ``signer``, ``key`` and ``signature`` (base64 Ed25519) sign the act as the judge's own
    (``docs/judging.md`` says what bytes); the service stamps the time."""

    act: Literal["call", "ruling", "backup", "penalty", "extend", "result"]
    judge: Name
    seat: Annotated[int, msgspec.Meta(ge=0, le=9)] | None = None
    at: SeqNo | None = None
    call: SeqNo | None = None
    to: SeqNo | None = None
    question: Text | None = None
    clause: Name | None = None
    text: Text | None = None
    decision: Literal["upheld", "changed"] | None = None
    reason: Text | None = None
    infraction: Name | None = None
    penalty: Name | None = None
    note: Text | None = None
    minutes: Annotated[int, msgspec.Meta(ge=1, le=600)] | None = None
    result: Literal["game loss", "draw"] | None = None
    signer: Name | None = None
    key: Annotated[str, msgspec.Meta(max_length=100)] | None = None
    signature: Annotated[str, msgspec.Meta(max_length=200)] | None = None


# -- responses ----------------------------------------------------------------------------------
class MatchTokens(ResponseBody, frozen=True, kw_only=True):
    """Shown once, at creation; the service keeps only their SHA-256 digests."""

    seat1: str
    seat2: str
    judge: str


class MatchCreated(ResponseBody, frozen=True, kw_only=True):
    match_id: str
    ruleset: str
    players: tuple[str, str]
    seq: int
    awaiting: list[int]
    tokens: MatchTokens
    seed_commitment: str | None = None


class MatchInfo(ResponseBody, frozen=True, kw_only=True):
    """One line of the match list: public to anyone who can reach the service."""

    match_id: str
    ruleset: str
    players: tuple[str, str]
    seq: int
    status: Status
    outcome: Outcome | None = None
    seed_commitment: str | None = None   # the service's commitment to the seed it drew (revealed at the end)


class MatchList(ResponseBody, frozen=True, kw_only=True):
    matches: list[MatchInfo]


class SeatView(ResponseBody, frozen=True, kw_only=True):
    """What the caller may see now. ``seat`` None: the judge (everything). ``legal``: the
    decisions the caller may submit now (for the judge: those of the awaited seat, when one is).
    ``layout``: the view drawn as the ruleset's neutral layout. ``position``: the ruleset's mask
    of the state for this seat (only when asked for: bots that simulate need it)."""

    match_id: str
    ruleset: str
    players: tuple[str, str]
    seat: int | None
    seq: int
    awaiting: list[int]
    outcome: Outcome | None
    view: Any
    legal: list[Any]
    layout: Any = None
    position: Any = None


class DecisionResult(ResponseBody, frozen=True, kw_only=True):
    """The events after the decision's ``seq`` (its own and any after it) as the seat may see them."""

    match_id: str
    seq: int
    awaiting: list[int]
    outcome: Outcome | None
    events: list[Any]
    legal: list[Any]          # the caller's decisions now (empty unless it is awaited again)


class JudgeRecorded(ResponseBody, frozen=True, kw_only=True):
    """The judge's act as recorded (and the seed's reveal when a result ends the match)."""

    match_id: str
    seq: int
    awaiting: list[int]
    outcome: Outcome | None
    events: list[Any]


class EventsPage(ResponseBody, frozen=True, kw_only=True):
    """Envelopes with seq > ``after``, at most ``limit`` of them, redacted for the caller."""

    match_id: str
    after: int
    events: list[Any]
    more: bool               # true: ask again with after = the last seq here


class StreamStatus(ResponseBody, frozen=True, kw_only=True):
    """Sent on the live stream after each batch of envelopes; ``legal``: the caller's decisions
    when the rules wait for it (so a seat can decide without asking for its view first)."""

    seq: int
    awaiting: list[int]
    outcome: Outcome | None
    legal: list[Any] = []


class RulesetInfo(ResponseBody, frozen=True, kw_only=True):
    name: str
    rules_version: str
    presets: list[str]


class Rulesets(ResponseBody, frozen=True, kw_only=True):
    rulesets: list[RulesetInfo]


class NoteOut(ResponseBody, frozen=True, kw_only=True):
    """A stored note (``kifu.domain.core.notes.Note``). ``chain`` (the noted event's link) is the
    judge's only: a seat gets no chain links, as in its events."""

    kifu: str = "note"
    match_id: str
    number: int
    seq: int
    chain: str = ""
    author: str
    role: str = ""
    at: str
    text: str = ""
    glyph: str = ""
    arrows: tuple[str, ...] = ()
    variation: str = ""
    public: bool = False
    signer: str = ""
    key: str = ""
    signature: str = ""


class NoteList(ResponseBody, frozen=True, kw_only=True):
    """The notes the caller may see, in the order they were added: the judge sees all; a seat its
    own and the judge's public ones."""

    match_id: str
    notes: list[NoteOut]


# -- the delayed public feed (kifu.service.feed) --------------------------------------------------
class SeatClockInfo(ResponseBody, frozen=True, kw_only=True):
    """A seat's clock (``kifu.projections.clocks``) up to the seq shown: seconds."""

    seat: int
    decisions: int
    total: float
    median: float
    longest: float


class RoundTimer(ResponseBody, frozen=True, kw_only=True):
    """An event round's timer for one match (``kifu.projections.clocks.round_clock``) at the time
    of the answer: seconds; ``remaining`` below 0 is over time."""

    started: str
    minutes: float
    extension: float        # minutes a judge added (TimeExtension), as far as the feed shows the match
    elapsed: float
    remaining: float


class FeedTable(ResponseBody, frozen=True, kw_only=True):
    """A featured match as the public sees it now: ``seq`` is the last event shown (the match
    itself may be further on), ``status`` and ``outcome`` are as of that event."""

    match_id: str
    ruleset: str
    players: tuple[str, str]
    event: str | None = None
    round: str | None = None
    table: str | None = None
    seq: int
    status: Status
    outcome: Outcome | None = None
    clocks: list[SeatClockInfo] = []
    timer: RoundTimer | None = None      # with a round length (kifu serve --round-minutes), for a match of a round


class StandingLine(ResponseBody, frozen=True, kw_only=True):
    name: str
    played: int
    won: int
    lost: int
    drawn: int
    ongoing: int        # a featured match counts as ongoing until the feed shows its end


class FeedIndex(ResponseBody, frozen=True, kw_only=True):
    """The featured tables and the standings beside them."""

    delay: str                  # e.g. "10 decisions", "30 seconds", "none"
    tables: list[FeedTable]
    standings: list[StandingLine]


class FeedMatch(ResponseBody, frozen=True, kw_only=True):
    """One featured match, public and delayed: its envelopes after ``after`` up to ``table.seq``,
    redacted for the public, and the board at ``table.seq`` as the ruleset's neutral layout."""

    delay: str
    table: FeedTable
    after: int
    events: list[Any]
    layout: Any = None


class Problem(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Every error: ``error`` is the kind (malformed, illegal, conflict, unknown_match,
    unauthorized, forbidden, match_over, too_large, unavailable, internal); ``message`` says what."""

    error: str
    message: str
    clause: str | None = None    # illegal: the rule clause that forbids it
    seq: int | None = None       # conflict: the match's current seq
