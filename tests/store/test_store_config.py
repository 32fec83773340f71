"""Where the store lives: ``--db`` over ``$KIFU_DB`` over ``./kifu.db``; URLs for PostgreSQL."""
from __future__ import annotations

from pathlib import Path

import pytest

from kifu.store import MatchStore, StoreError, resolve


def test_the_default_is_kifu_db_in_the_working_directory() -> None:
    config = resolve(None, environ={})
    assert config.backend == "sqlite"
    assert config.env["SQLITE_DBNAME"] == "kifu.db"
    assert config.env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite"


def test_kifu_db_overrides_the_default_and_the_flag_overrides_both(tmp_path: Path) -> None:
    from_env = str(tmp_path / "env.db")
    from_flag = str(tmp_path / "flag.db")
    assert resolve(None, environ={"KIFU_DB": from_env}).env["SQLITE_DBNAME"] == from_env
    assert resolve(from_flag, environ={"KIFU_DB": from_env}).env["SQLITE_DBNAME"] == from_flag
    assert resolve(None, environ={"KIFU_DB": "memory"}).backend == "memory"


@pytest.mark.parametrize("name", ["memory", ":memory:", "MEMORY"])
def test_memory_names(name: str) -> None:
    config = resolve(name, environ={})
    assert (config.backend, config.env["PERSISTENCE_MODULE"]) == ("memory", "eventsourcing.popo")


def test_a_postgresql_url_becomes_factory_settings() -> None:
    config = resolve("postgresql://kifu:s%40cret@db.example:6543/matches?schema=t1&pool_size=4", environ={})
    assert config.backend == "postgres"
    assert {k: v for k, v in config.env.items() if k.startswith("POSTGRES_")} == {
        "POSTGRES_DBNAME": "matches", "POSTGRES_HOST": "db.example", "POSTGRES_PORT": "6543",
        "POSTGRES_USER": "kifu", "POSTGRES_PASSWORD": "s@cret", "POSTGRES_SCHEMA": "t1",
        "POSTGRES_POOL_SIZE": "4", "POSTGRES_MAX_OVERFLOW": "9", "POSTGRES_CONNECT_TIMEOUT": "5",
    }
    assert "s@cret" not in config.where and "matches" in config.where


def test_what_the_url_leaves_out_comes_from_postgres_variables() -> None:
    environ = {"POSTGRES_DBNAME": "kifu", "POSTGRES_HOST": "pg", "POSTGRES_PORT": "5433",
               "POSTGRES_USER": "svc", "POSTGRES_PASSWORD": "pw", "POSTGRES_POOL_SIZE": "8"}
    env = resolve("postgresql://", environ=environ).env
    assert (env["POSTGRES_DBNAME"], env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_USER"],
            env["POSTGRES_PASSWORD"], env["POSTGRES_POOL_SIZE"]) == ("kifu", "pg", "5433", "svc", "pw", "8")
    assert resolve("postgres://u@h/d", environ=environ).env["POSTGRES_USER"] == "u"


@pytest.mark.parametrize("url, message", [
    ("mysql://u@h/d", "unsupported database URL"),
    ("postgresql://u@h:99999/d", "bad PostgreSQL URL"),
    ("postgresql://u@h/d?sslmode=require", "unsupported PostgreSQL URL parameter 'sslmode'"),
    ("postgresql://u:pw@h", "no database name"),
    ("/no/such/directory/kifu.db", "folder /no/such/directory does not exist"),
    ("mem", "not a store: give 'memory', an SQLite file"),
    ("matches.bd", "a new one's name must end in .db or .sqlite"),
])
def test_bad_locations_are_explained(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message) as caught:
        resolve(url, environ={})
    assert "pw@" not in str(caught.value)


def test_an_existing_sqlite_file_of_any_name_opens_and_a_folder_does_not(tmp_path: Path) -> None:
    (tmp_path / "old-store").write_bytes(b"")
    assert resolve(str(tmp_path / "old-store"), environ={}).backend == "sqlite"
    assert resolve(str(tmp_path / "new.sqlite"), environ={}).backend == "sqlite"
    with pytest.raises(StoreError, match="is a folder"):
        resolve(str(tmp_path), environ={})


def test_an_unreachable_postgresql_is_a_store_error_naming_it() -> None:
    with pytest.raises(StoreError, match=r"PostgreSQL database d at u@127.0.0.1:1 is unavailable"):
        MatchStore.open("postgresql://u@127.0.0.1:1/d?connect_timeout=1", environ={})


def test_a_closed_store_says_so(tmp_path: Path) -> None:
    store = MatchStore.open(str(tmp_path / "k.db"), environ={})
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.list_matches()


def test_the_sqlite_file_is_created_on_open(tmp_path: Path) -> None:
    with MatchStore.open(None, environ={"KIFU_DB": str(tmp_path / "new.db")}) as store:
        assert store.list_matches() == []
    assert (tmp_path / "new.db").exists()


def test_postgresql_errors_name_their_cause(pg_server: str) -> None:
    """The pool says only "couldn't get a connection"; the message says why: no such database,
    no such role, nobody listening."""
    base = pg_server.rsplit("/", 1)[0]
    with pytest.raises(StoreError, match='database "kifu_no_such_db" does not exist'):
        MatchStore.open(f"{base}/kifu_no_such_db?connect_timeout=2", environ={})
    host = base.split("@", 1)[-1]
    with pytest.raises(StoreError, match='role "kifu_no_such_role" does not exist'):
        MatchStore.open(f"postgresql://kifu_no_such_role@{host}/postgres?connect_timeout=2", environ={})
    with pytest.raises(StoreError, match="Connection refused"):
        MatchStore.open("postgresql://u@127.0.0.1:1/d?connect_timeout=1", environ={})
