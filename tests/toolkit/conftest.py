"""Fixtures for the toolkit tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from corpus_helpers import CORPUS, corpus_records


@pytest.fixture(scope="session")
def corpus() -> list[Path]:
    records = corpus_records()
    assert records, f"no records under {CORPUS}: run replays/worlfard/make.py"
    return records
