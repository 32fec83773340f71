"""`kifu serve`, `kifu client` and `kifu loadtest` against a real uvicorn server."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner
from httpplay import awaited, bearer
from litestar import Litestar

from kifu.cli.main import cli
from kifu.service.server import BackgroundServer

KIFU = [sys.executable, "-c", "from kifu.cli.main import main; main()"]
ROOT = Path(__file__).resolve().parents[2]


def kifu(*args: str, token: str | None = None, **popen: Any) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("KIFU_TOKEN", None)
    if token:
        env["KIFU_TOKEN"] = token
    return subprocess.Popen([*KIFU, *args], env=env, cwd=ROOT, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, **popen)


def created_by_cli(url: str, *extra: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["client", "create", "--server", url, "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_two_terminals_play_a_served_match_to_the_end_and_it_audits_clean(served_in_memory: BackgroundServer,
                                                                          tmp_path: Path) -> None:
    served = served_in_memory
    # seed 2 with bot seeds 1 and 2 is a short match today (about 100 decisions); any seed would do
    created = created_by_cli(served.url, "--name", "ann", "--name", "bob")
    mid = created["match_id"]
    seats = [kifu("client", "--server", served.url, "--match", mid, "--bot", "random", "--seed", str(seat), "-q",
                  token=created["tokens"][f"seat{seat}"]) for seat in (1, 2)]
    outputs = [seat.communicate(timeout=90) for seat in seats]
    for seat, (out, err) in zip(seats, outputs, strict=True):
        assert seat.returncode == 0, err
        assert "wins" in out or "draw" in out
    assert outputs[0][0].splitlines()[-1].split(" at seq")[0] == outputs[1][0].splitlines()[-1].split(" at seq")[0]
    record = tmp_path / "m.kifu.jsonl"
    runner = CliRunner()
    result = runner.invoke(cli, ["client", "record", "--server", served.url, "--match", mid, "--out", str(record)],
                           env={"KIFU_TOKEN": created["tokens"]["judge"]})
    assert result.exit_code == 0, result.output
    audited = runner.invoke(cli, ["audit", str(record)])
    assert audited.exit_code == 0 and "clean" in audited.output, audited.output
    assert runner.invoke(cli, ["verify", str(record)]).exit_code == 0


def test_a_human_seat_sees_its_board_and_chooses_by_number(served: BackgroundServer) -> None:
    created = created_by_cli(served.url)
    seat = awaited(created)
    result = CliRunner().invoke(cli, ["client", "--server", served.url, "--match", created["match_id"],
                                      "--token", created["tokens"][f"seat{seat}"]], input="1\n")
    # decision 1 (the order) is taken; the prompt for the next one meets the end of the input
    assert result.exit_code == 1 and "aborted" in result.output
    assert f"you are seat {seat}" in result.output
    assert "ChooseOrder" in result.output and "go_first yes" in result.output
    assert "Mulligan" in result.output and "redraw no" in result.output
    assert result.output.count("hand (") == 2       # this seat's hand, twice (two prompts); never the other's
    assert f"seat {seat}, your decision" in result.output
    info = httpx.get(f"{served.url}/matches/{created['match_id']}").json()
    assert info["seq"] > created["seq"]


def test_client_errors_are_one_line_with_the_usual_exit_codes(served: BackgroundServer) -> None:
    created = created_by_cli(served.url)
    runner = CliRunner()
    wrong = runner.invoke(cli, ["client", "--server", served.url, "--match", created["match_id"], "--token", "nope"])
    assert wrong.exit_code == 1 and "401" in wrong.output
    judge = runner.invoke(cli, ["client", "--server", served.url, "--match", created["match_id"],
                                "--token", created["tokens"]["judge"], "--bot", "random"])
    assert judge.exit_code == 1 and "judge token" in judge.output
    nowhere = runner.invoke(cli, ["client", "create", "--server", "http://127.0.0.1:9"])
    assert nowhere.exit_code == 1 and "cannot reach" in nowhere.output
    missing = runner.invoke(cli, ["client", "--server", served.url])
    assert missing.exit_code == 2 and "--match" in missing.output


def test_loadtest_reports_throughput_and_latency_and_audits_every_match(db_url: str,
                                                                       make_app: Callable[[str], Litestar]) -> None:
    with BackgroundServer(make_app(db_url)) as server:
        result = CliRunner().invoke(cli, ["loadtest", "--server", server.url, "--matches", "3", "--concurrency", "3",
                                          "--max-decisions", "40", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["matches"] == 3 and report["decisions"] == 3 * 40 and report["clean"] == 3
    assert report["decisions_per_s"] > 0 and 0 < report["latency_ms"]["p50"] <= report["latency_ms"]["p99"]
    assert report["conflicts"] == 0 and all(r["audit"] == "clean" and not r["error"] for r in report["runs"])


def test_loadtest_open_loop_times_each_decision_from_its_scheduled_send(db_url: str,
                                                                     make_app: Callable[[str], Litestar]) -> None:
    with BackgroundServer(make_app(db_url)) as server:
        result = CliRunner().invoke(cli, ["loadtest", "--server", server.url, "--matches", "3", "--concurrency", "3",
                                          "--max-decisions", "15", "--rate", "60", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["mode"] == "open" and report["rate"] == 60 and report["decisions"] == 3 * 15
    # from the scheduled send is never shorter than the round trip itself
    assert all(report["latency_ms"][q] >= report["round_trip_ms"][q] for q in ("p50", "p95", "p99", "max"))
    assert report["clean"] == report["played"] == 3


def test_loadtest_splits_its_matches_over_load_processes_and_skips_what_the_deadline_left(
        db_url: str, make_app: Callable[[str], Litestar]) -> None:
    with BackgroundServer(make_app(db_url)) as server:
        split = CliRunner().invoke(cli, ["loadtest", "--server", server.url, "--matches", "2", "--concurrency", "2",
                                         "--processes", "2", "--max-decisions", "10", "--json"])
        late = CliRunner().invoke(cli, ["loadtest", "--server", server.url, "--matches", "6", "--concurrency", "2",
                                        "--rate", "10", "--deadline", "1", "--json"])
    assert split.exit_code == 0, split.output
    report = json.loads(split.output)
    assert report["processes"] == 2 and report["decisions"] == 2 * 10 and report["clean"] == 2
    assert late.exit_code == 0, late.output    # matches never started are not failures
    report = json.loads(late.output)
    assert report["played"] == 2 and report["clean"] == 2 and report["finished"] == 0
    assert sum(r["audit"].startswith("not played") for r in report["runs"]) == 4


def test_kifu_serve_serves_the_api_and_never_logs_a_token(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    server = kifu("serve", "--port", str(port), "--db", str(tmp_path / "served.db"), "--log-level", "debug")
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"{url}/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "kifu serve did not come up"
            time.sleep(0.1)
        assert httpx.get(f"{url}/schema/openapi.json").json()["info"]["title"] == "Kifu match service"
        created = httpx.post(f"{url}/matches", json={}).json()
        for token in created["tokens"].values():
            assert httpx.get(f"{url}/matches/{created['match_id']}/view", headers=bearer(token)).status_code == 200
        assert httpx.get(f"{url}/matches/{created['match_id']}/record",
                         headers=bearer(created["tokens"]["seat1"])).status_code == 403
    finally:
        server.terminate()
        out, err = server.communicate(timeout=15)
    assert "GET /matches/" in err + out          # the access log is on
    assert not any(token in out + err for token in created["tokens"].values())


def test_the_workers_listener_gets_tcp_nodelay_on_accepted_connections() -> None:
    """uvicorn binds the workers' shared socket with proto 0, so asyncio left Nagle on and each
    keep-alive answer waited ~40 ms for a delayed ACK; `kifu serve --workers` re-wraps it."""
    import uvicorn

    from kifu.service.server import _tcp_listener

    config = uvicorn.Config("kifu.service.server:app_from_env", host="127.0.0.1", port=0, log_level="error")
    listener = _tcp_listener(uvicorn.Config.bind_socket)(config)
    try:
        assert listener.proto == socket.IPPROTO_TCP
        listener.listen()
        with socket.create_connection(listener.getsockname()):
            accepted, _ = listener.accept()
            with accepted:
                assert accepted.proto == socket.IPPROTO_TCP   # what asyncio checks before TCP_NODELAY
    finally:
        listener.close()
