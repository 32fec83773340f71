"""The sizes a record may have, checked where a record is written (``kifu play``) and where one
is taken in (``kifu import``), so Kifu never writes a record it would then refuse."""
from __future__ import annotations

from typing import NamedTuple

import msgspec

from kifu.domain.core.header import Header

NAME_MAX = 64              # a player's name, as the service's API allows
LABEL_MAX = NAME_MAX * 2   # a tournament label: the event, round, table, date
DECK_MAX = 16 * 1024       # one deck list as JSON (a 60-card list with names is ~2 KiB)
EVENTS_MAX = 1_000_000


class OverLimit(NamedTuple):
    field: str    # the header field: players, decks, event, round, table, date
    what: str     # the reason, in one line


def over_limits(header: Header) -> OverLimit | None:
    """The first header field over its limit, or None."""
    for seat, name in enumerate(header.players, start=1):
        if not 1 <= len(name) <= NAME_MAX:
            return OverLimit("players", f"player {seat}'s name has {len(name)} characters; "
                                        f"1 to {NAME_MAX} are allowed")
    for field in ("event", "round", "table", "date"):    # the tournament's labels, where the header has them
        value = getattr(header, field, None)
        if isinstance(value, str) and len(value) > LABEL_MAX:
            return OverLimit(field, f"header {field} has {len(value)} characters; at most {LABEL_MAX} are allowed")
    for seat, deck in enumerate(header.decks, start=1):
        size = len(msgspec.json.encode(deck))
        if size > DECK_MAX:
            return OverLimit("decks", f"deck {seat} is {size} bytes of JSON; at most {DECK_MAX} are allowed")
    return None
