"""The match store: matches as event streams in eventsourcing, with Kifu's errors at the edge.

Each method is load / decide / save in a few lines. One decision is one transaction; a stale
decision is a ``Conflict`` with nothing stored. Folds stay out of eventsourcing's aggregate
cache (which deep-copies): this store keeps its own small cache of folded matches and only
reads the rows a cached match has not seen yet.
"""
from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast
from uuid import UUID

from eventsourcing.persistence import (
    InfrastructureFactory,
    IntegrityError,
    InterfaceError,
    OperationalError,
    PersistenceError,
)

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Conflict, KifuError, Malformed, UnknownMatch
from kifu.domain.core.header import Header
from kifu.domain.core.judged import act
from kifu.domain.core.judging import PenaltyList
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Outcome, find_ruleset
from kifu.domain.core.signing import Signer
from kifu.domain.tournament.events import Entry

from .config import StoreConfig, connect_params, resolve
from .errors import MatchExists, StoreError
from .index import (
    EVENTS_TABLE,
    MATCHES_TABLE,
    IndexedRecorder,
    IndexWrite,
    MatchSummary,
    encode_outcome,
    encode_players,
    summary,
)
from .mapper import HEADER_VERSION, KifuMapper, RulesetLookup, StreamItem

if TYPE_CHECKING:
    from .postgres import KifuPostgresRecorder
    from .sqlite import KifuSQLiteRecorder

CACHED_MATCHES = 256
CACHED_HEADERS = 4096
_CLOSED_ON_CLOSE = ("_factory", "_recorder", "_mapper")


T = TypeVar("T")
SUBMIT_ATTEMPTS = 8      # re-decisions after losing a race to another seat's simultaneous decision


class Notice(NamedTuple):
    """One row of the store-wide notification log, decoded. ``id`` is the tracking position."""

    id: int
    match_id: str
    seq: int                       # 0 for the header
    item: Header | Envelope[Any] | Entry   # an Entry: a row of a tournament's stream, not a match


class MatchStore:
    """All matches of one database. Thread-safe; several stores (processes) may share a database."""

    def __init__(self, config: StoreConfig, *, rulesets: RulesetLookup = find_ruleset) -> None:
        self.config = config
        self._rulesets = rulesets
        with self._guard():
            try:
                self._factory = InfrastructureFactory.construct(config.env)
            except ImportError as exc:
                raise StoreError(f"{config.where} needs a driver that is not installed ({exc}); "
                                 "PostgreSQL needs eventsourcing[postgres]") from exc
            try:
                self._recorder: IndexedRecorder = _recorder(config, self._factory)
            except BaseException:
                self._factory.close()
                raise
        mapper = KifuMapper(compressor=self._factory.compressor(), cipher=self._factory.cipher(), rulesets=rulesets)
        self._mapper = mapper
        self._cache: OrderedDict[UUID, Match] = OrderedDict()  # taken out while in use: no sharing
        self._headers: dict[UUID, Header] = {}
        self._cache_lock = threading.Lock()

    @classmethod
    def open(cls, url: str | None = None, *, environ: Mapping[str, str] | None = None,
             rulesets: RulesetLookup = find_ruleset) -> MatchStore:
        """Open (creating tables if needed) the store ``url`` names; see ``kifu.store.config``."""
        return cls(resolve(url, environ), rulesets=rulesets)

    @property
    def where(self) -> str:
        return self.config.where

    # -- writing ------------------------------------------------------------------------------
    def create(self, match: Match) -> None:
        """Store a new match: header at version 0 and its setup events, in one transaction."""
        key = _new_key(match.header.match_id)
        header = match.header
        items = [StreamItem(key, HEADER_VERSION, header, header.ruleset)]
        items.extend(StreamItem(key, env.seq, env, header.ruleset) for env in match.envelopes)
        index = IndexWrite(str(key), None, match.seq, header.ruleset, encode_players(header.players),
                           encode_outcome(match.outcome))
        try:
            self._put(items, index)
        except IntegrityError:
            raise MatchExists(str(key), self._actual_seq(key, str(key))) from None
        self._remember(key, header)

    def append(self, match_id: str, expected_seq: int, envelopes: Sequence[Envelope[Any]], *,
               outcome: Outcome | None = None) -> None:
        """Store one decision's envelopes (seq ``expected_seq + 1`` on) in one transaction.

        ``Conflict`` if the match is not at ``expected_seq`` any more (or not yet): nothing is
        stored. Pass ``outcome`` when these events end the match, so ``list_matches`` shows it.
        """
        key = _key(match_id)
        self._append(key, self._header(key, match_id).ruleset, match_id, expected_seq, envelopes, outcome)

    def submit(self, match_id: str, seat: int, command: Any, expected_seq: int | None = None,
               received: str | None = None) -> list[Envelope[Any]]:
        """Decide ``command`` for ``seat`` on the stored match and store the result.

        ``expected_seq`` is the seq the client saw; it is stale (``Conflict``) only when *this
        seat's* basis moved since (``Match.basis``): when another seat's decision for the same
        simultaneous step lands first, this one is decided again on the newer state and lands
        too. Illegal commands raise ``Illegal`` (naming the clause) and store nothing.
        """
        return self.submit_then(match_id, seat, command, expected_seq, lambda _match, envelopes, _before: envelopes,
                                received)

    def submit_then(self, match_id: str, seat: int, command: Any, expected_seq: int | None,
                    then: Callable[[Match, list[Envelope[Any]], Any], T], received: str | None = None) -> T:
        """``submit``, then ``then(match, envelopes, before)`` on the match as the decision left it;
        ``before`` is the state the decision was made on (at seq ``match.seq - len(envelopes)``),
        so a reply can redact the new events without folding the match from its start.

        One store round trip and one fold per decision: the decision is made on the cached
        match without reading the database first, and the append's own version check (the
        index row must still be at the seq the cached match is at) makes that safe when other
        processes write the same match: a stale cache fails the append, is caught up and the
        decision is made again. A refusal made on a cached match is only final once the cache
        is known to be current (caught up, nothing new). ``then`` runs while this caller holds
        the match, so the reply (events since the client's seq, legal decisions) needs no load.
        """
        key = _key(match_id)
        for _ in range(SUBMIT_ATTEMPTS):
            match, current = self._take_cached(key, match_id)
            try:
                try:
                    envelopes, state = match.decide(seat, command, expected_seq, received)  # changes nothing; raises
                except KifuError:
                    if current or not self._catch_up(key, match):
                        raise              # refused on a state known to be the stored one
                    continue               # the cache was behind: decide again on the stored state
                try:
                    self._append(key, match.header.ruleset, match_id, match.seq, envelopes,
                                 match.ruleset.decider.outcome(state))
                except Conflict:
                    self._catch_up(key, match)
                    continue       # someone's decision landed in between: decide again on the newer state
                before = match.state
                match.accept(envelopes, state)
                return then(match, envelopes, before)
            finally:
                self._keep(key, match)  # right at its seq even after a refusal; caught up on next use
        raise Conflict(match_id, expected_seq if expected_seq is not None else -1, self._actual_seq(key, match_id))

    def append_entries(self, stream: UUID, entries: Sequence[Entry]) -> None:
        """Store a tournament's entries (``kifu.service.events``) in one transaction. The stream's
        unique (id, version) rows are its optimistic concurrency: an entry at a seq that is taken
        is a ``Conflict`` and nothing is stored. Tournaments have no row in the match index."""
        if not entries:
            return
        items = [StreamItem(stream, e.seq, e, "") for e in entries]
        rows = [self._mapper.to_stored_event(item) for item in items]
        try:
            with self._guard():
                self._recorder.insert_events(rows)
        except IntegrityError:
            raise Conflict(str(stream), entries[0].seq - 1, self._last_version(stream)) from None

    def entries(self, stream: UUID, after_seq: int = 0) -> list[Entry]:
        """A tournament's entries after ``after_seq``, in order (empty: no such tournament yet)."""
        return [item.payload for item in self._read(stream, gt=after_seq) if isinstance(item.payload, Entry)]

    def _last_version(self, key: UUID) -> int:
        with self._guard():
            last = self._recorder.select_events(key, desc=True, limit=1)
        return last[0].originator_version if last else 0


    def judge(self, match_id: str, event: Any, *, time: str | None = None, signer: Signer | None = None,
              penalties: PenaltyList | None = None) -> tuple[Match, list[Envelope[Any]]]:
        """Record a judge's act (``kifu.domain.core.judged.act``) on the stored match: refused acts
        (``Refused``, ``MatchOver``) store nothing; returns the match after it and the new envelopes."""
        key = _key(match_id)
        for _ in range(SUBMIT_ATTEMPTS):
            match = self._take(key, match_id)
            try:
                envelopes, state = act(match, event, time=time, signer=signer, penalties=penalties)
                try:
                    self._append(key, match.header.ruleset, match_id, match.seq, envelopes,
                                 match.ruleset.decider.outcome(state))
                except Conflict:
                    self._catch_up(key, match)
                    continue       # a decision landed in between: the act is checked again on the newer state
                match.accept(envelopes, state)
                return Match(match.ruleset, match.header, match.state, list(match.envelopes), match.head), envelopes
            finally:
                self._keep(key, match)
        raise Conflict(match_id, -1, self._actual_seq(key, match_id))

    # -- reading ------------------------------------------------------------------------------
    def load(self, match_id: str) -> Match:
        """The match folded to its last event; the caller owns the returned object."""
        key = _key(match_id)
        match = self._take(key, match_id)
        self._keep(key, match)
        return Match(match.ruleset, match.header, match.state, list(match.envelopes), match.head)

    def header(self, match_id: str) -> Header:
        return self._header(_key(match_id), match_id)

    def events(self, match_id: str, after_seq: int = 0) -> list[Envelope[Any]]:
        """Envelopes with seq > ``after_seq``, in order."""
        key = _key(match_id)
        envelopes = _envelopes(self._read(key, gt=max(after_seq, HEADER_VERSION)))
        if not envelopes:
            self._header(key, match_id)  # UnknownMatch, or simply nothing new
        return envelopes

    def list_matches(self) -> list[MatchSummary]:
        """Every match, oldest first, from the index (no stream is read)."""
        with self._guard():
            return [summary(row) for row in self._recorder.select_index_rows()]

    def summary(self, match_id: str) -> MatchSummary:
        """One match's line of the list (players, seq, outcome) without reading its stream."""
        with self._guard():
            row = self._recorder.select_index_row(str(_key(match_id)))
        if row is None:
            raise UnknownMatch(match_id)
        return summary(row)

    def notifications(self, start: int = 1, limit: int = 100) -> list[Notice]:
        """Rows of all matches in commit order, from notification id ``start`` (inclusive).

        For read models that pull: they keep the last id they processed with their own rows."""
        with self._guard():
            rows = self._recorder.select_notifications(start, limit)
            out = []
            for row in rows:
                item = self._mapper.decode(row)
                out.append(Notice(row.id, str(item.originator_id), item.originator_version, item.payload))
        return out

    def last_notification_id(self) -> int:
        with self._guard():
            return self._recorder.max_notification_id() or 0

    # -- lifecycle ----------------------------------------------------------------------------
    def close(self) -> None:
        """Close the connections. Idempotent; the store is unusable afterwards."""
        if "_factory" not in self.__dict__:
            return
        with self._cache_lock:
            self._cache.clear()
            self._headers.clear()
        closing = getattr(self._recorder, "close_writer", None)   # SQLite's group-commit connection
        if closing is not None:
            closing()
        self._factory.close()
        # Drop the datastore now: eventsourcing's __del__ on it fails at interpreter shutdown.
        del self._factory, self._recorder, self._mapper

    def __getattr__(self, name: str) -> Any:
        if name in _CLOSED_ON_CLOSE:
            raise StoreError(f"the store on {self.config.where} is closed")
        raise AttributeError(name)

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<MatchStore {self.where}>"

    # -- internals ----------------------------------------------------------------------------
    def _append(self, key: UUID, ruleset: str, match_id: str, expected: int,
                envelopes: Sequence[Envelope[Any]], outcome: Outcome | None) -> None:
        if not envelopes:
            return
        for offset, env in enumerate(envelopes, start=1):
            if env.seq != expected + offset:
                raise ValueError(f"envelope seq {env.seq} where {expected + offset} was expected: "
                                 "a decision's envelopes follow the seq it was based on, without gaps")
        items = [StreamItem(key, env.seq, env, ruleset) for env in envelopes]
        try:
            self._put(items, IndexWrite(str(key), expected, envelopes[-1].seq, outcome=encode_outcome(outcome)))
        except IntegrityError:
            raise Conflict(match_id, expected, self._actual_seq(key, match_id)) from None

    def _put(self, items: list[StreamItem], index: IndexWrite) -> None:
        """One transaction: the rows and the index row (eventsourcing passes ``index`` through)."""
        rows = [self._mapper.to_stored_event(item) for item in items]
        with self._guard():
            self._recorder.insert_events(rows, index=index)

    def _read(self, key: UUID, *, gt: int | None = None, lte: int | None = None) -> list[StreamItem]:
        with self._guard():
            rows = self._recorder.select_events(key, gt=gt, lte=lte)
        decode = self._mapper.decode
        return [decode(row) for row in rows]

    def _actual_seq(self, key: UUID, match_id: str) -> int:
        with self._guard():
            last = self._recorder.select_events(key, desc=True, limit=1)
        if not last:
            raise UnknownMatch(match_id)
        return last[0].originator_version

    def _header(self, key: UUID, match_id: str) -> Header:
        """Headers never change: each is read once per store (bounded), then kept."""
        header = self._headers.get(key)
        if header is None:
            rows = self._read(key, lte=HEADER_VERSION)
            if not rows or not isinstance(rows[0].payload, Header):
                raise UnknownMatch(match_id)
            header = rows[0].payload
            self._remember(key, header)
        return header

    def _remember(self, key: UUID, header: Header) -> None:
        with self._cache_lock:
            self._headers[key] = header
            if len(self._headers) > CACHED_HEADERS:
                del self._headers[next(iter(self._headers))]

    def _take(self, key: UUID, match_id: str) -> Match:
        """The folded match, caught up with the database; the caller holds it until ``_keep``."""
        match, current = self._take_cached(key, match_id)
        if not current:
            self._catch_up(key, match)
        return match

    def _take_cached(self, key: UUID, match_id: str) -> tuple[Match, bool]:
        """The folded match as cached, without reading the database, and whether it is known
        current (just folded); the caller holds it until ``_keep``."""
        with self._cache_lock:
            match = self._cache.pop(key, None)
        if match is None:
            return self._fold(key, match_id), True
        return match, False

    def _catch_up(self, key: UUID, match: Match) -> bool:
        """Fold in the rows ``match`` has not seen; True if there were any."""
        newer = _envelopes(self._read(key, gt=match.seq))
        if newer:
            match.extend(newer)
        return bool(newer)

    def _keep(self, key: UUID, match: Match) -> None:
        with self._cache_lock:
            self._cache[key] = match
            if len(self._cache) > CACHED_MATCHES:
                self._cache.popitem(last=False)

    def _fold(self, key: UUID, match_id: str) -> Match:
        items = self._read(key)
        if not items:
            raise UnknownMatch(match_id)
        header = items[0].payload
        if not isinstance(header, Header):
            raise Malformed("the stream has no header at version 0", f"match {match_id}")
        self._remember(key, header)
        return Match.fold(self._rulesets(header.ruleset), header, _envelopes(items[1:]))

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Database trouble becomes ``StoreError`` naming the database; conflicts pass through."""
        try:
            yield
        except IntegrityError:
            raise
        except (OperationalError, InterfaceError) as exc:
            cause = _postgres_cause(self.config) if self.config.backend == "postgres" else None
            raise StoreError(f"{self.config.where} is unavailable: {cause or exc}") from exc
        except PersistenceError as exc:
            raise StoreError(f"{self.config.where}: {exc}") from exc
        except sqlite3.Error as exc:  # the few eventsourcing lets through unwrapped
            raise StoreError(f"{self.config.where}: {exc}") from exc


def _postgres_cause(config: StoreConfig) -> str | None:
    """Why PostgreSQL refused, in its own words (no such database, connection refused, no such role,
    a bad password), where the pool says only that it got no connection in time."""
    import psycopg

    env = config.env
    try:
        psycopg.connect(**connect_params(env)).close()
    except psycopg.Error as exc:
        text = " ".join(str(exc).split())
        return text.rsplit(" failed: ", 1)[-1].replace("FATAL: ", "")
    return None


def _recorder(config: StoreConfig, factory: InfrastructureFactory[Any]) -> IndexedRecorder:
    """Our recorder subclass for the configured backend, tables created if missing."""
    recorder: KifuSQLiteRecorder | KifuPostgresRecorder
    if config.backend == "memory":
        from .memory import KifuMemoryRecorder
        return KifuMemoryRecorder()
    if config.backend == "sqlite":
        from eventsourcing.sqlite import SQLiteFactory

        from .sqlite import KifuSQLiteRecorder, prepare_file
        datastore = cast(SQLiteFactory, factory).datastore   # the factory config.env names
        prepare_file(datastore.pool.db_name, datastore.pool.lock_timeout or 5)
        recorder = KifuSQLiteRecorder(datastore)
    else:
        from eventsourcing.postgres import PostgresFactory

        from .postgres import KifuPostgresRecorder
        recorder = KifuPostgresRecorder(cast(PostgresFactory, factory).datastore, events_table_name=EVENTS_TABLE,
                                        matches_table_name=MATCHES_TABLE)
    recorder.create_table()
    return recorder


def _envelopes(items: list[StreamItem]) -> list[Envelope[Any]]:
    """Payloads of rows past version 0: envelopes by construction (the mapper checks seq)."""
    return cast("list[Envelope[Any]]", [item.payload for item in items])


def _key(match_id: str) -> UUID:
    """The stream id of a match; an id that is no UUID names no stored match."""
    try:
        return UUID(match_id)
    except (ValueError, TypeError, AttributeError):
        raise UnknownMatch(str(match_id)) from None


def _new_key(match_id: str) -> UUID:
    try:
        return UUID(match_id)
    except (ValueError, TypeError, AttributeError):
        raise Malformed(f"match id {match_id!r} is not a UUID", "header") from None
