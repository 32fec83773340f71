"""A live match in the viewer: each request folds (and redacts, per seat) only the events stored
since the last one, and what it serves is what a fresh fold of the whole match would serve."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kifu.domain.core.match import Match
from kifu.projections import timeline as timeline_module
from kifu.projections import viewdata
from kifu.projections.recordfile import read_record
from kifu.projections.viewdata import ViewSource
from kifu.service.viewer import Sources

from .helpers import ROOT

RECORD = sorted((ROOT / "replays" / "worlfard").glob("bot-*.kifu.jsonl"))[0]
VIEWS = (None, 1, 2)


class GrowingStore:
    """A store whose one match has ``upto`` events stored so far."""

    def __init__(self, record: Any, upto: int) -> None:
        self.record, self.upto, self.loads = record, upto, 0

    def load(self, match_id: str) -> Match:
        self.loads += 1
        r = self.record
        return Match.fold(r.ruleset, r.header, r.envelopes[: self.upto])

    def events(self, match_id: str, after: int) -> list[Any]:
        return self.record.envelopes[after: self.upto]


def counting(evolve: Callable[..., Any], folded: list[int]) -> Callable[..., Any]:
    def fold(state: Any, event: Any) -> Any:
        folded.append(1)
        return evolve(state, event)
    return fold


def test_a_live_match_folds_only_its_new_events_and_each_seat_still_sees_its_own_view(
        monkeypatch: pytest.MonkeyPatch) -> None:
    record = read_record(RECORD)
    store = GrowingStore(record, 120)
    sources = Sources(store)
    match_id = record.header.match_id
    before = {seat: sources.get(match_id, seat) for seat in VIEWS}
    assert store.loads == 1 and {v.last_seq for v in before.values()} == {120}

    folded: list[int] = []
    for module in (timeline_module, viewdata):
        original = module.record_evolve
        monkeypatch.setattr(module, "record_evolve", lambda rules, o=original: counting(o(rules), folded))
    for seat in (1, 2):
        stream = before[seat]._stream
        monkeypatch.setattr(stream, "_evolve", counting(stream._evolve, folded))
    store.upto = 137
    after = {seat: sources.get(match_id, seat) for seat in VIEWS}
    # the timeline and the turn marks once, and each seat's redaction: 17 new events each, no more
    assert store.loads == 1 and len(folded) == 17 * 4
    assert after[None].timeline._checkpoints[:3] == before[None].timeline._checkpoints[:3]
    kept, earlier = after[None].timeline._checkpoints, before[None].timeline._checkpoints
    assert all(a is b for a, b in zip(kept, earlier, strict=False))
    monkeypatch.undo()

    whole = record.envelopes[:137]
    for seat in VIEWS:
        fresh = ViewSource(record.ruleset, record.header, whole, seat)
        grown = after[seat]
        assert grown.last_seq == 137 and grown.events() == fresh.events()
        assert grown.events(120) == fresh.events(120)
        for seq in (0, 60, 119, 120, 121, 136, 137):
            assert grown.frame(seq) == fresh.frame(seq), (seat, seq)
        assert before[seat].last_seq == 120 and before[seat].frame(120) == fresh.frame(120)   # unchanged
    with pytest.raises(RuntimeError):
        before[1].extended(after[1].timeline, after[1].turns)   # its seat stream moved on
    assert sources.get(match_id, 1) is after[1]                  # nothing new: nothing folded, same view
