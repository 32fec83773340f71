"""Record format 2's state digests do not depend on the code's layout (issue 25).

A refactor that reorders a State's fields, or renames one in Python while ``msgspec``'s
``rename`` keeps its wire name, changes no record: the digest is of the ruleset's canonical
encoding (``Decider.canonical_state``; by default JSON with the fields sorted by wire name). Here
matches of every ruleset are re-digested through a State struct built at run time with its fields
reversed and its first one renamed, and every recorded digest comes out again; format 1's digest
(declaration order) of the same struct would not. Checkpoints: the setup, every decision that
crosses a multiple of 64 events, and the one that ends the match; the chain links every event.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from kifu.domain.core.driver import DecisionLimit, drive
from kifu.domain.core.envelope import CHECKPOINT, at_rest, digest_of, state_digest
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.ruleset import Ruleset, find_ruleset, ruleset_names
from kifu.projections.recordfile import read_record

RULESETS = sorted(set(ruleset_names()) | {"secretbid"})
CORPUS = Path(__file__).resolve().parents[2] / "replays"


def relaid(state_type: Any) -> Any:
    """``state_type`` with its fields in reverse order and the first renamed in Python (its wire
    name kept with ``msgspec.field(name=...)``), as a refactor would leave it."""
    fields = msgspec.structs.fields(state_type)
    config = state_type.__struct_config__
    out = []
    for info in reversed(fields):
        name = f"renamed_{info.name}" if info is fields[0] else info.name
        if info.default is not msgspec.NODEFAULT:
            spec = msgspec.field(default=info.default, name=info.encode_name)
        elif info.default_factory is not msgspec.NODEFAULT:
            spec = msgspec.field(default_factory=info.default_factory, name=info.encode_name)
        else:
            spec = msgspec.field(name=info.encode_name)
        out.append((name, info.type, spec))
    return msgspec.defstruct(f"Relaid{state_type.__name__}", out, kw_only=True, frozen=config.frozen,
                             omit_defaults=config.omit_defaults, module=state_type.__module__)


def played(rules: Ruleset[Any, Any, Any], seed: int, limit: int = 150) -> Match:
    decks = [rules.content.load_deck(d) for d in rules.content.presets()[:2]]
    match = Match.create(rules, match_id=f"layout-{seed}", seed=seed, players=("a", "b"), decks=decks)
    try:
        drive(match, {s: rules.content.bots["random"](seed * 2 + s) for s in (1, 2)}, limit=limit)
    except DecisionLimit:
        pass
    return match


def redigested(rules: Ruleset[Any, Any, Any], header: Any, envelopes: list[Any]) -> tuple[int, int]:
    """Fold the record; at every recorded digest, digest the state again through the relaid struct:
    (digests matched, format-1 digests of the relaid struct that would have matched)."""
    relaid_type = relaid(rules.decider.state_type)
    evolve = record_evolve(rules)
    state = rules.decider.initial_state(header)
    matched = old_layout = 0
    for env in envelopes:
        state = evolve(state, env.event)
        if env.digest is None:
            continue
        moved = msgspec.convert(msgspec.to_builtins(state), relaid_type)
        assert digest_of(rules.decider.canonical_state(moved)) == env.digest, f"seq {env.seq}"
        matched += 1
        old_layout += state_digest(moved) == env.digest
    return matched, old_layout


@pytest.mark.parametrize("name", RULESETS)
def test_reordered_and_renamed_state_fields_give_every_recorded_digest(name: str) -> None:
    rules = find_ruleset(name)
    for seed in (1, 2):
        match = played(rules, seed)
        assert match.header.format == 2
        matched, old_layout = redigested(rules, match.header, match.envelopes)
        assert matched >= 2 and old_layout == 0


@pytest.mark.parametrize("name", sorted(ruleset_names()))
def test_corpus_records_in_format_2_keep_their_digests_through_a_relaid_state(name: str) -> None:
    """The corpus once it is re-recorded in format 2 (format-1 records digest the struct as declared)."""
    paths = sorted((CORPUS / name).glob("*.kifu.jsonl"))[:3]
    records = [r for r in map(read_record, paths) if r.header.format >= 2]
    if not paths:
        pytest.skip(f"no corpus for {name}")
    if not records:
        pytest.skip(f"replays/{name} is still in record format 1: re-record it (replays/{name}/make.py)")
    for record in records:
        matched, _ = redigested(record.ruleset, record.header, record.envelopes)
        assert matched >= 1


def test_digests_sit_at_the_checkpoints_and_every_event_is_chained() -> None:
    rules = find_ruleset("worlfard")
    match = played(rules, 3, limit=400)
    envelopes = match.envelopes
    digested = [e.seq for e in envelopes if e.digest is not None]
    setup_end = next(e.seq for e in envelopes if e.kind == "decision") - 1
    assert digested[0] == setup_end
    for seq in digested[1:]:
        assert at_rest(envelopes, seq)
    ends = [e.seq for e in envelopes if at_rest(envelopes, e.seq) and e.seq > setup_end]
    starts = [setup_end + 1] + [s + 1 for s in ends[:-1]]
    expected = [last for first, last in zip(starts, ends, strict=True)
                if last // CHECKPOINT != (first - 1) // CHECKPOINT
                or (last == len(envelopes) and match.outcome is not None)]
    assert digested[1:] == expected and len(digested) < len(ends) / 4
    assert all(e.chain for e in envelopes)
