"""Fixtures for the store tests: a tiny counter game, and one store per backend.

The counter game stands in for a real ruleset so the store is tested on its own: seats take
turns adding to a total; reaching the target wins. A decision emits two events (the addition
and its consequence), so every append is a multi-event transaction.

PostgreSQL tests use ``$KIFU_TEST_PG`` (default ``postgresql://postgres@127.0.0.1:5432/kifu_test``, made on first use),
each in a fresh schema dropped afterwards. If no server answers they are skipped, saying why —
unless ``KIFU_TEST_PG`` is set (CI sets it), then they fail: a named database must be there.
"""
from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest

from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import Illegal
from kifu.domain.core.layout import Layout
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Content, Decider, Outcome, Presentation, Ruleset, register
from kifu.store import MatchStore

COUNTER = "store-test-counter"


# -- the counter game ---------------------------------------------------------------------------
class Add(msgspec.Struct, frozen=True, tag="add"):
    n: int


class Started(msgspec.Struct, frozen=True, tag="started"):
    target: int


class Added(msgspec.Struct, frozen=True, tag="added"):
    seat: int
    n: int


class Passed(msgspec.Struct, frozen=True, tag="passed"):
    to: int


class Won(msgspec.Struct, frozen=True, tag="won"):
    seat: int


CounterEvent = Started | Added | Passed | Won


class Counter(msgspec.Struct, frozen=True):
    target: int = 0
    total: int = 0
    turn: int = 0
    winner: int | None = None


def _evolve(state: Counter, event: CounterEvent) -> Counter:
    match event:
        case Started(target=target):
            return msgspec.structs.replace(state, target=target)
        case Added(n=n):
            return msgspec.structs.replace(state, total=state.total + n)
        case Passed(to=to):
            return msgspec.structs.replace(state, turn=to)
        case Won(seat=seat):
            return msgspec.structs.replace(state, winner=seat)
    raise TypeError(event)


def _begin(header: object, state: Counter, draft: Draft[Counter, CounterEvent]) -> None:
    draft.setup("C-1", Started(target=state.target))


def _decide(state: Counter, seat: int, command: Add, draft: Draft[Counter, CounterEvent]) -> None:
    if command.n < 1:
        raise Illegal("C-2", "add at least 1")
    cause = draft.decision(seat, Added(seat, command.n), clause="C-2")
    if draft.state.total >= state.target:
        draft.rule("C-3", cause, Won(seat))
    else:
        draft.rule("C-4", cause, Passed(to=1 - seat))


def _outcome(state: Counter) -> Outcome | None:
    return None if state.winner is None else Outcome(termination="target", winner=state.winner, clause="C-3")


def _awaiting(state: Counter) -> frozenset[int]:
    return frozenset() if state.winner is not None else frozenset((state.turn,))


def _target(header: Any) -> int:
    """The target rides in seat 1's "deck" (the counter game has no cards)."""
    decks = getattr(header, "decks", None)
    return int(decks[0][0]) if decks and decks[0] else 1_000_000


def counter_ruleset() -> Ruleset[Counter, Add, CounterEvent]:
    return Ruleset(
        name=COUNTER, rules_version="1",
        decider=Decider(
            command_type=Add, event_type=CounterEvent, state_type=Counter,
            initial_state=lambda header: Counter(target=_target(header)),
            begin=_begin, decide=_decide, evolve=_evolve,
            legal=lambda state, seat: [Add(1)] if seat in _awaiting(state) else [],
            awaiting=_awaiting, outcome=_outcome, view=lambda state, seat: state,
            command_of=lambda event: Add(event.n) if isinstance(event, Added) else None, decide_clause="C-0"),
        content=Content(card_set_digest=lambda: "counter-cards"),
        presentation=Presentation(layout=lambda view: Layout(ruleset=COUNTER)),
    )


COUNTER_RULESET = counter_ruleset()


def new_match(target: int | None = None, players: tuple[str, str] = ("ann", "bob")) -> Match:
    return Match.create(COUNTER_RULESET, match_id=str(uuid.uuid4()), seed=7,
                        decks=[[target] if target else [], []], players=players)


# -- fixtures ---------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def counter_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counter game in the real registry for this test only (``register`` has no undo)."""
    from kifu.domain.core import ruleset

    monkeypatch.setitem(ruleset._REGISTRY, COUNTER, None)  # remembered as absent: undone after the test
    monkeypatch.setitem(ruleset._LOADED, COUNTER, None)
    register(COUNTER, lambda: COUNTER_RULESET)
    ruleset._LOADED.pop(COUNTER, None)  # loaded through the registry on first use, like any ruleset


@pytest.fixture
def add() -> type[Add]:
    return Add


@pytest.fixture
def make_match() -> Callable[..., Match]:
    return new_match


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """One URL per backend; the same URL may be opened by several stores (except memory)."""
    if request.param == "memory":
        return "memory"
    if request.param == "sqlite":
        return str(tmp_path / "kifu.db")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture(params=["sqlite", "postgres"])
def shared_db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """A database several stores (threads, processes) can share."""
    if request.param == "sqlite":
        return str(tmp_path / "kifu.db")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def open_store() -> Iterator[Callable[[str], MatchStore]]:
    """Opens stores on demand and closes them all after the test."""
    opened: list[MatchStore] = []

    def opener(url: str) -> MatchStore:
        store = MatchStore.open(url, environ={})
        opened.append(store)
        return store

    yield opener
    for store in opened:
        store.close()


@pytest.fixture
def store(db_url: str, open_store: Callable[[str], MatchStore]) -> MatchStore:
    return open_store(db_url)
