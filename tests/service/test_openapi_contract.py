"""The OpenAPI document is the service's contract (issue 24): schemathesis, every check, all its
phases (examples, coverage, fuzzing, stateful), positive and negative data, against a real
server on each store, with a pinned seed. It sends what the document allows and what it
forbids, with no token and with the judge token of a finished match, and fails on a 5xx, an
undocumented status or media type, a body that does not match its schema, a schema-valid
request refused or a schema-invalid one accepted, a missing ``Authorization`` not answered 401
(before anything else), an ``OPTIONS`` whose ``Allow`` is wrong.

Two expectations are configured, not generated: ``POST /matches`` may refuse a schema-valid body
with 400 or 422, because a deck (a preset name or a deck list) is judged by the chosen ruleset,
and a JSON schema cannot pair them (another ruleset's preset, a deck the rules forbid); and
``POST /matches/{id}/notes`` may refuse one with 400, because its ``seq`` must be an event the
match has, its variation a match forked from it, and a note must say something (a text, a glyph,
an arrow or a variation), none of which a schema states.
``POST /matches/{id}/judge`` may refuse one with 400 (the fields an act needs depend on ``act``),
409 (the match the judge token belongs to is over) or 422 (an act the record cannot take).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from httpplay import Player, create

from kifu.projections.feed import Delay
from kifu.service import create_app
from kifu.service.feed import ALL, FeedConfig
from kifu.service.server import BackgroundServer

SEED = 1
EXAMPLES = 12          # per operation and phase: ~20 s a store on a quiet machine


def finished_match(client: Any) -> dict[str, Any]:
    created = create(client)
    player = Player(client, created, seed=3)
    while player.step() is not None:
        pass
    return created


@pytest.mark.slow     # ~30 s a store
def test_the_service_keeps_its_openapi_contract(db_url: str, tmp_path: Path) -> None:
    import httpx

    app = create_app(db_url, environ={"KIFU_TEST_RULESETS": "1"}, poll_interval=0.02,    # the match is featured:
                     feed=FeedConfig(featured=(ALL,), delay=Delay(decisions=2)))        # its feed answers 200
    with BackgroundServer(app, grace=0.2) as server:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            created = finished_match(client)
            organiser = client.post("/events", json={"name": "contract", "ruleset": "reigeki"}).json()
            for player, deck in (("ann", "hakurei"), ("bob", "mima")):
                client.post("/events/contract/players", json={"player": player, "deck": deck},
                            headers={"Authorization": f"Bearer {organiser['organiser_token']}"})
        config = tmp_path / "schemathesis.toml"
        config.write_text(
            f'headers = {{ Authorization = "Bearer {created["tokens"]["judge"]}" }}\n'
            f'[parameters]\n"path.match_id" = "{created["match_id"]}"\n"path.event" = "contract"\n'
            '[[operations]]\ninclude-name = "POST /matches"\n'
            'checks.positive_data_acceptance.expected-statuses = ["2xx", 400, 422]\n'
            '[[operations]]\ninclude-name = "POST /matches/{match_id}/notes"\n'
            'checks.positive_data_acceptance.expected-statuses = ["2xx", 400]\n'
            # an event's routes, with its organiser token; a body the schema allows may still be refused by
            # the event's rules (422: a round before the last has its results, a preset of another ruleset)
            '[[operations]]\ninclude-path-regex = "^/events"\n'
            f'headers = {{ Authorization = "Bearer {organiser["organiser_token"]}" }}\n'
            'checks.positive_data_acceptance.expected-statuses = ["2xx", 400, 404, 422]\n'
            '[[operations]]\ninclude-name = "POST /matches/{match_id}/judge"\n'
            'checks.positive_data_acceptance.expected-statuses = ["2xx", 400, 409, 422]\n')
        result = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "--no-color", "run",
             f"{server.url}/schema/openapi.json", "--checks", "all", "--seed", str(SEED),
             "--max-examples", str(EXAMPLES), "--generation-database", "none", "--no-shrink"],
            capture_output=True, text=True, timeout=600, cwd=tmp_path)   # its cache stays out of the tree
    summary = result.stdout[result.stdout.find("SUMMARY"):]
    print(f"\nschemathesis on {db_url.split(':')[0] if '://' in db_url else 'sqlite'}:\n{summary}")
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "failures" not in summary.splitlines()[-1]
