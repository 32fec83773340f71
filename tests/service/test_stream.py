"""The live stream (server-sent events) on a real uvicorn server: events arrive as they are
decided, redacted for the caller, also when another service process on the same database stored
them; it resumes after Last-Event-ID, and ends when the match is over."""
from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

import httpx
import msgspec
from httpplay import Player, bearer, create, store_finished
from litestar import Litestar

from kifu.domain.core.errors import KifuError
from kifu.service.client import KifuClient, parse_sse
from kifu.service.server import BackgroundServer


def follow(url: str, match_id: str, token: str, into: queue.Queue[Any], after: int = 0) -> threading.Thread:
    def run() -> None:
        try:
            with KifuClient(url, token) as client:
                for message in client.stream(match_id, after=after):
                    into.put(message)
                    if message.event == "end":
                        break
        except KifuError:  # the server stopped under an open stream at the end of the test
            pass
        into.put(None)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def take(into: queue.Queue[Any], until: Callable[[Any], bool], timeout: float = 10.0) -> list[Any]:
    got = []
    while True:
        message = into.get(timeout=timeout)
        assert message is not None, f"the stream ended early after {got}"
        got.append(message)
        if until(message):
            return got


def test_stream_delivers_decisions_stored_by_another_process(db_url: str, make_app: Callable[[str], Litestar]) -> None:
    with BackgroundServer(make_app(db_url), grace=0.2) as a, BackgroundServer(make_app(db_url), grace=0.2) as b:
        http_b = httpx.Client(base_url=b.url)
        created = create(http_b, seed=21)
        mid, start = created["match_id"], created["seq"]
        streams = {role: queue.Queue() for role in ("seat1", "seat2", "judge")}
        for role, q in streams.items():
            follow(a.url, mid, created["tokens"][role], q, after=start)
        for q in streams.values():     # each stream first says where the match stands
            first = take(q, lambda m: True)[0]
            assert first.event == "status" and msgspec.json.decode(first.data)["seq"] == start
        player = Player(http_b, created, seed=2)
        player.play(8)                 # stored through process b only
        seq = player.view()["seq"]
        for role, q in streams.items():
            got = take(q, lambda m: m.event == "status" and msgspec.json.decode(m.data)["seq"] == seq)
            envelopes = [msgspec.json.decode(m.data) for m in got if m.event == "envelope"]
            assert [e["seq"] for e in envelopes] == list(range(start + 1, seq + 1))
            assert [m.id for m in got if m.event == "envelope"] == [str(e["seq"]) for e in envelopes]
            expected = http_b.get(f"/matches/{mid}/events", params={"after": start},
                                  headers=bearer(created["tokens"][role])).json()["events"]
            assert envelopes == expected   # redacted exactly as the events endpoint redacts for this role
        http_b.close()


def test_stream_resumes_after_last_event_id_and_ends_with_the_match(served: BackgroundServer) -> None:
    match, tokens = store_finished(served.config.app)
    with httpx.Client(base_url=served.url, timeout=10) as http:
        with http.stream("GET", f"/matches/{match.header.match_id}/stream",
                         headers={**bearer(tokens["seat1"]), "Last-Event-ID": str(match.seq - 3)}) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            messages = list(parse_sse(response.iter_lines()))
    assert [m.event for m in messages] == ["envelope"] * 3 + ["status", "end"]
    assert [int(m.id) for m in messages[:3]] == [match.seq - 2, match.seq - 1, match.seq]
    status = msgspec.json.decode(messages[3].data)
    assert status["seq"] == match.seq and status["outcome"]["winner"] == match.outcome.winner


def test_stream_needs_a_token_of_the_match(served: BackgroundServer) -> None:
    with httpx.Client(base_url=served.url, timeout=10) as http:
        created = create(http)
        response = http.get(f"/matches/{created['match_id']}/stream")
        assert response.status_code == 401 and response.json()["error"] == "unauthorized"
        other = create(http)
        response = http.get(f"/matches/{created['match_id']}/stream", headers=bearer(other["tokens"]["judge"]))
        assert response.status_code == 401


def test_a_store_failure_mid_stream_ends_it_with_an_error_event(served: BackgroundServer) -> None:
    from kifu.store import StoreError

    app = served.config.app
    with httpx.Client(base_url=served.url, timeout=10) as http:
        created = create(http)
        mid = created["match_id"]
        with http.stream("GET", f"/matches/{mid}/stream", headers=bearer(created["tokens"]["judge"])) as response:
            messages = parse_sse(response.iter_lines())
            assert next(messages).event == "envelope"

            def broken(*args: object, **kwargs: object) -> None:
                raise StoreError("the database is on fire")

            app.state.store.events = broken      # the stream's next read fails
            Player(http, created).play(1)         # wakes the stream
            rest = list(messages)
    assert rest[-1].event == "error"
    problem = msgspec.json.decode(rest[-1].data)
    assert problem["error"] == "unavailable" and "on fire" not in problem["message"]   # no internals (issue 14)
