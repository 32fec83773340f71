"""Racing decisions: exactly one lands, the other gets 409; matches are independent; a restart
of the service mid-match loses nothing. On SQLite and PostgreSQL, with two app instances on one
database standing in for two service processes."""
from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from httpplay import Player, awaited, bearer, create
from litestar import Litestar
from litestar.testing import TestClient

from kifu.domain.core.record import decode_record, first_broken_link
from kifu.projections.audit import audit


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
            seat = awaited(judge)
            view = player.view(seat)
            commands = [player.choose(view), view["legal"][-1]]   # maybe different, based on one seq

            def submit(client: Any, command: dict[str, Any], seat: int = seat, view: dict[str, Any] = view) -> Any:
                return client.post(f"/matches/{mid}/decisions", headers=player.headers(seat),
                                   json={"seq": view["seq"], "command": command})

            results = race([partial(submit, one, commands[0]), partial(submit, two, commands[1])])
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
            for n in range(15):   # alternate the two "processes"
                if player.step(one if (n + i) % 2 else two) is None:
                    break
            return player.decisions

        with ThreadPoolExecutor(4) as pool:
            counts = list(pool.map(play, range(4)))
        for player, count in zip(players, counts, strict=True):
            header, envelopes, rules = decode_record(player.record())
            assert header.match_id == player.match_id
            assert sum(e.kind == "decision" for e in envelopes) == count == 15
            assert audit(rules, header, envelopes).clean


def test_a_restarted_service_continues_the_match_with_nothing_lost(db_url: str,
                                                                   make_app: Callable[[str], Litestar]) -> None:
    with TestClient(make_app(db_url)) as first:
        created = create(first, seed=5)
        player = Player(first, created, seed=3)
        player.play(10)
        before = player.record()
        seq = player.view()["seq"]
    # the first instance has shut down (store closed); a new one opens the same database
    with TestClient(make_app(db_url)) as second:
        player.client = second
        assert player.record() == before                        # nothing lost, tokens still valid
        assert player.view()["seq"] == seq
        assert player.play(20) == 10 + 20
        record = player.record()
        assert record.startswith(before)
        header, envelopes, rules = decode_record(record)
        assert sum(e.kind == "decision" for e in envelopes) == player.decisions
        assert audit(rules, header, envelopes).clean
        listing = {m["match_id"]: m for m in second.get("/matches").json()["matches"]}
        assert listing[created["match_id"]]["seq"] == len(envelopes)
        assert second.get(f"/matches/{created['match_id']}/view",
                          headers=bearer(created["tokens"]["seat1"])).status_code == 200


WARM_THEN_RACE = """
import sys, threading, msgspec
from kifu.service import create_app
from kifu.domain.core.ruleset import find_ruleset
create_app("memory", environ={})
rules = find_ruleset("worlfard")
from httpplay import finished_match
match = finished_match(3)
lines = [msgspec.json.encode(e) for e in match.envelopes[:300]]
commands = [msgspec.to_builtins(c) for c in match.legal(match.deciding or 1)] or [{"type": "Proceed", "to": "end"}]
barrier = threading.Barrier(6)
def work():
    barrier.wait()
    decoder = rules.envelope_decoder()
    for line in lines:
        decoder.decode(line)
    for c in commands:
        try:
            msgspec.convert(c, rules.command_type)
        except msgspec.ValidationError:
            pass
threads = [threading.Thread(target=work) for _ in range(6)]
[t.start() for t in threads]
[t.join() for t in threads]
print("survived")
"""


def test_decoders_are_built_before_threads_decode() -> None:
    """msgspec crashes (SIGSEGV) when threads build a Struct's decoding info concurrently; the
    app builds everything at creation, so six threads decoding at once right after are safe."""
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    done = subprocess.run([sys.executable, "-c", WARM_THEN_RACE], cwd=here.parents[1], capture_output=True, text=True,
                          env={"PYTHONPATH": f"{here.parents[1]}:{here}", "PATH": "/usr/bin:/bin"}, timeout=60)
    assert done.returncode == 0 and "survived" in done.stdout, done.stderr[-2000:]
