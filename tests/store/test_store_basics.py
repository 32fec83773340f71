"""The match store on every backend: round trips, appends, conflicts, unknown matches, listing."""
from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from kifu.domain.core.errors import Conflict, Illegal, Malformed, MatchOver, UnknownMatch
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.record import first_broken_link
from kifu.store import HEADER_TOPIC, MatchExists, MatchStore


def seat_of(match: Match) -> int:
    seat = match.deciding
    assert seat is not None, "the match is over"
    return seat


def play(store: MatchStore, match_id: str, add: Any, turns: int, n: int = 1) -> None:
    for _ in range(turns):
        match = store.load(match_id)
        store.submit(match_id, seat_of(match), add(n), expected_seq=match.seq)


def rows(store: MatchStore) -> int:
    return store.last_notification_id()


def test_create_then_load_gives_back_the_same_match(store: MatchStore, make_match: Callable[..., Match]) -> None:
    match = make_match()
    store.create(match)
    loaded = store.load(match.header.match_id)
    assert loaded.header == match.header
    assert loaded.envelopes == match.envelopes
    assert loaded.state == match.state
    assert loaded.head == match.head
    assert first_broken_link(loaded.header, loaded.envelopes) is None


def test_header_is_stored_at_version_zero_and_events_at_their_seq(store: MatchStore,
                                                                  make_match: Callable[..., Match]) -> None:
    match = make_match()
    store.create(match)
    notices = store.notifications(1, 10)
    assert [(n.seq, type(n.item)) for n in notices][0] == (0, Header)
    assert [n.seq for n in notices[1:]] == [env.seq for env in match.envelopes] == [1]
    assert {n.match_id for n in notices} == {match.header.match_id}
    assert store.header(match.header.match_id) == match.header
    assert store.events(match.header.match_id) == match.envelopes  # the header is not an event
    assert HEADER_TOPIC == "kifu.header/1"


def test_submit_stores_one_decision_and_returns_its_events(store: MatchStore,
                                                           make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    store.create(match)
    mid = match.header.match_id
    expected, _ = match.decide(0, add(3))
    assert store.submit(mid, 0, add(3), expected_seq=1) == expected
    assert [env.seq for env in store.events(mid)] == [1, 2, 3]
    assert store.load(mid).state.total == 3


def test_many_decisions_fold_to_the_same_state_as_in_memory(store: MatchStore,
                                                            make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    store.create(match)
    mid = match.header.match_id
    for i in range(60):
        seat = seat_of(match)
        assert store.submit(mid, seat, add(i + 1)) == match.submit(seat, add(i + 1))
    loaded = store.load(mid)
    assert loaded.seq == match.seq == 1 + 60 * 2
    assert loaded.state == match.state
    assert loaded.envelopes == match.envelopes
    assert [env.seq for env in loaded.envelopes] == list(range(1, loaded.seq + 1))
    assert first_broken_link(loaded.header, loaded.envelopes) is None


def test_append_stores_envelopes_decided_elsewhere(store: MatchStore,
                                                   make_match: Callable[..., Match], add: Any) -> None:
    match = make_match(target=5)
    store.create(match)
    mid = match.header.match_id
    envelopes, state = match.decide(0, add(5))
    store.append(mid, match.seq, envelopes, outcome=match.ruleset.decider.outcome(state))
    assert store.events(mid, after_seq=1) == envelopes
    assert store.list_matches()[0].status == "over"


def test_stale_expected_seq_is_a_conflict_and_stores_nothing(store: MatchStore,
                                                             make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    store.create(match)
    mid = match.header.match_id
    store.submit(mid, 0, add(1), expected_seq=1)
    before = rows(store)
    with pytest.raises(Conflict) as caught:
        store.submit(mid, 1, add(1), expected_seq=1)
    assert (caught.value.match_id, caught.value.expected, caught.value.actual) == (mid, 1, 3)
    envelopes, _ = match.decide(0, add(1))  # decided on seq 1, the store is at 3
    with pytest.raises(Conflict) as caught:
        store.append(mid, 1, envelopes)
    assert (caught.value.expected, caught.value.actual) == (1, 3)
    assert rows(store) == before
    assert store.load(mid).seq == 3
    assert store.list_matches()[0].seq == 3


def test_expected_seq_beyond_the_stream_is_a_conflict_not_a_gap(store: MatchStore,
                                                                make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    store.create(match)
    mid = match.header.match_id
    ahead = Match.fold(match.ruleset, match.header, match.envelopes)
    ahead.submit(0, add(1))
    envelopes, _ = ahead.decide(1, add(1))  # seq 4 and 5, while the store is at 1
    with pytest.raises(Conflict) as caught:
        store.append(mid, 3, envelopes)
    assert (caught.value.expected, caught.value.actual) == (3, 1)
    assert [env.seq for env in store.events(mid)] == [1]


def test_envelopes_must_follow_the_expected_seq(store: MatchStore, make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    store.create(match)
    envelopes, _ = match.decide(0, add(1))
    with pytest.raises(ValueError, match="seq 2 where 3 was expected"):
        store.append(match.header.match_id, 2, envelopes)


def test_illegal_decisions_store_nothing(store: MatchStore, make_match: Callable[..., Match], add: Any) -> None:
    match = make_match(target=2)
    store.create(match)
    mid = match.header.match_id
    before = rows(store)
    with pytest.raises(Illegal) as caught:
        store.submit(mid, 0, add(0))
    assert caught.value.clause == "C-2"
    with pytest.raises(Illegal):
        store.submit(mid, 1, add(1))  # not seat 1's turn
    store.submit(mid, 0, add(2))
    with pytest.raises(MatchOver):
        store.submit(mid, 1, add(1))
    assert rows(store) == before + 2


def test_unknown_matches_are_named(store: MatchStore, add: Any) -> None:
    calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [
        (store.load, ()), (store.header, ()), (store.events, ()), (store.summary, ()),
        (store.submit, (0, add(1))), (store.append, (0, [])),
    ]
    for mid in (str(uuid.uuid4()), "not-a-uuid"):
        for call, args in calls:
            with pytest.raises(UnknownMatch) as caught:
                call(mid, *args)
            assert caught.value.match_id == mid


def test_creating_a_match_twice_is_refused(store: MatchStore, make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    store.create(match)
    store.submit(match.header.match_id, 0, add(1))
    with pytest.raises(MatchExists) as caught:
        store.create(match)
    assert isinstance(caught.value, Conflict) and caught.value.actual == 3
    assert "already exists" in str(caught.value)
    assert store.load(match.header.match_id).seq == 3


def test_a_match_id_must_be_a_uuid(store: MatchStore, make_match: Callable[..., Match]) -> None:
    match = make_match()
    bad = Match(match.ruleset, Header(**{**_fields(match.header), "match_id": "m-1"}), match.state,
                match.envelopes, match.head)
    with pytest.raises(Malformed, match="not a UUID"):
        store.create(bad)


def test_list_matches_shows_players_progress_and_outcome(store: MatchStore,
                                                         make_match: Callable[..., Match], add: Any) -> None:
    assert store.list_matches() == []
    first, second = make_match(target=3), make_match(players=("cy", "di"))
    store.create(first)
    store.create(second)
    store.submit(first.header.match_id, 0, add(3))
    store.submit(second.header.match_id, 0, add(1))
    store.submit(second.header.match_id, 1, add(1))
    listed = store.list_matches()
    assert [(m.match_id, m.ruleset, m.players, m.seq, m.status) for m in listed] == [
        (first.header.match_id, first.header.ruleset, ("ann", "bob"), 3, "over"),
        (second.header.match_id, first.header.ruleset, ("cy", "di"), 5, "ongoing"),
    ]
    assert listed[0].outcome is not None and listed[0].outcome.winner == 0
    assert listed[1].outcome is None
    assert [store.summary(m.match_id) for m in listed] == listed
    with pytest.raises(UnknownMatch):
        store.summary(str(uuid.uuid4()))


def test_events_after_a_seq(store: MatchStore, make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    store.create(match)
    mid = match.header.match_id
    play(store, mid, add, 3)
    assert [env.seq for env in store.events(mid, after_seq=4)] == [5, 6, 7]
    assert store.events(mid, after_seq=7) == []
    assert len(store.events(mid, after_seq=-5)) == 7


def test_notifications_page_through_every_match_in_commit_order(store: MatchStore,
                                                                make_match: Callable[..., Match], add: Any) -> None:
    a, b = make_match(), make_match()
    store.create(a)
    store.create(b)
    store.submit(a.header.match_id, 0, add(1))
    seen = []
    start = 1
    while page := store.notifications(start, limit=3):
        seen.extend(page)
        start = page[-1].id + 1
    assert [n.id for n in seen] == sorted(n.id for n in seen)
    assert len(seen) == rows(store) - (seen[0].id - 1) == 2 + 2 + 2
    assert [(n.match_id, n.seq) for n in seen] == [
        (a.header.match_id, 0), (a.header.match_id, 1), (b.header.match_id, 0), (b.header.match_id, 1),
        (a.header.match_id, 2), (a.header.match_id, 3)]
    assert seen[-1].item == store.events(a.header.match_id)[-1]


def test_a_second_store_on_the_same_database_sees_everything(db_url: str, open_store: Callable[[str], MatchStore],
                                                         make_match: Callable[..., Match], add: Any) -> None:
    if db_url == "memory":
        pytest.skip("an in-memory store is private to its object")
    one, two = open_store(db_url), open_store(db_url)
    match = make_match()
    one.create(match)
    mid = match.header.match_id
    one.submit(mid, 0, add(1))
    two.submit(mid, 1, add(1))   # two folds from the database
    one.submit(mid, 0, add(1))   # one's cached fold catches up with two's decision first
    assert one.load(mid).envelopes == two.load(mid).envelopes
    assert one.load(mid).seq == 7
    assert first_broken_link(match.header, two.events(mid)) is None


def test_a_reopened_store_finds_its_matches(db_url: str, open_store: Callable[[str], MatchStore],
                                            make_match: Callable[..., Match], add: Any) -> None:
    if db_url == "memory":
        pytest.skip("an in-memory store is gone when closed")
    store = open_store(db_url)
    match = make_match()
    store.create(match)
    store.submit(match.header.match_id, 0, add(2))
    store.close()
    again = open_store(db_url)
    assert again.load(match.header.match_id).state.total == 2
    assert [m.match_id for m in again.list_matches()] == [match.header.match_id]


def test_loaded_matches_belong_to_the_caller(store: MatchStore, make_match: Callable[..., Match], add: Any) -> None:
    match = make_match()
    store.create(match)
    mid = match.header.match_id
    mine = store.load(mid)
    mine.submit(0, add(5))  # in memory only
    assert store.load(mid).seq == 1
    assert store.submit(mid, 0, add(1))[0].seq == 2


def _fields(header: Header) -> dict[str, Any]:
    return {name: getattr(header, name) for name in header.__struct_fields__}
