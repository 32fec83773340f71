"""Serving recorded matches to the browser tests: a real server on a store the tests fill."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from kifu.domain.core.match import Match
from kifu.projections.recordfile import read_record

ROOT = Path(__file__).resolve().parents[2]


def store_record(app: Any, path: str | Path) -> tuple[str, dict[str, str]]:
    """Store the record at ``path`` in the app's store and issue its tokens: (match id, tokens)."""
    record = read_record(path)
    match = Match.fold(record.ruleset, record.header, record.envelopes)
    service = app.state.service
    tokens = service.tokens.issue(record.header.match_id)
    app.state.store.create(match)
    return record.header.match_id, tokens
