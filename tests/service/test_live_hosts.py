"""Live across hosts: two service processes (app instances) on one PostgreSQL database; a stream
on host A gets the decisions stored through host B by LISTEN/NOTIFY, with nothing polling and no
heartbeat re-read (both set to an hour). Correctness only: the latency is measured by
``kifu loadtest --cross-host`` (docs/service.md), never asserted here."""
from __future__ import annotations

import queue
from typing import Any

import httpx
import msgspec
from httpplay import Player, create
from test_stream import follow, take

from kifu.service import create_app
from kifu.service.server import BackgroundServer
from kifu.store.config import resolve
from kifu.store.live import Listener, live_channel, parse

HOUR = 3600.0
ENV = {"KIFU_TEST_RULESETS": "1"}


def _host(url: str) -> BackgroundServer:
    return BackgroundServer(_app(url), grace=0.2)


def _app(url: str) -> Any:
    return create_app(url, environ=ENV, poll_interval=HOUR, heartbeat=HOUR)


def test_a_decision_stored_by_one_host_reaches_the_streams_of_another_by_notify(pg_url: str) -> None:
    app_a = _app(pg_url)
    with BackgroundServer(app_a, grace=0.2) as a, _host(pg_url) as b, \
            httpx.Client(base_url=b.url, timeout=10) as http_b:
        created = create(http_b, seed=5)
        mid, start = created["match_id"], created["seq"]
        streams = {role: queue.Queue[Any]() for role in ("seat1", "judge")}
        for role, q in streams.items():
            follow(a.url, mid, created["tokens"][role], q, after=start)
            assert take(q, lambda m: True)[0].event == "status"
        player = Player(http_b, created, seed=4)
        for _ in range(6):                       # one decision at a time: each must arrive on its own
            player.step()
            seq = player.view()["seq"]
            for q in streams.values():
                got = take(q, lambda m, seq=seq: m.event == "status" and msgspec.json.decode(m.data)["seq"] == seq,
                           timeout=5)
                assert all(int(m.id) <= seq for m in got if m.event == "envelope")
        hub_a = app_a.state.hub
        assert hub_a.listens and hub_a.polls == 0 and hub_a.notices >= 6


def test_hosts_on_other_schemas_are_not_woken(pg_url: str) -> None:
    config = resolve(pg_url)
    assert live_channel(config.env["POSTGRES_SCHEMA"]) != live_channel("public")
    assert len(live_channel("x" * 60)) < 64
    assert parse("a:1,b:22,garbage,:3,c:x") == [("a", 1), ("b", 22)]


def test_the_listener_hears_each_commit_with_the_matches_it_moved(pg_url: str) -> None:
    import asyncio

    from kifu.domain.core.match import Match
    from kifu.domain.core.ruleset import find_ruleset
    from kifu.store import MatchStore

    rules = find_ruleset("worlfard")
    decks = [rules.content.load_deck(p) for p in rules.content.presets()[:2]]
    ids = [f"00000000-0000-4000-8000-00000000000{n}" for n in (1, 2)]

    async def run() -> list[tuple[str, int]]:
        heard: list[tuple[str, int]] = []
        with MatchStore.open(pg_url) as store:
            async with Listener(store.config) as listener:
                for match_id in ids:
                    match = Match.create(rules, match_id=match_id, seed=1, decks=decks, players=("a", "b"))
                    await asyncio.to_thread(store.create, match)
                async for changes in listener.changes():
                    heard.extend(changes)
                    if len(heard) >= 2:
                        return heard
        return heard

    heard = asyncio.run(asyncio.wait_for(run(), 10))
    assert [match_id for match_id, _ in heard] == ids and all(seq > 0 for _, seq in heard)
