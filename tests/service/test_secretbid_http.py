"""Sealed decisions over HTTP, with the test ruleset (``tests/secretbid``): both seats post in the
same instant and both land; neither seat's answers nor live stream show the other's bid before
the reveal; `kifu client` seats and `kifu loadtest` play it to the end; the seed is committed."""
from __future__ import annotations

import json
import queue
import threading
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner
from httpplay import bearer
from test_cli_service import kifu

from kifu.cli.main import cli
from kifu.domain.core.record import decode_record, first_broken_seal
from kifu.projections.audit import audit
from kifu.service.client import KifuClient
from kifu.service.server import BackgroundServer


def _create(url: str) -> dict[str, Any]:
    response = httpx.post(f"{url}/matches", json={"ruleset": "secretbid", "players": ["ann", "bob"]})
    assert response.status_code == 201, response.text
    return response.json()


def _race(calls: list[Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_K_seal_both_seats_bid_in_the_same_instant_and_both_land(served: BackgroundServer) -> None:
    created = _create(served.url)
    mid, tokens = created["match_id"], created["tokens"]
    assert sorted(created["awaiting"]) == [1, 2] and created["seed_commitment"]
    with httpx.Client(base_url=served.url) as one, httpx.Client(base_url=served.url) as two:
        for round_ in range(3):
            views = {s: one.get(f"/matches/{mid}/view", headers=bearer(tokens[f"seat{s}"])).json() for s in (1, 2)}
            if views[1]["view"]["step"] != "bid":
                winner = views[1]["view"]["awaiting"][0]
                r = one.post(f"/matches/{mid}/decisions", headers=bearer(tokens[f"seat{winner}"]),
                             json={"seq": views[winner]["seq"], "command": {"type": "Claim"}})
                assert r.status_code == 200, r.text
                continue
            results = _race([
                partial(one.post, f"/matches/{mid}/decisions", headers=bearer(tokens["seat1"]),
                        json={"seq": views[1]["seq"], "command": {"type": "Bid", "chips": 1 + round_}}),
                partial(two.post, f"/matches/{mid}/decisions", headers=bearer(tokens["seat2"]),
                        json={"seq": views[2]["seq"], "command": {"type": "Bid", "chips": 2}}),
            ])
            assert [r.status_code for r in results] == [200, 200], [r.text for r in results]
            for seat, r in zip((1, 2), results, strict=True):
                for env in r.json()["events"]:
                    event = env["event"]
                    if event["type"] == "ChoiceSealed" and event["seat"] != seat:
                        assert "choice" not in event and "salt" not in event
    record = httpx.get(f"{served.url}/matches/{mid}/record", headers=bearer(tokens["judge"])).content
    header, envelopes, rules = decode_record(record)
    assert audit(rules, header, envelopes).clean and first_broken_seal(header, envelopes) is None


def test_K_seal_a_seats_stream_never_shows_the_others_pending_bid(served: BackgroundServer) -> None:
    created = _create(served.url)
    mid, tokens = created["match_id"], created["tokens"]
    seen: queue.Queue[Any] = queue.Queue()

    def follow() -> None:
        with KifuClient(served.url, tokens["seat2"]) as client:
            for message in client.stream(mid):
                seen.put(message)
                if message.event == "status" and json.loads(message.data)["seq"] >= created["seq"] + 1:
                    break

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    view = httpx.get(f"{served.url}/matches/{mid}/view", headers=bearer(tokens["seat1"])).json()
    r = httpx.post(f"{served.url}/matches/{mid}/decisions", headers=bearer(tokens["seat1"]),
                   json={"seq": view["seq"], "command": {"type": "Bid", "chips": 7}})
    assert r.status_code == 200, r.text
    thread.join(timeout=10)
    messages = []
    while not seen.empty():
        messages.append(seen.get())
    sealed = [json.loads(m.data) for m in messages if m.event == "envelope"
              and json.loads(m.data)["event"]["type"] == "ChoiceSealed"]
    assert sealed and all("choice" not in e["event"] and "salt" not in e["event"] for e in sealed)
    other = httpx.get(f"{served.url}/matches/{mid}/view", headers=bearer(tokens["seat2"])).json()
    text = json.dumps([other["view"], other["layout"]])     # (its own legal bids list every amount)
    assert other["view"]["bids"] is None and '"chips": 7' not in text
    assert other["layout"]["chosen"] == [1] and other["layout"]["choosing"] == [2]
    events = httpx.get(f"{served.url}/matches/{mid}/events", headers=bearer(tokens["seat2"])).json()["events"]
    assert all("choice" not in e["event"] for e in events if e["event"]["type"] == "ChoiceSealed")


def test_K_seed_two_client_seats_play_to_the_end_and_the_seed_is_revealed(served_in_memory: BackgroundServer,
                                                                          tmp_path: Path) -> None:
    served = served_in_memory
    created = _create(served.url)
    mid = created["match_id"]
    seats = [kifu("client", "--server", served.url, "--match", mid, "--bot", "random", "--seed", str(seat), "-q",
                  token=created["tokens"][f"seat{seat}"]) for seat in (1, 2)]
    for seat in seats:
        out, err = seat.communicate(timeout=90)
        assert seat.returncode == 0, err
        assert "wins" in out or "draw" in out
    path = tmp_path / "m.kifu.jsonl"
    result = CliRunner().invoke(cli, ["client", "record", "--server", served.url, "--match", mid, "--out", str(path)],
                                env={"KIFU_TOKEN": created["tokens"]["judge"]})
    assert result.exit_code == 0, result.output
    header, envelopes, _ = decode_record(path.read_bytes())
    assert header.seed_commitment == created["seed_commitment"]
    assert type(envelopes[-1].event).__name__ == "SeedRevealed" and envelopes[-1].event.seed == header.seed
    verified = CliRunner().invoke(cli, ["verify", str(path)])
    assert verified.exit_code == 0 and "reveals open their commitments" in verified.output
    assert CliRunner().invoke(cli, ["audit", str(path)]).exit_code == 0


def test_K_seal_loadtest_plays_sealed_matches_and_audits_them(served_in_memory: BackgroundServer) -> None:
    result = CliRunner().invoke(cli, ["loadtest", "--server", served_in_memory.url, "--ruleset", "secretbid",
                                      "--matches", "4", "--concurrency", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["finished"] == 4 and report["clean"] == 4 and report["decisions"] > 0


def test_a_creator_cannot_choose_the_seed(served: BackgroundServer) -> None:
    response = httpx.post(f"{served.url}/matches", json={"ruleset": "secretbid", "seed": 7})
    assert response.status_code == 400 and "seed" in response.text
