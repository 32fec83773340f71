"""Penalties across matches: every ``JudgePenalty`` of a record as one row (``kifu penalties``).

A judge looking for an upgrade (a second Warning for the same infraction in an event) needs the
penalties of every round: the row carries the event, round and table from the header and the
penalised player's name, so the CLI can filter by any of them.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header
from kifu.domain.core.judging import JudgePenalty

FIELDS = ("time", "event", "round", "table", "match_id", "seq", "seat", "player", "infraction", "penalty",
          "judge", "note")


class PenaltyRow(msgspec.Struct, frozen=True, kw_only=True):
    time: str
    event: str
    round: str
    table: str
    match_id: str
    seq: int
    seat: int
    player: str
    infraction: str
    penalty: str
    judge: str
    note: str


def penalty_rows(header: Header, envelopes: Sequence[Envelope[Any]]) -> list[PenaltyRow]:
    """The penalties recorded in one match, in record order."""
    rows = []
    for env in envelopes:
        event = env.event
        if isinstance(event, JudgePenalty):
            player = header.players[event.seat - 1] if event.seat in (1, 2) else ""
            rows.append(PenaltyRow(time=event.time or "", event=header.event or "", round=header.round or "",
                                   table=header.table or "", match_id=header.match_id, seq=env.seq, seat=event.seat,
                                   player=player, infraction=event.infraction, penalty=event.penalty,
                                   judge=event.judge, note=event.note))
    return rows
