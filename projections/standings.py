"""Tournament standings: a read model of results per player and deck, cards played and match length.

It pulls the store's notification log (every stored header and event of every match, in commit
order) and keeps, in its own tables of the same database (``kifu.store.standings`` opens it: this
read model knows only the ``Log`` and ``Db`` protocols below), one row per match, the cards played,
and the position of the last notification it folded in. Rows and position change in one
transaction, so a crash or a restart resumes exactly where the last commit stopped and nothing
is counted twice; two processes catching up at once take turns (the position row is locked).

What it counts, without knowing a ruleset's internals:
- a match's result from ``ruleset.outcome`` of the folded state; its length in events, decisions
  and turns (the state's ``turn``, if it has one);
- a card *played* as the ruleset's ``played`` hook says (the event that puts a card into play:
  a unit summoned, a spell cast, a character placed), for the seat the event is about, by event
  type, so a game without a hand counts as well.
Forks and prepared positions (scenarios) are kept but left out of the standings.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Sequence
from typing import Any, Protocol

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.roles import fields_with
from kifu.domain.core.ruleset import find_ruleset

NAME = "standings"
UNREADABLE = "unreadable"   # a match's termination when its stored events cannot be folded
BATCH = 500
NAME_MAX = 64      # player and deck names as the standings keep them
STATES_KEPT = 64   # folded states of matches in progress kept between notices

TABLES = (
    "CREATE TABLE IF NOT EXISTS kifu_standings_position (projection TEXT PRIMARY KEY, position BIGINT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS kifu_standings_matches (match_id TEXT PRIMARY KEY, ruleset TEXT NOT NULL, "
    "player1 TEXT NOT NULL, player2 TEXT NOT NULL, deck1 TEXT NOT NULL, deck2 TEXT NOT NULL, "
    "counted INTEGER NOT NULL, events INTEGER NOT NULL, decisions INTEGER NOT NULL, turns INTEGER NOT NULL, "
    "winner INTEGER, termination TEXT, over INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS kifu_standings_plays (match_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    "card TEXT NOT NULL, how TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (match_id, seat, card, how))",
    # the header's tournament fields, for --event/--round (a store folded before it existed: --rebuild)
    "CREATE TABLE IF NOT EXISTS kifu_standings_events (match_id TEXT PRIMARY KEY, event TEXT, round TEXT)",
)
_COLUMNS = ("match_id", "ruleset", "player1", "player2", "deck1", "deck2", "counted", "events", "decisions",
            "turns", "winner", "termination", "over")


class MatchRow(msgspec.Struct, kw_only=True):
    match_id: str
    ruleset: str
    player1: str
    player2: str
    deck1: str
    deck2: str
    counted: int            # 0 for forks and prepared positions: not part of the standings
    events: int = 0
    decisions: int = 0
    turns: int = 0
    winner: int | None = None
    termination: str | None = None
    over: int = 0
    event: str | None = None      # kept in kifu_standings_events (set when the header is folded)
    round: str | None = None

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, c) for c in _COLUMNS)


class Line(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    played: int
    won: int
    lost: int
    drawn: int
    ongoing: int

    @property
    def score(self) -> float:
        return self.won + 0.5 * self.drawn


class Play(msgspec.Struct, frozen=True, kw_only=True):
    card: str
    deck: str
    how: str
    n: int


class Report(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str | None = None   # the one ruleset this report covers (None: unfiltered)
    position: int
    matches: int                 # counted matches (forks and scenarios left out)
    finished: int
    left_out: int
    players: tuple[Line, ...]
    decks: tuple[Line, ...]
    cards: tuple[Play, ...]
    avg_turns: float | None
    avg_decisions: float | None
    avg_events: float | None


# -- the database ---------------------------------------------------------------------------------
class Db(Protocol):
    """The standings' tables: SQL with ``%s`` parameters; ``lock_row`` is what locks a selected
    row until commit (" FOR UPDATE" on PostgreSQL; "" where ``begin`` already takes the lock)."""

    lock_row: str

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]: ...
    def begin(self) -> None: ...
    def commit(self) -> None: ...
    def rollback(self) -> None: ...
    def close(self) -> None: ...


class Notice(Protocol):
    """One row of the store's notification log (``kifu.store.Notice``)."""

    @property
    def id(self) -> int: ...
    @property
    def match_id(self) -> str: ...
    @property
    def item(self) -> Header | Envelope[Any] | object: ...


class Log(Protocol):
    """What the standings read of the store: its notification log, and a match's header and events
    (to refold a match in progress after a restart)."""

    def notifications(self, start: int = 1, limit: int = 100) -> Sequence[Notice]: ...
    def header(self, match_id: str) -> Header: ...
    def events(self, match_id: str, after_seq: int = 0) -> list[Envelope[Any]]: ...


# -- the projection -------------------------------------------------------------------------------
class Standings:
    """``log``: the store read; ``db``: the tables kept (``kifu.store.standings.open_standings``
    opens both on one store)."""

    def __init__(self, log: Log, db: Db) -> None:
        self.store = log
        self.db = db
        for statement in TABLES:
            self.db.execute(statement)
        self.db.execute("INSERT INTO kifu_standings_position (projection, position) VALUES (%s, 0) "
                        "ON CONFLICT (projection) DO NOTHING", (NAME,))
        self._states: OrderedDict[str, tuple[int, Any]] = OrderedDict()   # match -> (seq, folded state)

    def close(self) -> None:
        self.db.close()

    @property
    def position(self) -> int:
        return int(self.db.execute("SELECT position FROM kifu_standings_position WHERE projection = %s",
                                   (NAME,))[0][0])

    def catch_up(self, batch: int = BATCH, max_batches: int | None = None) -> int:
        """Fold in every notification after the stored position; returns how many were folded."""
        total = 0
        batches = 0
        while max_batches is None or batches < max_batches:
            done = self._batch(batch)
            batches += 1
            total += done
            if done < batch:
                break
        return total

    def rebuild(self) -> int:
        self.db.begin()
        try:
            for table in ("kifu_standings_matches", "kifu_standings_plays", "kifu_standings_events"):
                self.db.execute(f"DELETE FROM {table}")
            self.db.execute("UPDATE kifu_standings_position SET position = 0 WHERE projection = %s", (NAME,))
            self.db.commit()
        except BaseException:
            self.db.rollback()
            raise
        self._states.clear()
        return self.catch_up()

    def _batch(self, limit: int) -> int:
        self.db.begin()
        try:
            position = int(self.db.execute("SELECT position FROM kifu_standings_position WHERE projection = %s"
                                           + self.db.lock_row, (NAME,))[0][0])
            notices = self.store.notifications(position + 1, limit)
            rows: dict[str, MatchRow] = {}
            plays: dict[tuple[str, int, str, str], int] = {}
            for notice in notices:
                self._fold(notice.match_id, notice.item, rows, plays)
            for row in rows.values():
                self.db.execute(f"INSERT INTO kifu_standings_matches ({', '.join(_COLUMNS)}) VALUES "
                                f"({', '.join(['%s'] * len(_COLUMNS))}) ON CONFLICT (match_id) DO UPDATE SET "
                                + ", ".join(f"{c} = excluded.{c}" for c in _COLUMNS[1:]), row.values())
            for row in rows.values():
                if row.event is not None or row.round is not None:
                    self.db.execute("INSERT INTO kifu_standings_events (match_id, event, round) VALUES (%s, %s, %s) "
                                    "ON CONFLICT (match_id) DO NOTHING", (row.match_id, row.event, row.round))
            for (match_id, seat, card, how), n in plays.items():
                self.db.execute("INSERT INTO kifu_standings_plays (match_id, seat, card, how, n) VALUES "
                                "(%s, %s, %s, %s, %s) ON CONFLICT (match_id, seat, card, how) "
                                "DO UPDATE SET n = kifu_standings_plays.n + excluded.n",
                                (match_id, seat, card, how, n))
            if notices:
                self.db.execute("UPDATE kifu_standings_position SET position = %s WHERE projection = %s",
                                (notices[-1].id, NAME))
            self.db.commit()
        except BaseException:
            self.db.rollback()
            self._states.clear()   # folded ahead of what was committed: refold from the store
            raise
        return len(notices)

    def _row(self, match_id: str, rows: dict[str, MatchRow]) -> MatchRow | None:
        row = rows.get(match_id)
        if row is None:
            found = self.db.execute(f"SELECT {', '.join(_COLUMNS)} FROM kifu_standings_matches WHERE match_id = %s",
                                    (match_id,))
            if found:
                row = rows[match_id] = MatchRow(**dict(zip(_COLUMNS, found[0], strict=True)))
        return row

    def _fold(self, match_id: str, item: Header | Envelope[Any] | object, rows: dict[str, MatchRow],
              plays: dict[tuple[str, int, str, str], int]) -> None:
        """Fold one stored item in. Stored data may be hostile (a record imported before imports
        were re-adjudicated): a match whose events its ruleset cannot fold is kept out of the
        standings with the reason, and the rest goes on."""
        if not isinstance(item, Header | Envelope):
            return   # a row of a tournament's stream (kifu.domain.tournament), not of a match
        try:
            self._fold_item(match_id, item, rows, plays)
        except Exception as exc:   # a read model never crashes on stored data
            row = rows.get(match_id)
            if row is None:
                header = item if isinstance(item, Header) else None
                row = rows[match_id] = MatchRow(match_id=match_id, ruleset=str(getattr(header, "ruleset", "?"))[:64],
                                                player1="?", player2="?", deck1="?", deck2="?", counted=0)
            row.counted = 0
            row.termination = f"{UNREADABLE} at #{getattr(item, 'seq', 0)}: {type(exc).__name__}"
            self._states.pop(match_id, None)

    def _fold_item(self, match_id: str, item: Header | Envelope[Any], rows: dict[str, MatchRow],
                   plays: dict[tuple[str, int, str, str], int]) -> None:
        if isinstance(item, Header):
            decks = [_deck_name(d) for d in item.decks]
            rows[match_id] = MatchRow(match_id=match_id, ruleset=item.ruleset[:64], player1=item.players[0][:NAME_MAX],
                                      player2=item.players[1][:NAME_MAX], deck1=decks[0][:NAME_MAX],
                                      deck2=decks[1][:NAME_MAX],
                                      counted=int(item.forked_from is None and item.start is None),
                                      event=(item.event or None) and item.event[:NAME_MAX],
                                      round=(item.round or None) and item.round[:NAME_MAX])
            ruleset = find_ruleset(item.ruleset)
            self._keep(match_id, 0, ruleset.decider.initial_state(item))
            return
        row = self._row(match_id, rows)
        if row is None or (row.termination or "").startswith(UNREADABLE):
            return   # a header from before the tables existed, or a match already found unreadable
        ruleset = find_ruleset(row.ruleset)
        before = self._state_before(match_id, item.seq, ruleset)
        after = record_evolve(ruleset)(before, item.event)
        name = ruleset.presentation.played(after, item.event)
        seat = item.seat or _seat_of(item.event)
        if name is not None and seat is not None:
            key = (match_id, seat, name, type(item.event).__name__)
            plays[key] = plays.get(key, 0) + 1
        self._keep(match_id, item.seq, after)
        row.events = item.seq
        row.decisions += item.kind == "decision"
        turn = ruleset.presentation.turn(after)
        if isinstance(turn, int):
            row.turns = max(row.turns, turn)
        outcome = ruleset.decider.outcome(after)
        if outcome is not None and not row.over:
            row.over, row.winner, row.termination = 1, outcome.winner, outcome.termination

    def _state_before(self, match_id: str, seq: int, ruleset: Any) -> Any:
        kept = self._states.get(match_id)
        if kept is not None and kept[0] == seq - 1:
            return kept[1]
        header = self.store.header(match_id)   # after a restart: fold the stored events up to here
        match = Match.fold(ruleset, header, self.store.events(match_id)[:seq - 1])
        return match.state

    def _keep(self, match_id: str, seq: int, state: Any) -> None:
        self._states[match_id] = (seq, state)
        self._states.move_to_end(match_id)
        while len(self._states) > STATES_KEPT:
            self._states.popitem(last=False)

    # -- reading ----------------------------------------------------------------------------------
    def rulesets(self, event: str | None = None, round_: str | None = None) -> list[str]:
        """The rulesets of the counted matches (of ``event`` and ``round_`` when given), by name."""
        where, params = _where(None, event, round_)
        return [r[0] for r in self.db.execute(f"SELECT DISTINCT ruleset FROM kifu_standings_matches m WHERE {where} "
                                              "ORDER BY ruleset", params)]

    def report(self, top: int = 10, *, ruleset: str | None = None, event: str | None = None,
               round_: str | None = None) -> Report:
        """The standings of the counted matches of ``ruleset`` (of ``event``, its ``round_``, when
        given). One ruleset a report: decks, cards and lengths of different games never mix."""
        q = self.db.execute
        where, params = _where(ruleset, event, round_)
        sides = (f"SELECT {{0}}1, 1, winner, over FROM kifu_standings_matches m WHERE {where} "
                 f"UNION ALL SELECT {{0}}2, 2, winner, over FROM kifu_standings_matches m WHERE {where}")
        players = _lines(q(sides.format("player"), params + params))
        decks = _lines(q(sides.format("deck"), params + params))
        cards = q("SELECT p.card, CASE WHEN p.seat = 1 THEN m.deck1 ELSE m.deck2 END AS deck, p.how, SUM(p.n) AS n "
                  f"FROM kifu_standings_plays p JOIN kifu_standings_matches m ON m.match_id = p.match_id "
                  f"WHERE {where} GROUP BY p.card, deck, p.how ORDER BY n DESC, p.card, deck, p.how LIMIT %s",
                  (*params, top))
        count, finished, turns, decisions, events = q(
            "SELECT COUNT(*), SUM(over), AVG(CASE WHEN over = 1 THEN turns END), "
            "AVG(CASE WHEN over = 1 THEN decisions END), AVG(CASE WHEN over = 1 THEN events END) "
            f"FROM kifu_standings_matches m WHERE {where}", params)[0]
        out_where, out_params = _where(ruleset, event, round_, counted=0)
        left_out = q(f"SELECT COUNT(*) FROM kifu_standings_matches m WHERE {out_where}", out_params)[0][0]
        return Report(ruleset=ruleset, position=self.position, matches=int(count), finished=int(finished or 0),
                      left_out=int(left_out), players=players, decks=decks,
                      cards=tuple(Play(card=c, deck=d, how=h, n=int(n)) for c, d, h, n in cards),
                      avg_turns=_round(turns), avg_decisions=_round(decisions), avg_events=_round(events))


    def player_lines(self, ongoing: Collection[str] = ()) -> tuple[Line, ...]:
        """The players' lines of ``report``, with the matches ``ongoing`` names counted as not over
        yet: a delayed feed must not tell a featured match's result before it shows its end."""
        rows = self.db.execute("SELECT match_id, player1, player2, winner, over FROM kifu_standings_matches "
                               "WHERE counted = 1")
        hide = set(ongoing)
        return _lines([(row[1 + i], 1 + i, row[3], 0 if row[0] in hide else row[4]) for row in rows for i in (0, 1)])


def _where(ruleset: str | None, event: str | None, round_: str | None, counted: int = 1) -> tuple[str, tuple[Any, ...]]:
    """The filter of a report's queries on ``kifu_standings_matches m``, and its parameters."""
    parts, params = [f"m.counted = {counted}"], []
    if ruleset is not None:
        parts.append("m.ruleset = %s")
        params.append(ruleset)
    if event is not None or round_ is not None:
        sub = ["e.match_id = m.match_id"]
        if event is not None:
            sub.append("e.event = %s")
            params.append(event)
        if round_ is not None:
            sub.append("e.round = %s")
            params.append(round_)
        parts.append(f"EXISTS (SELECT 1 FROM kifu_standings_events e WHERE {' AND '.join(sub)})")
    return " AND ".join(parts), tuple(params)


def _round(value: Any) -> float | None:
    return None if value is None else round(float(value), 1)


def _lines(rows: list[tuple[Any, ...]]) -> tuple[Line, ...]:
    table: dict[str, list[int]] = {}
    for name, seat, winner, over in rows:
        t = table.setdefault(name, [0, 0, 0, 0, 0])
        t[0] += 1
        if not over:
            t[4] += 1
        elif winner is None:
            t[3] += 1
        elif winner == seat:
            t[1] += 1
        else:
            t[2] += 1
    lines = [Line(name=n, played=t[0], won=t[1], lost=t[2], drawn=t[3], ongoing=t[4]) for n, t in table.items()]
    return tuple(sorted(lines, key=lambda x: (-x.score, x.lost, x.name)))


def _deck_name(deck: Any) -> str:
    name = deck.get("name") if isinstance(deck, dict) else getattr(deck, "name", None)
    return str(name) if name else "?"


def _seat_of(event: Any) -> int | None:
    """The seat an event is about: its first seat-role field."""
    for name in fields_with(type(event), "seat"):
        value = getattr(event, name, None)
        if isinstance(value, int):
            return value
    return None
