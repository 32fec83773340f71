"""The folded state of a tournament: players, rounds, tables, results. ``evolve`` never validates."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from .events import (
    DecklistCorrected,
    DecksPublished,
    Event,
    EventCreated,
    GameStarted,
    PlayerDropped,
    PlayerRegistered,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    Stage,
)


class Player(msgspec.Struct, kw_only=True):
    name: str
    deck_name: str
    commitment: str
    deck: Any
    missed: int = 0                  # rounds before a late entry: match losses
    dropped_after: int | None = None
    corrections: int = 0


class Game(msgspec.Struct, kw_only=True):
    game: int
    match_id: str
    seat1: str


class TableState(msgspec.Struct, kw_only=True):
    table: int
    seat1: str
    seat2: str | None
    games: list[Game] = msgspec.field(default_factory=list)
    wins: tuple[int, int] | None = None    # None until recorded
    draws: int = 0
    signed: bool = False
    corrected: str | None = None           # the judge's reason, when a judge corrected it

    @property
    def bye(self) -> bool:
        return self.seat2 is None

    @property
    def done(self) -> bool:
        return self.bye or self.wins is not None

    def winner(self) -> str | None:
        """The player who won the match (None: a draw, or not played yet)."""
        if self.seat2 is None:
            return self.seat1
        if self.wins is None or self.wins[0] == self.wins[1]:
            return None
        return self.seat1 if self.wins[0] > self.wins[1] else self.seat2


class Round(msgspec.Struct, kw_only=True):
    number: int
    stage: Stage
    tables: list[TableState]

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tables)


class State(msgspec.Struct, kw_only=True):
    created: EventCreated | None = None
    players: dict[str, Player] = msgspec.field(default_factory=dict)
    rounds: list[Round] = msgspec.field(default_factory=list)
    swiss_rounds: int = 0
    published: str | None = None                 # every list is public (and why)
    published_players: list[str] = msgspec.field(default_factory=list)   # these players' lists are (top cut)
    seq: int = 0

    @property
    def locked(self) -> bool:
        """Decklists lock when round 1 is paired."""
        return bool(self.rounds)

    def round(self, number: int) -> Round | None:
        return next((r for r in self.rounds if r.number == number), None)

    def table(self, number: int, table: int) -> TableState | None:
        found = self.round(number)
        return None if found is None else next((t for t in found.tables if t.table == table), None)

    def active(self, before_round: int) -> list[str]:
        """Players to pair in round ``before_round``: registered, not dropped before it."""
        return [p.name for p in self.players.values()
                if p.dropped_after is None or p.dropped_after >= before_round]


def _copy(s: State) -> State:
    """A copy ``evolve`` may change: the mutable parts copied, the rest (events, decks, games) shared,
    as nothing ever changes them (a deep copy of every list made each fold quadratic in time)."""
    replace = msgspec.structs.replace
    return State(created=s.created, players={k: replace(p) for k, p in s.players.items()},
                 rounds=[Round(number=r.number, stage=r.stage, tables=[replace(t, games=list(t.games))
                                                                      for t in r.tables]) for r in s.rounds],
                 swiss_rounds=s.swiss_rounds, published=s.published, published_players=list(s.published_players),
                 seq=s.seq)


def evolve(state: State, event: Event) -> State:
    """The state after ``event`` (a new object; ``state`` is left as it was)."""
    s = _copy(state)
    s.seq += 1
    match event:
        case EventCreated():
            s.created = event
            s.swiss_rounds = event.rounds
        case PlayerRegistered(player=name):
            s.players[name] = Player(name=name, deck_name=event.deck_name, commitment=event.commitment,
                                     deck=event.deck, missed=event.missed)
        case DecklistCorrected(player=name):
            p = s.players[name]
            p.deck_name, p.commitment, p.deck = event.deck_name, event.commitment, event.deck
            p.corrections += 1
        case RoundPaired():
            if event.rounds:
                s.swiss_rounds = event.rounds
            s.rounds.append(Round(number=event.round, stage=event.stage,
                                  tables=[TableState(table=t.table, seat1=t.seat1, seat2=t.seat2)
                                          for t in event.tables]))
        case GameStarted():
            table = s.table(event.round, event.table)
            if table is not None:
                table.games.append(Game(game=event.game, match_id=event.match_id, seat1=event.seat1))
        case ResultRecorded():
            table = s.table(event.round, event.table)
            if table is not None:
                table.wins, table.draws, table.signed = event.wins, event.draws, event.signed
        case ResultCorrected():
            table = s.table(event.round, event.table)
            if table is not None:
                table.wins, table.draws, table.corrected = event.wins, event.draws, event.reason
                table.signed = False
        case PlayerDropped(player=name):
            s.players[name].dropped_after = event.after_round
        case DecksPublished():
            if event.players:
                s.published_players = sorted(set(s.published_players) | set(event.players))
            else:
                s.published = event.why
    return s


def fold(events: Iterable[Event], state: State | None = None) -> State:
    s = state or State()
    for event in events:
        s = evolve(s, event)
    return s
