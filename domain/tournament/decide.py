"""``decide(state, command)``: the events a command causes, or ``Illegal`` naming the rule.

The organiser's rules, as clause ids of their own (docs/events.md lists them):

- E-created: an event is created once; a command needs the event to exist.
- E-register: registration needs a player name and a list; a late entry only while Swiss rounds remain.
- E-decklist-lock: lists lock when round 1 is paired; a change after that is a judge-approved correction.
- E-pair: a round is paired when the previous one has every result; no round after the last.
- E-game: a game is started only at a table of two players whose match is not decided yet.
- E-result: a result names the games of its table, and decides the match.
- E-correct: a correction names a judge and a reason.
- E-drop: only a registered player, once.
"""
from __future__ import annotations

import re

from kifu.domain.core.errors import Illegal

from .decklists import builtins, commitment
from .events import (
    Command,
    Correct,
    Create,
    DecklistCorrected,
    DecksPublished,
    Drop,
    Event,
    EventCreated,
    GameStarted,
    Pair,
    PlayerDropped,
    PlayerRegistered,
    Publish,
    Record,
    Register,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    StartGame,
)
from .standings import SPECS
from .state import State, TableState
from .swiss import cut, pair_swiss, pair_top, rounds_for

NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,47}")
PLAYER_MAX = 64
BEST_OF = (1, 3)


def decide(state: State, command: Command) -> list[Event]:
    if isinstance(command, Create):
        return _create(state, command)
    if state.created is None:
        raise Illegal("E-created", "no such event: create it first (kifu event new)")
    match command:
        case Register():
            return _register(state, command)
        case Pair():
            return _pair(state)
        case StartGame():
            return _start(state, command)
        case Record():
            return _record(state, command)
        case Correct():
            return _correct(state, command)
        case Drop():
            return _drop(state, command)
        case Publish():
            return [DecksPublished(why=command.why)]
    raise Illegal("E-created", f"unknown command {type(command).__name__}")


def _create(state: State, c: Create) -> list[Event]:
    if state.created is not None:
        raise Illegal("E-created", f"event {c.name!r} exists already")
    if not NAME.fullmatch(c.name):
        raise Illegal("E-created", f"event name {c.name!r}: lower-case letters, digits, '-' and '_', at most 48")
    if c.rounds < 0:
        raise Illegal("E-created", f"--rounds {c.rounds}: a number of rounds, or auto")
    if c.top_cut and (c.top_cut < 2 or c.top_cut & (c.top_cut - 1)):
        raise Illegal("E-created", f"--top-cut {c.top_cut}: 0 or a power of two (2, 4, 8, …)")
    if c.best_of not in BEST_OF:
        raise Illegal("E-created", f"--best-of {c.best_of}: 1 or 3")
    if c.spec not in SPECS:
        raise Illegal("E-created", f"tiebreaker spec {c.spec!r}: one of {', '.join(SPECS)}")
    return [EventCreated(name=c.name, ruleset=c.ruleset, rounds=c.rounds, top_cut=c.top_cut, best_of=c.best_of,
                         spec=c.spec)]


def _register(state: State, c: Register) -> list[Event]:
    player = c.player.strip()
    if not player or len(player) > PLAYER_MAX:
        raise Illegal("E-register", f"player name {c.player!r}: 1 to {PLAYER_MAX} characters")
    deck = builtins(c.deck)
    digest = commitment(deck)
    known = state.players.get(player)
    if state.locked and known is not None:
        if digest == known.commitment:
            raise Illegal("E-decklist-lock", f"{player} registered this very list already")
        if not (c.judge and c.reason):
            raise Illegal("E-decklist-lock", f"{player}'s list is locked since round 1 was paired "
                          f"(registered: {known.deck_name}, {known.commitment[:12]}); a change needs a judge and a "
                          "reason (--judge NAME --reason TEXT)")
        return [DecklistCorrected(player=player, deck_name=c.deck_name, commitment=digest, deck=deck, judge=c.judge,
                                  reason=c.reason)]
    missed = 0
    if state.locked:
        swiss = [r for r in state.rounds if r.stage == "swiss"]
        if any(r.stage == "top" for r in state.rounds) or len(swiss) >= state.swiss_rounds:
            raise Illegal("E-register", "late entry is closed: every Swiss round is paired")
        missed = len(swiss)
    return [PlayerRegistered(player=player, deck_name=c.deck_name, commitment=digest, deck=deck, missed=missed)]


def _pair(state: State) -> list[Event]:
    assert state.created is not None
    last = state.rounds[-1] if state.rounds else None
    if last is not None and not last.done:
        open_tables = [str(t.table) for t in last.tables if not t.done]
        raise Illegal("E-pair", f"round {last.number} is not over: no result at table {', '.join(open_tables)}")
    number = (last.number if last else 0) + 1
    swiss = [r for r in state.rounds if r.stage == "swiss"]
    players = state.active(number)
    if not state.rounds:
        if len(players) < 2:
            raise Illegal("E-pair", f"{len(players)} player registered: a round needs two at least")
        rounds = state.created.rounds or rounds_for(len(players))
        return [RoundPaired(round=number, stage="swiss", rounds=rounds, tables=pair_swiss(state, number))]
    if len(swiss) < state.swiss_rounds:
        if len(players) < 2:
            raise Illegal("E-pair", "fewer than two players left to pair")
        return [RoundPaired(round=number, tables=pair_swiss(state, number))]
    top = [r for r in state.rounds if r.stage == "top"]
    size = state.created.top_cut
    if size and len(top) < size.bit_length() - 1:
        if not top:
            seeds = cut(state)
            if len(seeds) < size:
                raise Illegal("E-pair", f"a top {size} needs {size} players still in; {len(seeds)} are")
            return [RoundPaired(round=number, stage="top", tables=pair_top(state, number)),
                    DecksPublished(why="top cut", players=tuple(seeds))]
        return [RoundPaired(round=number, stage="top", tables=pair_top(state, number))]
    raise Illegal("E-pair", f"the event is over: {len(swiss)} Swiss rounds"
                  + (f" and the top {size}" if size else "") + " are played")


def _table(state: State, round_number: int, table: int) -> TableState:
    found = state.table(round_number, table)
    if found is None:
        raise Illegal("E-game", f"no table {table} in round {round_number}")
    return found


def tally(table: TableState, winners: tuple[str | None, ...]) -> tuple[tuple[int, int], int]:
    w1 = sum(w == table.seat1 for w in winners)
    w2 = sum(w == table.seat2 for w in winners)
    return (w1, w2), sum(w is None for w in winners)


def decided(state: State, round_number: int, table: TableState, winners: tuple[str | None, ...]) -> bool:
    """Whether these games decide the table's match: a majority of the best-of; in the Swiss also
    all its games played (1–1–1 is a drawn match); in the top cut only a winner ends it."""
    assert state.created is not None
    best_of = state.created.best_of
    (w1, w2), _ = tally(table, winners)
    if max(w1, w2) > best_of // 2:
        return True
    rnd = state.round(round_number)
    return rnd is not None and rnd.stage == "swiss" and len(winners) >= best_of


def _start(state: State, c: StartGame) -> list[Event]:
    table = _table(state, c.round, c.table)
    if table.seat2 is None:
        raise Illegal("E-game", f"table {c.table} of round {c.round} is a bye")
    if table.wins is not None:
        raise Illegal("E-game", f"table {c.table} of round {c.round} has its result")
    game = len(table.games) + 1
    seat1 = table.seat1 if game % 2 else table.seat2
    seat2 = table.seat2 if seat1 == table.seat1 else table.seat1
    return [GameStarted(round=c.round, table=c.table, game=game, match_id=c.match_id, seat1=seat1,
                        commitments=(state.players[seat1].commitment, state.players[seat2].commitment))]


def _record(state: State, c: Record) -> list[Event]:
    table = _table(state, c.round, c.table)
    if table.seat2 is None:
        raise Illegal("E-result", f"table {c.table} of round {c.round} is a bye: it needs no result")
    if table.wins is not None:
        raise Illegal("E-result", f"table {c.table} of round {c.round} has its result; a change is a correction")
    if tuple(g.match_id for g in table.games) != c.games or len(c.winners) != len(c.games):
        raise Illegal("E-result", f"the result of table {c.table} must come from its games, "
                      f"{', '.join(g.match_id for g in table.games) or 'none started'}")
    if not decided(state, c.round, table, c.winners):
        raise Illegal("E-result", f"table {c.table} of round {c.round}: the match is not decided yet")
    wins, draws = tally(table, c.winners)
    return [ResultRecorded(round=c.round, table=c.table, wins=wins, draws=draws, games=c.games, signed=c.signed)]


def _correct(state: State, c: Correct) -> list[Event]:
    table = _table(state, c.round, c.table)
    if not c.judge.strip() or not c.reason.strip():
        raise Illegal("E-correct", "a result correction names the judge and the reason")
    if table.seat2 is None:
        raise Illegal("E-correct", f"table {c.table} of round {c.round} is a bye")
    if min(*c.wins, c.draws) < 0:
        raise Illegal("E-correct", "games won and drawn are counts")
    rnd = state.round(c.round)
    if rnd is not None and rnd.stage == "top" and c.wins[0] == c.wins[1]:
        raise Illegal("E-correct", "a top-cut match has a winner")
    return [ResultCorrected(round=c.round, table=c.table, wins=c.wins, draws=c.draws, judge=c.judge.strip(),
                            reason=c.reason.strip())]


def _drop(state: State, c: Drop) -> list[Event]:
    p = state.players.get(c.player)
    if p is None:
        raise Illegal("E-drop", f"{c.player!r} is not registered")
    if p.dropped_after is not None:
        raise Illegal("E-drop", f"{c.player} dropped after round {p.dropped_after} already")
    last = state.rounds[-1].number if state.rounds else 0
    return [PlayerDropped(player=c.player, after_round=last)]
