"""The delayed public feed over HTTP (kifu.service.feed): featured matches only, public (no hidden
card, no sealed choice, no seed), N decisions or seconds behind, standings beside them that do not
tell a featured result early, live on a stream; ``kifu serve`` refuses a feature without a delay."""
from __future__ import annotations

import queue
import threading
import time
from typing import Any

import httpx
import msgspec
import pytest
from click.testing import CliRunner
from httpplay import Player, bearer, create, store_finished
from litestar.testing import TestClient

from kifu.cli.main import cli
from kifu.domain.core.record import decode_record
from kifu.projections.feed import Delay, PublicStream, public_cut
from kifu.service import create_app
from kifu.service.client import parse_sse
from kifu.service.feed import ALL, FeedConfig
from kifu.service.server import BackgroundServer

ENV = {"KIFU_TEST_RULESETS": "1"}


def client(**feed: Any) -> TestClient[Any]:
    return TestClient(create_app("memory", environ=ENV, feed=FeedConfig(**feed)))


def public_record(player: Player) -> tuple[Any, list[Any]]:
    header, envelopes, rules = decode_record(player.record(), "record")
    public = PublicStream(rules, rules.decider.initial_state(header)).redact(envelopes)
    return header, [msgspec.to_builtins(e) for e in public], envelopes


def test_a_featured_match_is_shown_public_and_n_decisions_behind() -> None:
    with client(featured=(ALL,), delay=Delay(decisions=3)) as api:
        created = create(api)
        player = Player(api, created, seed=2)
        player.play(12)
        header, public, envelopes = public_record(player)
        cut = public_cut(envelopes, Delay(decisions=3), time.time(), over=False)
        decisions = [e.seq for e in envelopes if e.kind == "decision"]
        assert cut == decisions[-3] - 1
        answer = api.get(f"/feed/{created['match_id']}")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["delay"] == "3 decisions" and body["table"]["seq"] == cut and body["table"]["status"] == "ongoing"
        assert body["events"] == msgspec.json.decode(msgspec.json.encode(public[:cut]))
        assert body["layout"]["viewer"] == 0 and body["layout"]["seats"]
        assert str(header.seed) not in answer.text and "seed" not in answer.text
        assert header.seed_nonce not in answer.text
        clocks = body["table"]["clocks"]
        assert sum(c["decisions"] for c in clocks) == len([s for s in decisions if s <= cut])
        later = api.get(f"/feed/{created['match_id']}", params={"after": cut - 2}).json()
        assert [e["seq"] for e in later["events"]] == [cut - 1, cut]
        index = api.get("/feed").json()
        assert [t["match_id"] for t in index["tables"]] == [created["match_id"]]
        assert {line["name"]: line["ongoing"] for line in index["standings"]} == {"ann": 1, "bob": 1}


def test_only_featured_matches_are_on_the_feed() -> None:
    with client(featured=("00000000-0000-4000-8000-000000000000",), delay=Delay(decisions=1)) as api:
        other = create(api)
        assert api.get(f"/feed/{other['match_id']}").status_code == 404
        assert api.get("/feed/00000000-0000-4000-8000-000000000000").status_code == 404   # featured, not created yet
        assert api.get("/feed/not-a-match").status_code == 400
        assert api.get("/feed").json()["tables"] == []


def test_a_finished_featured_match_keeps_its_result_off_the_standings_until_the_feed_shows_it() -> None:
    with client(featured=(ALL,), delay=Delay(seconds=3600)) as api:
        created = create(api)
        player = Player(api, created, seed=3)
        while player.step() is not None:
            pass
        index = api.get("/feed").json()
        (table,) = index["tables"]
        assert table["status"] == "ongoing" and table["outcome"] is None
        first = next(e.seq for e in decode_record(player.record(), "r")[1] if e.kind == "decision")
        assert table["seq"] == first - 1                    # an hour behind: the setup only
        lines = {line["name"]: line for line in index["standings"]}
        assert lines["ann"]["ongoing"] == lines["bob"]["ongoing"] == 1
        assert lines["ann"]["won"] == lines["ann"]["lost"] == lines["bob"]["won"] == lines["bob"]["lost"] == 0


def test_a_finished_match_is_shown_whole_after_a_delay_in_decisions() -> None:
    with client(featured=(ALL,), delay=Delay(decisions=5)) as api:
        match, _ = store_finished(api.app)
        body = api.get(f"/feed/{match.header.match_id}").json()
        assert body["table"]["seq"] == match.seq and body["table"]["status"] == "over"
        assert body["table"]["outcome"] == msgspec.to_builtins(match.outcome)
        lines = {line["name"]: line for line in api.get("/feed").json()["standings"]}
        assert lines["ann"]["ongoing"] == 0 and lines["ann"]["played"] == 1


def test_with_a_broadcast_token_the_feed_is_for_its_holders_only() -> None:
    with client(featured=(ALL,), delay=Delay(decisions=1), token="s3cret") as api:
        assert api.get("/feed").status_code == 401
        assert api.get("/feed", headers=bearer("wrong")).status_code == 401
        assert api.get("/feed", headers=bearer("s3cret")).status_code == 200


def test_the_feed_stream_sends_each_event_as_it_becomes_public_then_ends() -> None:
    app = create_app("memory", environ=ENV, feed=FeedConfig(featured=(ALL,), delay=Delay(decisions=2)))
    with BackgroundServer(app, grace=0.2) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        created = create(http)
        mid = created["match_id"]
        got: queue.Queue[Any] = queue.Queue()

        def follow() -> None:
            with httpx.Client(base_url=server.url, timeout=30) as watcher, \
                    watcher.stream("GET", f"/feed/{mid}/stream") as response:
                for message in parse_sse(response.iter_lines()):
                    got.put(message)
                    if message.event == "end":
                        break
            got.put(None)

        threading.Thread(target=follow, daemon=True).start()
        messages = [got.get(timeout=10)]
        while messages[-1].event != "status":        # the setup first: public before any decision
            messages.append(got.get(timeout=10))
        assert msgspec.json.decode(messages[-1].data)["seq"] == len(messages) - 1
        player = Player(http, created, seed=5)
        while player.step() is not None:
            pass
        while (message := got.get(timeout=20)) is not None:
            messages.append(message)
        assert messages[-1].event == "end"
        header, public, envelopes = public_record(player)
        seqs = [int(m.id) for m in messages if m.event == "envelope"]
        assert seqs == list(range(1, len(envelopes) + 1))          # each once, in order, none missed
        sent = [msgspec.json.decode(m.data) for m in messages if m.event == "envelope"]
        assert sent == msgspec.json.decode(msgspec.json.encode(public))
        statuses = [msgspec.json.decode(m.data) for m in messages if m.event == "status"]
        assert len(statuses) > 2 and statuses[-1]["status"] == "over" and statuses[-1]["seq"] == len(envelopes)
        for status in statuses[:-1]:      # while on, every cut stops just before a decision: never ahead of it
            assert envelopes[status["seq"]].kind == "decision"


def test_the_feed_is_in_the_openapi_document(api: TestClient[Any]) -> None:
    paths = api.get("/schema/openapi.json").json()["paths"]
    assert {"/feed", "/feed/{match_id}", "/feed/{match_id}/stream"} <= set(paths)
    assert "text/event-stream" in paths["/feed/{match_id}/stream"]["get"]["responses"]["200"]["content"]


@pytest.mark.parametrize(("args", "says"), [
    (["--feature", "all"], "needs a delay"),
    (["--feature", "all", "--delay", "5x"], "give a number of decisions"),
])
def test_kifu_serve_refuses_a_feed_without_a_delay_it_can_read(args: list[str], says: str) -> None:
    result = CliRunner().invoke(cli, ["--db", "memory", "serve", "--port", "0", *args])
    assert result.exit_code == 2 and says in result.output


def test_a_round_match_on_the_feed_shows_its_round_timer() -> None:
    with client(featured=(ALL,), delay=Delay(decisions=1), round_minutes=50) as api:
        in_round = create(api, event="Open", round="2", table="7")
        casual = create(api)
        table = api.get(f"/feed/{in_round['match_id']}").json()["table"]
        assert (table["event"], table["round"], table["table"]) == ("Open", "2", "7")
        timer = table["timer"]
        assert timer["minutes"] == 50 and timer["extension"] == 0 and timer["started"].endswith("Z")
        assert 0 <= timer["elapsed"] < 600 and timer["remaining"] == pytest.approx(3000 - timer["elapsed"], abs=0.01)
        assert api.get(f"/feed/{casual['match_id']}").json()["table"]["timer"] is None
