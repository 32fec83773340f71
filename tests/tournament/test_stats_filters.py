"""``kifu stats`` never mixes rulesets in one table, and filters by event, round and ruleset."""
from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.store import MatchStore


def _store(tmp_path: Path) -> str:
    db = str(tmp_path / "kifu.db")
    with MatchStore.open(db) as store:
        for ruleset, event, round_ in (("reigeki", "spring", "1"), ("reigeki", "spring", "2"), ("novel", None, None)):
            rules = find_ruleset(ruleset)
            presets = rules.content.presets()[:2]
            store.create(Match.create(rules, match_id=str(uuid.uuid4()), seed=1,
                                      decks=[rules.content.load_deck(p) for p in presets], players=("ann", "bob"),
                                      event=event, round=round_))
    return db


def _stats(db: str, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["--db", db, "stats", "--json", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_one_report_per_ruleset(tmp_path: Path) -> None:
    data = _stats(_store(tmp_path))
    assert [(r["ruleset"], r["matches"]) for r in data["reports"]] == [("novel", 1), ("reigeki", 2)]
    decks = {r["ruleset"]: {d["name"] for d in r["decks"]} for r in data["reports"]}
    assert decks["novel"].isdisjoint(decks["reigeki"])


def test_event_round_and_ruleset_filters(tmp_path: Path) -> None:
    db = _store(tmp_path)
    assert [(r["ruleset"], r["matches"]) for r in _stats(db, "--event", "spring")["reports"]] == [("reigeki", 2)]
    assert [r["matches"] for r in _stats(db, "--event", "spring", "--round", "2")["reports"]] == [1]
    assert [(r["ruleset"], r["matches"]) for r in _stats(db, "--ruleset", "novel")["reports"]] == [("novel", 1)]
    assert _stats(db, "--event", "autumn")["reports"] == []
    text = CliRunner().invoke(cli, ["--db", db, "stats"]).output
    assert "# novel: by player" in text and "# reigeki: by deck" in text
    refused = CliRunner().invoke(cli, ["--db", db, "stats", "--ruleset", "chess"])
    assert refused.exit_code == 2 and "unknown ruleset" in refused.output
