"""Fixtures for the service tests: an app per backend, a real uvicorn server, match helpers.

Store-backed tests run on SQLite and on PostgreSQL. PostgreSQL uses ``$KIFU_TEST_PG`` (default
``postgresql://postgres@127.0.0.1:5432/kifu_test``, made on first use), each test in a fresh schema dropped afterwards;
unreachable: skipped saying why, unless ``KIFU_TEST_PG`` is set (CI sets it), then failed.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from kifu.service import create_app
from kifu.service.server import BackgroundServer

FAST_POLL = 0.02   # the hub polls the notification log this often: cross-process streams stay quick


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A database several app instances (service processes) can share."""
    if request.param == "sqlite":
        return str(tmp_path / "kifu.db")
    return str(request.getfixturevalue("pg_url"))


TEST_ENV = {"KIFU_TEST_RULESETS": "1"}    # nothing from the process environment, but the test ruleset offered


@pytest.fixture
def make_app() -> Iterator[Callable[[str], Litestar]]:
    def make(url: str) -> Litestar:
        return create_app(url, environ=TEST_ENV, poll_interval=FAST_POLL)

    yield make


@pytest.fixture
def api() -> Iterator[TestClient[Litestar]]:
    """The API on an in-memory store: for tests of the HTTP surface that need no database."""
    with TestClient(create_app("memory", environ=TEST_ENV)) as client:
        yield client


@pytest.fixture
def served(make_app: Callable[[str], Litestar], tmp_path: Any) -> Iterator[BackgroundServer]:
    """A real uvicorn server in a thread, on an SQLite file."""
    with BackgroundServer(make_app(str(tmp_path / "served.db")), grace=0.2) as server:
        yield server


@pytest.fixture
def served_in_memory(make_app: Callable[[str], Litestar]) -> Iterator[BackgroundServer]:
    """A real uvicorn server on an in-memory store: for whole matches, where commits would dominate."""
    with BackgroundServer(make_app("memory"), grace=0.2) as server:
        yield server
