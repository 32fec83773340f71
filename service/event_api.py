"""The wire schema of the tournament routes (``/events``): requests and answers as Structs."""
from __future__ import annotations

from typing import Annotated, Any

import msgspec

from .api import DeckSpec, MatchTokens, Name, RequestBody, ResponseBody

Text = Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
EventName = Annotated[str, msgspec.Meta(min_length=1, max_length=48, pattern=r"^[a-z0-9][a-z0-9_-]*$")]


class CreateEvent(RequestBody, frozen=True, kw_only=True):
    name: EventName
    ruleset: Name
    rounds: Annotated[int, msgspec.Meta(ge=0, le=30)] = 0       # 0: auto, from the player count
    top_cut: Annotated[int, msgspec.Meta(ge=0, le=64)] = 0
    best_of: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1


class Registration(RequestBody, frozen=True, kw_only=True):
    player: Name
    deck: DeckSpec                     # a preset name or a deck list
    judge: Name | None = None          # a change to a locked list: the approving judge
    reason: Text | None = None


class Drop(RequestBody, frozen=True, kw_only=True):
    player: Name


class Correction(RequestBody, frozen=True, kw_only=True):
    round: Annotated[int, msgspec.Meta(ge=1, le=100)]
    table: Annotated[int, msgspec.Meta(ge=1, le=10_000)]
    wins: tuple[Annotated[int, msgspec.Meta(ge=0, le=9)], Annotated[int, msgspec.Meta(ge=0, le=9)]]
    draws: Annotated[int, msgspec.Meta(ge=0, le=9)] = 0
    judge: Name
    reason: Text


class EventCreated(ResponseBody, frozen=True, kw_only=True):
    name: str
    ruleset: str
    organiser_token: str               # shown once; the service keeps its SHA-256 digest


class PlayerInfo(ResponseBody, frozen=True, kw_only=True):
    player: str
    deck_name: str | None = None       # hidden (None) until the lists are published, or the organiser asks
    commitment: str
    deck: Any = None
    dropped_after: int | None = None
    missed: int = 0


class GameInfo(ResponseBody, frozen=True, kw_only=True):
    round: int
    table: int
    game: int
    match_id: str
    players: tuple[str, str]
    tokens: MatchTokens | None = None  # only in the organiser's answer that created the match


class TableInfo(ResponseBody, frozen=True, kw_only=True):
    table: int
    seat1: str
    seat2: str | None = None
    games: list[str] = []
    wins: list[int] | None = None      # games won by seat1 and seat2 (None: not recorded yet)
    draws: int = 0
    signed: bool = False
    corrected: str | None = None


class RoundInfo(ResponseBody, frozen=True, kw_only=True):
    round: int
    stage: str
    tables: list[TableInfo]


class EventInfo(ResponseBody, frozen=True, kw_only=True):
    name: str
    ruleset: str
    rounds: int                        # Swiss rounds (0: auto, not fixed until round 1 is paired)
    top_cut: int
    best_of: int
    spec: str
    locked: bool
    published: str | None = None
    players: list[PlayerInfo]
    pairings: list[RoundInfo]


class Paired(ResponseBody, frozen=True, kw_only=True):
    round: int
    stage: str
    tables: list[TableInfo]
    games: list[GameInfo]              # the matches created, with their seat tokens (organiser only)


class Collected(ResponseBody, frozen=True, kw_only=True):
    """What reading the round's end marks did: results recorded, next games started."""

    round: int
    recorded: list[TableInfo]
    games: list[GameInfo]
    open: list[int]                    # tables still playing
