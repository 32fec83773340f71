"""Helpers for the toolkit tests: the committed corpus, and copies of parts of it."""
from __future__ import annotations

import shutil
from pathlib import Path

from projections.probes import probes_path

REPO = Path(__file__).parents[2]
CORPUS = REPO / "replays" / "worlfard"


def corpus_records() -> list[Path]:
    return sorted(CORPUS.glob("*.kifu.jsonl"))


def copy_records(records: list[Path], into: Path) -> list[Path]:
    """Copy records (and their probes) into ``into``; returns the copies."""
    into.mkdir(parents=True, exist_ok=True)
    out = []
    for record in records:
        out.append(Path(shutil.copy(record, into / record.name)))
        probes = probes_path(record)
        if probes.exists():
            shutil.copy(probes, into / probes.name)
    return out
