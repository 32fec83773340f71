"""Fixtures for the toolkit tests."""
from __future__ import annotations

from pathlib import Path

import pytest
from corpus_helpers import CORPUS, corpus_records, generate


@pytest.fixture(scope="session")
def corpus() -> list[Path]:
    records = corpus_records()
    assert records, f"no records under {CORPUS}: run replays/worlfard/make.py"
    return records


@pytest.fixture(scope="session")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Every scenario and three bot matches as today's engine makes them (clean by construction)."""
    return generate(tmp_path_factory.mktemp("fresh") / "worlfard", bots=3)
