"""A novel match played over HTTP: both seats post their sealed choices at the same instant."""
from __future__ import annotations

import threading
from typing import Any

from litestar.testing import TestClient

from kifu.domain.core.rng import Rng
from kifu.service import create_app


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_N_5_2_1_both_seats_post_at_the_same_instant_over_http() -> None:
    with TestClient(create_app("memory", environ={})) as client:
        r = client.post("/matches", json={"ruleset": "novel", "players": ["ann", "bob"],
                                          "decks": ["tide-flame", "storm-ice"]})
        assert r.status_code == 201, r.text
        created = r.json()
        mid, tokens = created["match_id"], created["tokens"]
        rngs = {1: Rng(11), 2: Rng(12)}
        errors: list[Any] = []
        lock = threading.Lock()

        def view(seat: int) -> dict[str, Any]:
            got = client.get(f"/matches/{mid}/view", headers=_bearer(tokens[f"seat{seat}"]))
            assert got.status_code == 200, got.text
            return got.json()

        def post(seat: int, seen: dict[str, Any], barrier: threading.Barrier | None) -> None:
            command = rngs[seat].choice(seen["legal"])
            if barrier is not None:
                barrier.wait()
            got = client.post(f"/matches/{mid}/decisions", headers=_bearer(tokens[f"seat{seat}"]),
                              json={"seq": seen["seq"], "command": command})
            if got.status_code not in (200, 201):
                with lock:
                    errors.append((seat, got.status_code, got.text))

        both = 0
        for _ in range(3000):
            judge = client.get(f"/matches/{mid}/view", headers=_bearer(tokens["judge"])).json()
            if judge["outcome"] is not None:
                break
            awaited = judge["awaiting"]
            seen = {seat: view(seat) for seat in awaited}
            if len(awaited) == 2:
                # neither seat's view holds the other's pending choice while it chooses
                other = seen[1]["view"]["sides"][1]
                assert other["picks"] == [] if "picks" in other else True
                barrier = threading.Barrier(2)
                threads = [threading.Thread(target=post, args=(s, seen[s], barrier)) for s in (1, 2)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                both += 1
            else:
                post(awaited[0], seen[awaited[0]], None)
            assert not errors, errors
        judge = client.get(f"/matches/{mid}/view", headers=_bearer(tokens["judge"])).json()
        assert judge["outcome"] is not None and both > 0
