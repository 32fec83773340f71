"""The bounded kill test (issue 14): SIGKILL a real `kifu serve` under load, on SQLite and on
PostgreSQL, restart it, and find every acknowledged decision in the store and every match
re-adjudicated clean. Figures (kills, acknowledged decisions, found, clean) print with ``-s``."""
from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from kifu.domain.core.bot import Seen
from kifu.domain.core.ruleset import find_ruleset
from kifu.projections.audit import audit
from kifu.store import MatchStore

KIFU = [sys.executable, "-c", "from kifu.cli.main import main; main()"]
ROOT = Path(__file__).resolve().parents[2]
RULES = find_ruleset("worlfard")
KILLS = 3
MATCHES = 3
LOAD_S = 1.5


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(db: str, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen([*KIFU, "serve", "--port", str(port), "--db", db, "--no-access-log"], cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        assert server.poll() is None and time.monotonic() < deadline, "kifu serve did not come up"
        time.sleep(0.05)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play(url: str, match: dict[str, Any], acked: list[tuple[str, int, int]], stop: threading.Event, seed: int) -> None:
    """Random play until stopped or the server dies; every 200 answer is an acknowledged decision."""
    bots = {s: RULES.content.bots["random"](seed * 2 + s) for s in (1, 2)}
    mid, tokens = match["match_id"], match["tokens"]
    try:
        with httpx.Client(base_url=url, timeout=5) as client:
            while not stop.is_set():
                judge = client.get(f"/matches/{mid}/view", headers=bearer(tokens["judge"])).json()
                if judge["outcome"] is not None:
                    return
                seat = judge["awaiting"][0]
                view = client.get(f"/matches/{mid}/view", headers=bearer(tokens[f"seat{seat}"])).json()
                legal = [msgspec.convert(c, RULES.decider.command_type) for c in view["legal"]]
                command = msgspec.to_builtins(bots[seat].choose(Seen(seat, legal)))
                answer = client.post(f"/matches/{mid}/decisions", headers=bearer(tokens[f"seat{seat}"]),
                                     json={"seq": view["seq"], "command": command})
                if answer.status_code == 200:
                    body = answer.json()
                    acked.append((mid, body["events"][0]["seq"], seat))
    except (httpx.TransportError, ValueError, KeyError):
        return   # the server was killed under us


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "kill.db") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


def test_sigkill_under_load_loses_no_acknowledged_decision_and_every_match_audits_clean(store_url: str) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    acked: list[tuple[str, int, int]] = []
    matches: list[dict[str, Any]] = []
    for kill in range(KILLS):
        server = start(store_url, port)
        try:
            if not matches:
                matches = [httpx.post(f"{url}/matches", json={}).json() for _ in range(MATCHES)]
            stop = threading.Event()
            threads = [threading.Thread(target=play, args=(url, m, acked, stop, kill * 10 + i), daemon=True)
                       for i, m in enumerate(matches)]
            for t in threads:
                t.start()
            time.sleep(LOAD_S * random.Random(kill).uniform(0.7, 1.3))
        finally:
            os.kill(server.pid, signal.SIGKILL)   # mid-request: no shutdown, no flush
            server.wait(timeout=10)
        stop.set()
        for t in threads:
            t.join(timeout=10)
    assert acked, "no decision was acknowledged before the kills"
    found = clean = 0
    with MatchStore.open(store_url) as store:
        for m in matches:
            stored = store.load(m["match_id"])
            for mid, seq, seat in (a for a in acked if a[0] == m["match_id"]):
                env = stored.envelopes[seq - 1] if seq <= stored.seq else None
                assert env is not None and env.kind == "decision" and env.seat == seat, \
                    f"acknowledged decision #{seq} of {mid} is not in the store"
                found += 1
            result = audit(stored.ruleset, stored.header, stored.envelopes)
            assert result.clean, result.divergence
            clean += 1
    print(f"\nkill test on {store_url.split('?')[0].rsplit('/', 1)[-1]}: {KILLS} SIGKILLs, {len(acked)} acknowledged "
          f"decisions, {found} found in the store, {clean}/{len(matches)} matches audit clean")
