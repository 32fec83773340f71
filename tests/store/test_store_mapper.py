"""The mapper: stable topics, the record's own canonical bytes, and corrupt rows named."""
from __future__ import annotations

import sqlite3
import uuid
import zlib
from collections.abc import Callable
from contextlib import closing
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from kifu.domain.core.envelope import canonical
from kifu.domain.core.errors import Malformed
from kifu.domain.core.match import Match
from kifu.store import KifuMapper, MatchStore
from kifu.store.mapper import StreamItem


def stored(mapper: KifuMapper, match: Match) -> list[StoredEvent]:
    key = uuid.UUID(match.header.match_id)
    items = [StreamItem(key, 0, match.header, match.header.ruleset)]
    items += [StreamItem(key, env.seq, env, match.header.ruleset) for env in match.envelopes]
    return [mapper.to_stored_event(item) for item in items]


def test_rows_carry_stable_topics_and_canonical_bytes(make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    match.submit(0, add(2))
    rows = stored(KifuMapper(), match)
    assert [(r.originator_version, r.topic) for r in rows] == [
        (0, "kifu.header/1"), (1, "kifu.event/store-test-counter"),
        (2, "kifu.event/store-test-counter"), (3, "kifu.event/store-test-counter")]
    assert rows[0].state == canonical(match.header)
    assert [r.state for r in rows[1:]] == [canonical(env) for env in match.envelopes]
    assert all(r.originator_id == uuid.UUID(match.header.match_id) for r in rows)


def test_rows_decode_to_equal_values(make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    match.submit(0, add(2))
    mapper = KifuMapper()
    decoded = [mapper.to_domain_event(row).payload for row in stored(mapper, match)]
    assert decoded == [match.header, *match.envelopes]


COUNTER_TOPIC = "kifu.event/store-test-counter"


@pytest.mark.parametrize("topic, state, message", [
    (COUNTER_TOPIC, b"{not json", "is not JSON"),
    (COUNTER_TOPIC, b'{"seq":1,"kind":"rule","event":{"type":"nope"}}', "does not match its schema"),
    (COUNTER_TOPIC, b'{"seq":2,"kind":"rule","event":{"type":"passed","to":1}}', "seq 2 stored at version 1"),
    ("kifu.domain.core.envelope:Envelope", b"{}", "unknown topic"),
])
def test_corrupt_rows_are_malformed_naming_the_row(topic: str, state: bytes, message: str) -> None:
    row = StoredEvent(originator_id=uuid.uuid4(), originator_version=1, topic=topic, state=state)
    with pytest.raises(Malformed, match=message) as caught:
        KifuMapper().to_domain_event(row)
    assert caught.value.where == f"match {row.originator_id} row 1"


def test_a_configured_compressor_is_applied(tmp_path: Any, make_match: Callable[..., Match]) -> None:
    path = str(tmp_path / "z.db")
    with MatchStore.open(path, environ={"COMPRESSOR_TOPIC": "eventsourcing.compressor:ZlibCompressor"}) as store:
        match = make_match()
        store.create(match)
        assert store.load(match.header.match_id).envelopes == match.envelopes
    with closing(sqlite3.connect(path)) as db:
        (state,) = db.execute("SELECT state FROM kifu_events WHERE originator_version = 0").fetchone()
    assert zlib.decompress(state) == canonical(match.header)


def test_a_header_row_from_a_newer_kifu_is_refused_by_name(make_match: Callable[..., Match]) -> None:
    match = make_match()
    newer = canonical(match.header).replace(b'"format":%d' % match.header.format, b'"format":99')
    row = StoredEvent(originator_id=uuid.UUID(match.header.match_id), originator_version=0,
                      topic="kifu.header/1", state=newer)
    with pytest.raises(Malformed, match="a newer Kifu wrote it"):
        KifuMapper().to_domain_event(row)
