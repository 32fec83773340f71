"""The Done of issue 28's event: docs/events.md's command sequence, run as written against a
served store: a 16-player Swiss of 4 rounds and a top 4, every match played by bots through the
service, committed lists, a refused deck swap and a refused deck check, standings whose
tiebreakers match a computation from the recorded results, a slow-play report."""
from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_readme import _env, page_blocks

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def _served(db: Path, cwd: Path) -> Iterator[str]:
    """``kifu serve --db DB`` in a process of its own, as the page has it in another terminal."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(["kifu", "serve", "--db", str(db), "--port", str(port), "--no-access-log"], cwd=cwd,
                              env=_env(), text=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(f"{url}/health", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield url
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def _sh(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def _by_hand(show: dict[str, Any]) -> dict[str, tuple[int, float, float, float]]:
    """Points, OMW%, GW%, OGW% from the recorded Swiss results, computed independently."""
    rows: dict[str, list[tuple[str | None, int, int, int]]] = {p["player"]: [] for p in show["players"]}
    for rnd in show["pairings"]:
        if rnd["stage"] != "swiss":
            continue
        for t in rnd["tables"]:
            if t["seat2"] is None:
                rows[t["seat1"]].append((None, 2, 0, 0))
            else:
                w1, w2 = t["wins"]
                rows[t["seat1"]].append((t["seat2"], w1, w2, t["draws"]))
                rows[t["seat2"]].append((t["seat1"], w2, w1, t["draws"]))
    floor = Fraction(33, 100)

    def points(r: tuple[str | None, int, int, int]) -> int:
        return 3 if r[1] > r[2] else 1 if r[1] == r[2] else 0

    mw = {p: max(Fraction(sum(map(points, rs)), 3 * len(rs)), floor) for p, rs in rows.items()}
    gw = {p: max(Fraction(sum(3 * r[1] + r[3] for r in rs), 3 * sum(r[1] + r[2] + r[3] for r in rs)), floor)
          for p, rs in rows.items()}
    out = {}
    for p, rs in rows.items():
        opps = [r[0] for r in rs if r[0] is not None]
        omw = sum((mw[o] for o in opps), Fraction(0)) / len(opps) if opps else floor
        ogw = sum((gw[o] for o in opps), Fraction(0)) / len(opps) if opps else floor
        out[p] = (sum(map(points, rs)), round(float(omw), 4), round(float(gw[p]), 4), round(float(ogw), 4))
    return out


@pytest.mark.slow     # minutes on a loaded machine: 35 matches played over HTTP
def test_the_documented_event_runs_end_to_end(tmp_path: Path) -> None:
    (_, steps), = [(n, s) for n, s in page_blocks(ROOT / "docs" / "events.md") if any("event new" in x.command
                                                                                     for x in s)]
    db = tmp_path / "spring.db"
    with _served(db, tmp_path) as url:
        env = {**_env(), "KIFU_DB": str(db), "KIFU_SERVER": url}
        outputs = []
        for step in steps:
            command = step.command.replace("http://127.0.0.1:8080", url)
            if command.startswith("export "):
                continue
            done = _sh(command, tmp_path, env)
            outputs.append((command, done))
            if any(line.startswith("error:") for line in step.expected):     # the refused deck swap
                assert done.returncode == 3, done.stderr
                assert "E-decklist-lock" in done.stderr and "ann's list is locked" in done.stderr
            else:
                assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        played = " ".join(d.stdout for c, d in outputs if "event play" in c)
        assert len(re.findall(r"match(?:es)? played through http", played)) == 6     # 4 Swiss rounds, 2 top rounds
        # the automatic deck check: a match for the event with another list is refused, the difference named
        with httpx.Client(base_url=url) as http:
            answer = http.post("/matches", json={"ruleset": "reigeki", "decks": ["scarlet", "hakurei"],
                                                 "players": ["ann", "bob"], "event": "spring"})
            assert answer.status_code == 422, answer.text
            assert answer.json()["clause"] == "E-deck-check" and "ann's deck is not the list registered" in \
                answer.json()["message"]
            public = http.get("/events/spring").json()
            assert all(p["commitment"] for p in public["players"])
    show = json.loads(_sh("kifu event show spring --json", tmp_path, env).stdout)
    assert [len(r["tables"]) for r in show["pairings"]] == [8, 8, 8, 8, 2, 1]
    assert all(t["wins"] is not None and t["signed"] is False for r in show["pairings"] for t in r["tables"])
    standings = json.loads(_sh("kifu event standings spring --json", tmp_path, env).stdout)
    assert standings["spec"] == "mtr-c" and standings["after_round"] == 4
    hand = _by_hand(show)
    for row in standings["rows"]:
        values = {b["name"]: b["value"] for b in row["tiebreakers"]}
        assert (row["points"], values["OMW%"], values["GW%"], values["OGW%"]) == hand[row["player"]], row
    top4 = [r["player"] for r in standings["rows"][:4]]
    semis = show["pairings"][4]["tables"]
    assert [(t["seat1"], t["seat2"]) for t in semis] == [(top4[0], top4[3]), (top4[1], top4[2])]
    # every match carries the event, round and table in its header, and plays the registered list
    from kifu.store import MatchStore
    with MatchStore.open(str(db)) as store:
        for rnd in show["pairings"]:
            for t in rnd["tables"]:
                for match_id in t["games"]:
                    header = store.header(match_id)
                    assert (header.event, header.round, header.table) == ("spring", str(rnd["round"]),
                                                                          str(t["table"]))
    slow = next(d for c, d in outputs if "slowplay" in c)
    assert "slow play in spring" in slow.stdout and "in 35 games" in slow.stdout
