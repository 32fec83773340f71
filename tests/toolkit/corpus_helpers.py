"""Helpers for the toolkit tests: the committed corpus, and copies of parts of it."""
from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

from kifu.projections.probes import probes_path
from kifu.tools import corpus

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


def load_make() -> ModuleType:
    """replays/worlfard/make.py, the corpus generator, as a module."""
    name = "make_worlfard_corpus"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, CORPUS / "make.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module   # its dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules[name]


def generate(into: Path, bots: int = 0) -> list[Path]:
    """Today's engine's own versions of the corpus scenarios (and ``bots`` bot matches) in ``into``:
    records that audit clean whatever state the committed corpus is in."""
    make = load_make()
    made = list(corpus.scenarios(make.SCENARIOS, [], make.start, make.auto_pass))
    presets = make.RULES.content.presets()
    pairs = [(a, b) for a in presets for b in presets][:bots]
    made.extend((name, m, []) for name, m in (corpus.bot_match(make.RULES, a, b, 1, i)
                                               for i, (a, b) in enumerate(pairs)))
    into.mkdir(parents=True, exist_ok=True)
    corpus.write(made, into)
    return sorted(into.glob("*.kifu.jsonl"))
