"""An event's stream in the match store: its entries round-trip, a stale write is a conflict, the
match index and the standings read model leave it alone (SQLite and PostgreSQL)."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kifu.domain.core.errors import Conflict
from kifu.domain.tournament.events import Entry, EventCreated, PlayerRegistered
from kifu.service.events import stream_of
from kifu.store import MatchStore
from kifu.store.standings import open_standings


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "kifu.db")
    else:
        yield request.getfixturevalue("pg_url")


def test_an_event_stream_round_trips_and_refuses_a_stale_write(db_url: str) -> None:
    key = stream_of("cup")
    first = [Entry(seq=1, event=EventCreated(name="cup", ruleset="reigeki"), at="2026-01-01T00:00:00Z"),
             Entry(seq=2, event=PlayerRegistered(player="ann", deck_name="d", commitment="c", deck={"x": [1, 2]}))]
    with MatchStore.open(db_url) as store:
        store.append_entries(key, first)
        with pytest.raises(Conflict):
            store.append_entries(key, [Entry(seq=2, event=PlayerRegistered(player="bob", deck_name="d",
                                                                           commitment="c", deck={}))])
    with MatchStore.open(db_url) as store:
        assert store.entries(key) == first
        assert store.entries(key, after_seq=1) == first[1:]
        assert store.list_matches() == []                   # an event is no match
        standings = open_standings(store)
        try:
            assert standings.catch_up() == 2                # read past, not folded as a match
            assert standings.report().matches == 0
        finally:
            standings.close()
