"""Running the service on uvicorn: in the foreground (``kifu serve``) or in a background thread.

``serve`` with one worker builds the app here (a bad database fails before the port opens);
with several it hands uvicorn an import string and ``$KIFU_DB``, so each worker process opens
its own store on the shared database (PostgreSQL, or one SQLite file in WAL mode).
"""
from __future__ import annotations

import gc
import os
import socket
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

import uvicorn

from .app import create_app
from .feed import FeedConfig

GRACE = 2  # seconds open streams get to finish when the server stops
GC_YOUNG = 20_000   # allocations between young-generation collections in a service process


def app_from_env() -> Any:
    """uvicorn factory for worker processes: the store named by ``$KIFU_DB``."""
    app = create_app(os.environ.get("KIFU_DB"))
    quiet_gc()
    return app


def quiet_gc() -> None:
    """For a service process, after start-up: fewer, cheaper garbage collections.

    The service keeps up to 256 folded matches (thousands of envelopes and states each) that
    the cyclic collector traversed again at every full collection, every few decisions with
    the default thresholds (perf: 5% of the service's CPU in ``gc_collect_main`` and its
    visitors). What start-up built is frozen out of collection, and the young generation is
    collected every 20,000 allocations instead of 700: measured 1.23 and 1.34 ms of service CPU
    per decision against 1.42 and 1.50 with the defaults (interleaved, open loop at 300/s).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)


def http_protocol() -> Any:
    """httptools with each answer in one write (``kifu.service.coalesce``) when httptools is
    installed; else uvicorn's choice (h11)."""
    try:
        from .coalesce import CoalescingHttpTools
    except ImportError:
        return "auto"
    return CoalescingHttpTools


def serve(db: str | None, host: str = "127.0.0.1", port: int = 8080, *, workers: int = 1,
          log_level: str = "info", access_log: bool = True, feed: FeedConfig | None = None) -> None:
    options: dict[str, Any] = dict(host=host, port=port, log_level=log_level, access_log=access_log,
                                   timeout_graceful_shutdown=GRACE, server_header=False, http=http_protocol())
    if workers <= 1:
        app = create_app(db, feed=feed)
        quiet_gc()
        uvicorn.run(app, **options)
        return
    if db:
        os.environ["KIFU_DB"] = db
    if feed is not None:
        os.environ.update(feed.env())     # each worker's create_app reads it (FeedConfig.from_env)
    bind = uvicorn.Config.bind_socket
    uvicorn.Config.bind_socket = _tcp_listener(bind)  # type: ignore[method-assign]
    try:
        uvicorn.run("kifu.service.server:app_from_env", factory=True, workers=workers, **options)
    finally:
        uvicorn.Config.bind_socket = bind  # type: ignore[method-assign]


def _tcp_listener(bind: Callable[[uvicorn.Config], socket.socket]) -> Callable[..., socket.socket]:
    """Workers share a listening socket uvicorn binds with ``proto`` 0; connections accepted on
    it inherit that, and asyncio then leaves Nagle's algorithm on (it sets TCP_NODELAY only for
    ``IPPROTO_TCP``): every keep-alive answer waited ~40 ms for a delayed ACK (measured: 44 ms
    for a 1 ms request; uvicorn issue 3149). Re-wrap the listener with ``proto`` set."""

    def bind_socket(config: uvicorn.Config) -> socket.socket:
        sock = bind(config)
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto == 0:
            fixed = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
            fixed.set_inheritable(True)
            return fixed
        return sock

    return bind_socket


class BackgroundServer:
    """A real uvicorn server on 127.0.0.1 and a free port, in a thread: for tests and load tests.

    ``with BackgroundServer(app) as server: server.url``; leaving the block stops it."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, *, log_level: str = "warning",
                 grace: float = GRACE, **options: Any) -> None:
        self.grace = grace
        options.setdefault("http", http_protocol())
        self.config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                                     # uvicorn annotates an int but waits with it as a float timeout
                                     timeout_graceful_shutdown=grace, lifespan="on", **options)  # type: ignore[arg-type]
        self.server = uvicorn.Server(self.config)
        self.thread = threading.Thread(target=self.server.run, name="kifu-uvicorn", daemon=True)
        self.url = ""

    def start(self, timeout: float = 10.0) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.01)
        host, port = self.server.servers[0].sockets[0].getsockname()[:2]
        self.url = f"http://{host}:{port}"
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=self.grace + 5)

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

