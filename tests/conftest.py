"""Fixtures shared by every test package: a PostgreSQL server and a fresh schema on it.

PostgreSQL tests run against ``KIFU_TEST_PG`` (CI sets it) or the local default; unreachable,
they skip saying why — or fail, when ``KIFU_TEST_PG`` names the server, so CI cannot pass them
silently.
"""
from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

os.environ.setdefault("KIFU_TEST_RULESETS", "1")   # the test ruleset (secretbid) is offered to the tests only

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/kifu_test"   # Kifu's own database, never a shared `test`


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL server URL. Unreachable: a skip saying why, or a failure if CI named it."""
    import psycopg

    url = os.environ.get("KIFU_TEST_PG") or DEFAULT_PG
    try:
        if url == DEFAULT_PG:
            _create_database(url)
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as exc:
        reason = f"PostgreSQL at {url} is unreachable ({str(exc).strip()})"
        if os.environ.get("KIFU_TEST_PG"):
            pytest.fail(f"{reason}; KIFU_TEST_PG names it, so it should be running")
        pytest.skip(f"{reason}; start it or set KIFU_TEST_PG")
    return url


def _create_database(url: str) -> None:
    """The default database made on first use (through the server's ``postgres`` database)."""
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", connect_timeout=3, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            try:
                conn.execute(f'CREATE DATABASE "{name}"')
            except psycopg.errors.DuplicateDatabase:     # another test process made it first
                pass


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A store URL on a fresh schema, dropped after the test, so runs never see each other."""
    import psycopg

    schema = f"kifu_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        sep = "&" if "?" in pg_server else "?"
        yield f"{pg_server}{sep}schema={schema}"
    finally:
        with psycopg.connect(pg_server, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
