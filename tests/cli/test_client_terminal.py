"""`kifu client create --deck FILE`, tournament metadata through the service, `client watch`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.record import decode_record
from kifu.service.app import create_app
from kifu.service.server import BackgroundServer

ROOT = Path(__file__).resolve().parents[2]
KIFU = [sys.executable, "-c", "from kifu.cli.main import main; main()"]


@pytest.fixture
def served() -> Iterator[BackgroundServer]:
    with BackgroundServer(create_app("memory", environ={}), grace=0.2) as server:
        yield server


def _deck_file(tmp_path: Path) -> Path:
    source = ROOT / "domain" / "worlfard" / "data" / "decks" / "tide-stone.toml"
    deck = tmp_path / "mine.toml"
    deck.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())       # a BOM, as Windows editors write
    return deck


def _seat(url: str, mid: str, token: str, seat: int) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "KIFU_TOKEN": token}
    return subprocess.Popen([*KIFU, "client", "--server", url, "--match", mid, "--bot", "random", "--seed", str(seat),
                             "-q"], env=env, cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_create_takes_deck_files_and_tournament_metadata_and_a_judge_watches(served: BackgroundServer,
                                                                             tmp_path: Path) -> None:
    runner = CliRunner()
    made = runner.invoke(cli, ["client", "create", "--server", served.url, "--json",
                               "--deck", str(_deck_file(tmp_path)),
                               "--deck", "dawn-dusk", "--event", "Spring Open", "--round", "3", "--table", "12"])
    assert made.exit_code == 0, made.output
    created = json.loads(made.output)
    mid, tokens = created["match_id"], created["tokens"]
    seats = [_seat(served.url, mid, tokens[f"seat{s}"], s) for s in (1, 2)]
    watched = runner.invoke(cli, ["client", "watch", "--server", served.url, "--match", mid],
                            env={"KIFU_TOKEN": tokens["judge"]})
    for seat in seats:
        seat.communicate(timeout=120)
    assert watched.exit_code == 0, watched.output
    assert "watching match" in watched.output and ("wins" in watched.output or "draw" in watched.output)
    assert "decision" in watched.output and "Traceback" not in watched.output
    out = tmp_path / "m.kifu.jsonl"
    got = runner.invoke(cli, ["client", "record", "--server", served.url, "--match", mid, "--out", str(out)],
                        env={"KIFU_TOKEN": tokens["judge"]})
    assert got.exit_code == 0, got.output
    header, envelopes, _ = decode_record(out.read_bytes(), str(out))
    assert (header.event, header.round, header.table) == ("Spring Open", "3", "12") and header.date
    assert (header.decks[0]["name"] == "tide-stone" if isinstance(header.decks[0], dict)
            else header.decks[0].name == "tide-stone")
    decisions = [e for e in envelopes if e.kind == "decision"]
    assert decisions and all(e.received for e in decisions)         # the service stamped each decision
    assert runner.invoke(cli, ["audit", str(out)]).exit_code == 0     # and audit re-runs with those stamps


def test_create_with_a_bad_deck_file_names_it(served: BackgroundServer, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(_deck_file(tmp_path).read_text("utf-8-sig").replace("= 2", "= 9", 1), "utf-8")
    result = CliRunner().invoke(cli, ["client", "create", "--server", served.url,
                                      "--deck", str(bad), "--deck", "dawn-dusk"])
    assert result.exit_code == 2 and "bad.toml: line" in result.output
