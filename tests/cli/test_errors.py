"""One error convention everywhere: one line on stderr, exit codes as docs/cli.md says."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("errors") / "m.kifu.jsonl"
    result = CliRunner().invoke(cli, ["--db", "memory", "play", "worlfard", "--seed", "7", "-q", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))         # click 8.2+: stdout and stderr kept apart
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("args", [["nosuch"], ["replay"], ["play", "worlfard", "--bogus"], ["matches", "--status"]])
def test_usage_errors_are_one_line_and_exit_2(args: list[str]) -> None:
    code, _, err = invoke(*args)
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("error: ")


def test_every_command_takes_db_after_its_name(record: Path) -> None:
    code, out, err = invoke("play", "--db", "memory", "worlfard", "--seed", "1", "-q")
    assert code == 0 and "in-memory store" in out, err


def test_out_of_range_seq_is_a_usage_error_for_fork_and_replay(record: Path) -> None:
    assert invoke("replay", str(record), "--at", "99999")[0] == 2
    code, _, err = invoke("fork", str(record), "--at", "99999")
    assert code == 2 and "outside" in err and len(err.strip().splitlines()) == 1


def test_serve_on_a_busy_port_exits_1_naming_the_reason() -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        code, _, err = invoke("serve", "--port", str(port), "--db", "memory")
    assert code == 1 and f"127.0.0.1:{port}" in err and len(err.strip().splitlines()) == 1
