"""The match service: matches played over HTTP by two seats, read by judges, live to clients.

Why Litestar: it decodes request bodies and encodes responses with msgspec natively, so the
same frozen Structs the engine uses (commands, views, envelopes) are the wire types, checked
(``forbid_unknown_fields``, bounds) before a handler runs, and the OpenAPI document is derived
from them; it has server-sent events, body-size limits and lifespan hooks built in.

Why uvicorn: the reference ASGI server, pure Python on top of h11 (nothing to compile, installs
everywhere Kifu does), embeddable in-process (tests run a real server in a thread on a free
port), with worker processes for several service processes on one PostgreSQL database. A
faster HTTP layer (granian) would not move the figure that matters: the time goes into the
store's transaction and the rules, not into parsing HTTP.

With ``kifu.store`` this is the only place that touches eventsourcing-backed storage; the
rules stay pure. Modules: ``api`` (wire schema), ``tokens`` (seat and judge tokens),
``matches`` (the application service), ``hub`` (wakes live streams), ``app`` (routes),
``server`` (uvicorn), ``client`` (httpx), ``loadtest``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``create_app`` imported on first use: the CLI imports ``kifu.service.tokens`` at start-up,
    and Litestar (about 200 modules) should load only for the commands that serve or test HTTP."""
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
