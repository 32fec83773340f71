"""Ctrl-C on `kifu serve` with a live stream open: a clean stop, no traceback."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def test_ctrl_c_with_a_stream_open_stops_without_a_traceback() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-c", "from kifu.cli.main import main; main()",
                               "serve", "--port", str(port),
                               "--db", "memory", "--no-access-log"], cwd=ROOT, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(f"{url}/health", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        created = httpx.post(f"{url}/matches", json={}, timeout=10).json()
        opened = threading.Event()

        def follow() -> None:
            try:
                with httpx.stream("GET", f"{url}/matches/{created['match_id']}/stream",
                                  headers={"Authorization": f"Bearer {created['tokens']['judge']}"}, timeout=30) as r:
                    opened.set()
                    for _ in r.iter_lines():
                        pass
            except httpx.HTTPError:
                pass

        threading.Thread(target=follow, daemon=True).start()
        assert opened.wait(10)
        time.sleep(0.3)
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, err
    assert "Traceback" not in err and "CancelledError" not in err and "ERROR" not in err, err
