"""Racing decisions: exactly one lands, the other gets 409; matches are independent; a restart
of the service mid-match loses nothing. On SQLite and PostgreSQL, with two app instances on one
database standing in for two service processes."""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from litestar import Litestar
from litestar.testing import TestClient

from domain.core.record import decode_record, first_broken_link
from projections.audit import audit

from httpplay import Player, bearer, create


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; their results in order."""
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


def test_two_decisions_racing_exactly_one_lands(db_url: str, make_app: Callable[[str], Litestar]) -> None:
    with TestClient(make_app(db_url)) as one, TestClient(make_app(db_url)) as two:
        created = create(one, seed=11)
        player = Player(one, created)
        mid = created["match_id"]
        landed = 0
        for round_ in range(12):
            judge = player.view()
            if judge["outcome"] is not None:
                break
            seat = judge["awaiting"]
            view = player.view(seat)
            commands = [player.choose(view), view["legal"][-1]]   # maybe different, based on one seq

            def submit(client: Any, command: dict[str, Any]) -> Any:
                return client.post(f"/matches/{mid}/decisions", headers=player.headers(seat),
                                   json={"seq": view["seq"], "command": command})

            results = race([lambda: submit(one, commands[0]), lambda: submit(two, commands[1])])
            codes = sorted(r.status_code for r in results)
            assert codes == [200, 409], (round_, [r.text for r in results])
            won = next(r for r in results if r.status_code == 200).json()
            lost = next(r for r in results if r.status_code == 409).json()
            assert lost["error"] == "conflict" and lost["seq"] == won["seq"]
            landed += 1
            assert player.view()["seq"] == won["seq"]
        header, envelopes, rules = decode_record(player.record())
        assert sum(e.kind == "decision" for e in envelopes) == landed
        assert first_broken_link(header, envelopes) is None and audit(rules, header, envelopes).clean


def test_many_matches_at_once_are_independent(db_url: str, make_app: Callable[[str], Litestar]) -> None:
    with TestClient(make_app(db_url)) as one, TestClient(make_app(db_url)) as two:
        players = [Player(one, create(one, seed=100 + i), seed=i) for i in range(4)]

        def play(i: int) -> int:
            player = players[i]
            for n in range(25):   # alternate the two "processes"
                if player.step(one if (n + i) % 2 else two) is None:
                    break
            return player.decisions

        with ThreadPoolExecutor(4) as pool:
            counts = list(pool.map(play, range(4)))
        for player, count in zip(players, counts):
            header, envelopes, rules = decode_record(player.record())
            assert header.match_id == player.match_id
            assert sum(e.kind == "decision" for e in envelopes) == count == 25
            assert audit(rules, header, envelopes).clean


def test_a_restarted_service_continues_the_match_with_nothing_lost(db_url: str,
                                                                   make_app: Callable[[str], Litestar]) -> None:
    with TestClient(make_app(db_url)) as first:
        created = create(first, seed=5)
        player = Player(first, created, seed=3)
        player.play(15)
        before = player.record()
        seq = player.view()["seq"]
    # the first instance has shut down (store closed); a new one opens the same database
    with TestClient(make_app(db_url)) as second:
        player.client = second
        assert player.record() == before                        # nothing lost, tokens still valid
        assert player.view()["seq"] == seq
        assert player.play(45) == 15 + 45
        record = player.record()
        assert record.startswith(before)
        header, envelopes, rules = decode_record(record)
        assert sum(e.kind == "decision" for e in envelopes) == player.decisions
        assert audit(rules, header, envelopes).clean
        listing = {m["match_id"]: m for m in second.get("/matches").json()["matches"]}
        assert listing[created["match_id"]]["seq"] == len(envelopes)
        assert second.get(f"/matches/{created['match_id']}/view",
                          headers=bearer(created["tokens"]["seat1"])).status_code == 200
