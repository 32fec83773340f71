"""The match index: one row per match, written in the same transaction as the match's events.

Listing matches from the event rows alone would mean scanning every stream; the index keeps
ruleset, players, last seq and outcome at hand. Its ``seq`` column doubles as the optimistic
concurrency check: an append updates it only ``WHERE seq = expected``, so a stale writer changes
nothing, and neither can a writer that claims a seq the match has not reached (no gaps).
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, Protocol
from uuid import UUID

import msgspec
from eventsourcing.persistence import Notification, StoredEvent

from kifu.domain.core.ruleset import Outcome

MATCHES_TABLE = "kifu_matches"
EVENTS_TABLE = "kifu_events"

Status = Literal["ongoing", "over"]


class MatchSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One line of the match list: enough to pick a match without folding it."""

    match_id: str
    ruleset: str
    players: tuple[str, str]
    seq: int
    status: Status = "ongoing"
    outcome: Outcome | None = None


class IndexWrite(NamedTuple):
    """What an insert does to the index row, inside the events' transaction.

    ``expected`` None creates the row (and fails if it exists); otherwise the row must be at
    ``expected`` and moves to ``seq``. ``outcome`` is JSON, or None to keep the stored one.
    """

    match_id: str
    expected: int | None
    seq: int
    ruleset: str = ""
    players: str = ""
    outcome: str | None = None


class IndexRow(NamedTuple):
    match_id: str
    ruleset: str
    players: str
    seq: int
    outcome: str | None


class IndexedRecorder(Protocol):
    """An eventsourcing application recorder that also keeps the match index."""

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None: ...
    def select_events(self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None,
                      desc: bool = False, limit: int | None = None) -> Sequence[StoredEvent]: ...
    def select_notifications(self, start: int | None, limit: int, stop: int | None = None,
                             topics: Sequence[str] = (), *,
                             inclusive_of_start: bool = True) -> Sequence[Notification]: ...
    def max_notification_id(self) -> int | None: ...
    def select_index_row(self, match_id: str) -> IndexRow | None: ...
    def select_index_rows(self) -> list[IndexRow]: ...


_players_decoder = msgspec.json.Decoder(tuple[str, str])
_outcome_decoder = msgspec.json.Decoder(Outcome)
_encoder = msgspec.json.Encoder()


def encode_players(players: tuple[str, str]) -> str:
    return _encoder.encode(players).decode()


def encode_outcome(outcome: Outcome | None) -> str | None:
    return None if outcome is None else _encoder.encode(outcome).decode()


def summary(row: IndexRow) -> MatchSummary:
    outcome = None if row.outcome is None else _outcome_decoder.decode(row.outcome)
    return MatchSummary(match_id=row.match_id, ruleset=row.ruleset, players=_players_decoder.decode(row.players),
                        seq=row.seq, status="ongoing" if outcome is None else "over", outcome=outcome)


def conflict_message(write: IndexWrite) -> str:
    if write.expected is None:
        return f"match {write.match_id} already exists"
    return f"match {write.match_id} is not at seq {write.expected} (or does not exist)"

