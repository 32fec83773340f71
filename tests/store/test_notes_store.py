"""The notes stream beside the matches: append-only, numbered per match, no note lost when
writers (each its own connection, as separate service processes) race on one match."""
from __future__ import annotations

import threading

import pytest

from kifu.domain.core.notes import Note
from kifu.store import resolve
from kifu.store.notes import NoteStore

MATCH = "5d0b8f0e-0000-4000-8000-000000000001"


def note(text: str, seq: int = 1, match_id: str = MATCH) -> Note:
    return Note(match_id=match_id, seq=seq, author="ann", at="2026-11-28T12:00:00.000Z", text=text)


def test_notes_are_numbered_per_match_in_the_order_added(db_url: str) -> None:
    with NoteStore.open(resolve(db_url, {})) as notes:
        first = notes.add(note("one"))
        other = notes.add(note("elsewhere", match_id="5d0b8f0e-0000-4000-8000-000000000002"))
        second = notes.add(note("two", seq=0))
        assert (first.number, second.number, other.number) == (1, 2, 1)
        stored = notes.notes(MATCH)
        assert [(n.number, n.text, n.seq) for n in stored] == [(1, "one", 1), (2, "two", 0)]
        assert notes.notes("5d0b8f0e-0000-4000-8000-00000000ffff") == []


def test_notes_survive_reopening_the_database(shared_db_url: str) -> None:
    with NoteStore.open(resolve(shared_db_url, {})) as notes:
        notes.add(note("kept"))
    with NoteStore.open(resolve(shared_db_url, {})) as again:
        assert [n.text for n in again.notes(MATCH)] == ["kept"]


WRITERS = 6
EACH = 15


def test_racing_writers_lose_no_note_and_number_them_without_gaps(shared_db_url: str) -> None:
    """Six writers, each with its own connection, add 15 notes each to one match at once."""
    config = resolve(shared_db_url, {})
    stores = [NoteStore.open(config) for _ in range(WRITERS)]
    barrier = threading.Barrier(WRITERS)
    failures: list[BaseException] = []
    numbers: list[list[int]] = [[] for _ in range(WRITERS)]

    def write(i: int) -> None:
        barrier.wait()
        try:
            for k in range(EACH):
                numbers[i].append(stores[i].add(note(f"w{i} n{k}")).number)
        except BaseException as exc:        # noted, then asserted on below
            failures.append(exc)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert failures == []
        stored = stores[0].notes(MATCH)
        assert [n.number for n in stored] == list(range(1, WRITERS * EACH + 1))
        assert sorted(n.text for n in stored) == sorted(f"w{i} n{k}" for i in range(WRITERS) for k in range(EACH))
        assert sorted(x for got in numbers for x in got) == list(range(1, WRITERS * EACH + 1))
        for got in numbers:             # each writer's own notes in the order it added them
            assert got == sorted(got)
    finally:
        for s in stores:
            s.close()


@pytest.mark.parametrize("bad", ["", "x" * 81])
def test_a_note_needs_an_author_of_sensible_length(bad: str) -> None:
    from kifu.domain.core.errors import Malformed
    from kifu.domain.core.notes import checked

    with pytest.raises(Malformed, match="author"):
        checked(Note(match_id=MATCH, seq=1, author=bad, at="t", text="x"))


