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


class Problem(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Every error: ``error`` is the kind (malformed, illegal, conflict, unknown_match,
    unauthorized, forbidden, match_over, too_large, unavailable, internal); ``message`` says what."""

    error: str
    message: str
    clause: str | None = None    # illegal: the rule clause that forbids it
    seq: int | None = None       # conflict: the match's current seq
