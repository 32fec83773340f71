"""The events of a tournament's stream, and the commands an organiser (or the service) gives.

Everything a result depends on is in an event: the registered decklist (its commitment and the
list itself, hidden from other players until published), each round's pairings, each game's
match id, each table's result and where it came from, drops, late entries and a judge's
corrections with their reasons.
"""
from __future__ import annotations

from typing import Any, Literal

import msgspec

Stage = Literal["swiss", "top"]


class _Event(msgspec.Struct, frozen=True, tag=True, kw_only=True, omit_defaults=True):
    pass


class EventCreated(_Event, frozen=True, kw_only=True):
    name: str
    ruleset: str
    rounds: int = 0            # Swiss rounds; 0: from the player count when round 1 is paired (``auto``)
    top_cut: int = 0           # single elimination of the top N after the Swiss rounds (0, 2, 4, 8, …)
    best_of: int = 1           # games per match: 1 or 3
    spec: str = "mtr-c"        # the tiebreaker spec the standings use (``standings.SPECS``)


class PlayerRegistered(_Event, frozen=True, kw_only=True):
    player: str
    deck_name: str
    commitment: str            # SHA-256 of the list's canonical JSON: what the deck check compares against
    deck: Any                  # the list itself (the judge's and organiser's; hidden from players until published)
    missed: int = 0            # a late entry: the rounds already paired, each a match loss (MTR 2.x)


class DecklistCorrected(_Event, frozen=True, kw_only=True):
    """A change to a locked list, approved by a judge: the new list and commitment, and why."""

    player: str
    deck_name: str
    commitment: str
    deck: Any
    judge: str
    reason: str


class Table(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    table: int
    seat1: str                 # goes first in game 1 (seat balance: see swiss.py)
    seat2: str | None = None   # None: a bye for seat1


class RoundPaired(_Event, frozen=True, kw_only=True):
    round: int
    stage: Stage = "swiss"
    rounds: int = 0            # round 1 of an ``auto`` event fixes the number of Swiss rounds here
    tables: tuple[Table, ...]


class GameStarted(_Event, frozen=True, kw_only=True):
    round: int
    table: int
    game: int                  # 1, 2, 3 of a best-of-three
    match_id: str
    seat1: str                 # who is seat 1 in this game (the players alternate)
    commitments: tuple[str, str]   # the lists the match's decks were checked against


class ResultRecorded(_Event, frozen=True, kw_only=True):
    """A table's result, from its matches' end marks: games won by the table's seat1 and seat2."""

    round: int
    table: int
    wins: tuple[int, int]
    draws: int = 0
    games: tuple[str, ...] = ()       # the match ids it was read from, in order
    signed: bool = False              # every end mark was signed by the service's key


class ResultCorrected(_Event, frozen=True, kw_only=True):
    round: int
    table: int
    wins: tuple[int, int]
    draws: int = 0
    judge: str
    reason: str


class PlayerDropped(_Event, frozen=True, kw_only=True):
    player: str
    after_round: int           # not paired from the next round on


class DecksPublished(_Event, frozen=True, kw_only=True):
    why: str = "organiser"          # or "top cut"
    players: tuple[str, ...] = ()   # whose lists; empty: everyone's


Event = (EventCreated | PlayerRegistered | DecklistCorrected | RoundPaired | GameStarted | ResultRecorded
         | ResultCorrected | PlayerDropped | DecksPublished)


class Entry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One stored row of an event's stream: its position, the event, when it was stored."""

    seq: int
    event: Event
    at: str | None = None


# -- commands -----------------------------------------------------------------------------------
class Create(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    ruleset: str
    rounds: int = 0
    top_cut: int = 0
    best_of: int = 1
    spec: str = "mtr-c"


class Register(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    deck_name: str
    deck: Any                  # already validated by the ruleset (the application's job: rules read no files)
    judge: str | None = None   # a change after the lists locked needs a judge and a reason
    reason: str | None = None


class Pair(msgspec.Struct, frozen=True, kw_only=True):
    pass


class StartGame(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    table: int
    match_id: str


class Record(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    table: int
    winners: tuple[str | None, ...]    # per game (match id in ``games``): the player who won it, None a draw
    games: tuple[str, ...]
    signed: bool = False


class Correct(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    table: int
    wins: tuple[int, int]
    draws: int = 0
    judge: str
    reason: str


class Drop(msgspec.Struct, frozen=True, kw_only=True):
    player: str


class Publish(msgspec.Struct, frozen=True, kw_only=True):
    why: str = "organiser"


Command = Create | Register | Pair | StartGame | Record | Correct | Drop | Publish
