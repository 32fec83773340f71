"""Where the matches live: one string (``--db``, ``KIFU_DB``) resolved into eventsourcing settings.

- nothing given: ``$KIFU_DB``, else ``./kifu.db`` — the embedded default, an SQLite file;
- ``memory`` or ``:memory:``: in-process only (eventsourcing.popo), for unit tests;
- ``postgresql://user:password@host:port/dbname?schema=kifu``: PostgreSQL, for several service
  processes on one database; parts the URL leaves out come from ``POSTGRES_*`` variables;
- anything else is an SQLite file: one that exists, or a new one whose name ends in ``.db`` or
  ``.sqlite`` in a folder that exists (an SQLite ``file:`` URI too). A bare word (``mem``) or a
  mistyped path is refused, so a typo never makes a new empty store that lists nothing.

The result is a plain dict for eventsourcing's factory, built here rather than read by the
factory from the process environment, so a test or a CLI flag decides and nothing leaks in.
"""
from __future__ import annotations

import getpass
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, unquote, urlsplit

import msgspec

from .errors import BadStoreAddress

ENV_DB = "KIFU_DB"
DEFAULT_DB = "kifu.db"
MEMORY_NAMES = ("memory", ":memory:")
SQLITE_SUFFIXES = (".db", ".sqlite")

Backend = Literal["sqlite", "postgres", "memory"]

# Factory settings that may be tuned from the process environment as they are.
_PASSED_THROUGH = (
    "SQLITE_LOCK_TIMEOUT",
    "POSTGRES_CONNECT_TIMEOUT", "POSTGRES_POOL_SIZE", "POSTGRES_MAX_OVERFLOW", "POSTGRES_MAX_WAITING",
    "POSTGRES_LOCK_TIMEOUT", "POSTGRES_IDLE_IN_TRANSACTION_SESSION_TIMEOUT", "POSTGRES_CONN_MAX_AGE",
    "POSTGRES_PRE_PING", "POSTGRES_SCHEMA",
    "COMPRESSOR_TOPIC", "CIPHER_TOPIC", "CIPHER_KEY",
)
# A CLI holds one connection; a service raises these through the environment.
_POSTGRES_DEFAULTS = {"POSTGRES_CONNECT_TIMEOUT": "5", "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "9"}
# URL query parameters we accept, and the factory setting each one becomes.
_QUERY_KEYS = {"schema": "POSTGRES_SCHEMA", "connect_timeout": "POSTGRES_CONNECT_TIMEOUT",
               "pool_size": "POSTGRES_POOL_SIZE", "max_overflow": "POSTGRES_MAX_OVERFLOW",
               "lock_timeout": "POSTGRES_LOCK_TIMEOUT"}
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


class StoreConfig(msgspec.Struct, frozen=True, kw_only=True):
    backend: Backend
    env: dict[str, str]  # for eventsourcing's infrastructure factory
    where: str           # for messages: never contains a password


def resolve(url: str | None = None, environ: Mapping[str, str] | None = None) -> StoreConfig:
    """``url`` (from ``--db``) wins over ``$KIFU_DB``, which wins over ``./kifu.db``."""
    environ = os.environ if environ is None else environ
    target = (url or environ.get(ENV_DB) or DEFAULT_DB).strip()
    env = {key: environ[key] for key in _PASSED_THROUGH if environ.get(key)}
    if target.lower() in MEMORY_NAMES:
        return StoreConfig(backend="memory", env={"PERSISTENCE_MODULE": "eventsourcing.popo", **env},
                           where="in-memory store")
    if target.startswith(("postgresql://", "postgres://")):
        return _postgres(target, env, environ)
    if _SCHEME.match(target):
        raise BadStoreAddress(f"unsupported database URL {target!r}: use a file path, "
                         "postgresql://user@host:port/dbname, or memory")
    return _sqlite(target, env)


def _sqlite(target: str, env: dict[str, str]) -> StoreConfig:
    if not target.startswith("file:"):
        path = Path(target).expanduser()
        if not path.exists():
            if not path.parent.is_dir():
                raise BadStoreAddress(f"--db {target}: folder {path.parent} does not exist "
                                      "(Kifu creates no folders: make it first)")
            if "/" not in target and "." not in path.name:
                raise BadStoreAddress(f"--db {target}: not a store: give 'memory', an SQLite file "
                                      f"({target}.db), or a postgresql:// URL")
            if not path.name.endswith(SQLITE_SUFFIXES):
                raise BadStoreAddress(f"--db {target}: no such SQLite file, and a new one's name must end in "
                                      f"{' or '.join(SQLITE_SUFFIXES)}")
        elif path.is_dir():
            raise BadStoreAddress(f"--db {target}: is a folder, not an SQLite file")
        target = str(path)
    return StoreConfig(backend="sqlite", env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                              "SQLITE_DBNAME": target, **env},
                       where=f"SQLite database {target}")


def _postgres(url: str, env: dict[str, str], environ: Mapping[str, str]) -> StoreConfig:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BadStoreAddress(f"bad PostgreSQL URL ({exc})") from None
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key not in _QUERY_KEYS:
            raise BadStoreAddress(f"unsupported PostgreSQL URL parameter {key!r}; known: {', '.join(_QUERY_KEYS)}")
        env[_QUERY_KEYS[key]] = value
    settings = {
        "POSTGRES_DBNAME": unquote(parts.path.lstrip("/")) or environ.get("POSTGRES_DBNAME", ""),
        "POSTGRES_HOST": unquote(parts.hostname or "") or environ.get("POSTGRES_HOST", "localhost"),
        "POSTGRES_PORT": str(port) if port else environ.get("POSTGRES_PORT", "5432"),
        "POSTGRES_USER": unquote(parts.username or "") or environ.get("POSTGRES_USER") or getpass.getuser(),
        "POSTGRES_PASSWORD": unquote(parts.password or "") or environ.get("POSTGRES_PASSWORD", ""),
    }
    if not settings["POSTGRES_DBNAME"]:
        raise BadStoreAddress(f"no database name in {_redacted(parts.netloc, url)} (nor in POSTGRES_DBNAME)")
    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", **_POSTGRES_DEFAULTS, **env, **settings}
    schema = env.get("POSTGRES_SCHEMA")
    where = (f"PostgreSQL database {settings['POSTGRES_DBNAME']} at {settings['POSTGRES_USER']}@"
             f"{settings['POSTGRES_HOST']}:{settings['POSTGRES_PORT']}" + (f" (schema {schema})" if schema else ""))
    return StoreConfig(backend="postgres", env=env, where=where)


def _redacted(netloc: str, url: str) -> str:
    if "@" in netloc and ":" in netloc.split("@", 1)[0]:
        user = netloc.split("@", 1)[0].split(":", 1)[0]
        return url.replace(netloc.split("@", 1)[0], f"{user}:***", 1)
    return url


def connect_params(env: Mapping[str, str]) -> dict[str, Any]:
    """``psycopg.connect``'s keywords for a resolved PostgreSQL store's environment: the tables kept
    beside the event store (tokens, notes, standings) open their own connections with them."""
    return dict(dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
                user=env["POSTGRES_USER"], password=env.get("POSTGRES_PASSWORD") or None,
                connect_timeout=int(env.get("POSTGRES_CONNECT_TIMEOUT") or 5))
