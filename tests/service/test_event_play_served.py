"""``kifu event play --server URL --organiser-token T``: bots play through the service, and the
service reads the end marks into results, signed with its key."""
from __future__ import annotations

import json
from pathlib import Path

import httpx
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.signing import new_signer, private_pem
from kifu.service.app import create_app
from kifu.service.server import BackgroundServer


def test_the_service_records_signed_results(tmp_path: Path) -> None:
    key = tmp_path / "house.key"
    key.write_bytes(private_pem(new_signer("house")))
    db = str(tmp_path / "kifu.db")
    with BackgroundServer(create_app(db, environ={"KIFU_SIGNING_KEY": str(key)}), grace=0.2) as server:
        with httpx.Client(base_url=server.url, timeout=60) as http:
            token = http.post("/events", json={"name": "cup", "ruleset": "reigeki", "rounds": 1}).json()[
                "organiser_token"]
            auth = {"Authorization": f"Bearer {token}"}
            for player, deck in (("ann", "hakurei"), ("bob", "mima")):
                assert http.post("/events/cup/players", json={"player": player, "deck": deck},
                                 headers=auth).status_code == 200
            paired = http.post("/events/cup/rounds", headers=auth).json()
        tokens = tmp_path / "cup.tokens.json"
        tokens.write_text(json.dumps({g["match_id"]: g["tokens"] for g in paired["games"]}))
        run = CliRunner().invoke(cli, ["--db", db, "event", "play", "cup", "--server", server.url, "--tokens",
                                       str(tokens), "--organiser-token", token])
        assert run.exit_code == 0, run.output
        assert "(signed end marks)" in run.output and "1 match played through" in run.output
        wrong = CliRunner().invoke(cli, ["--db", db, "event", "play", "cup", "--server", server.url, "--tokens",
                                         str(tokens), "--organiser-token", "nope"])
        assert wrong.exit_code == 1 and "not the organiser token of event cup" in wrong.output
        public = httpx.get(f"{server.url}/events/cup").json()
    table = public["pairings"][0]["tables"][0]
    assert table["signed"] is True and sum(table["wins"]) + table["draws"] == 1     # one game: won or drawn
