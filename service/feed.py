"""The delayed public feed: featured matches for spectators, with the standings beside them.

Routes (added to the service by ``create_app``; no token, or the broadcast token when the
service has one: ``kifu serve --broadcast-token``):

    GET /feed                        the featured tables (as the public sees them now) and the standings
    GET /feed/{id}?after=N           one featured match: its public envelopes after N, the board now
    GET /feed/{id}/stream?after=N    the same, live (server-sent events), each event as it becomes public

What is public and how the delay works: ``kifu.projections.feed``. A match that is not featured
is 404, whether or not it exists. Streams wake as the match streams do (``kifu.service.hub``:
LISTEN/NOTIFY across hosts on PostgreSQL) and, for a delay in seconds, when the next decision's
delay runs out.
"""
from __future__ import annotations

import asyncio
import hmac
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import msgspec
from litestar import Request, get
from litestar.response import ServerSentEvent, ServerSentEventMessage

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import KifuError, UnknownMatch
from kifu.projections.clocks import match_clock, seat_clocks
from kifu.projections.feed import Delay, PublicStream, next_release, public_cut, public_layout
from kifu.store import MatchStore

from . import api
from .hub import Hub
from .matches import Unauthorized
from .params import After, MatchId, match_key

ALL = "all"
FEEDS_KEPT = 32              # featured matches whose public fold is kept
STANDINGS_FOR = 2.0          # seconds the standings beside the feed are reused
ENV_FEATURE, ENV_DELAY, ENV_TOKEN = "KIFU_FEATURE", "KIFU_FEED_DELAY", "KIFU_BROADCAST_TOKEN"
ENV_ROUND = "KIFU_ROUND_MINUTES"


class FeedConfig(msgspec.Struct, frozen=True, kw_only=True):
    featured: tuple[str, ...] = ()      # match ids, or ("all",): every match
    delay: Delay = Delay()
    token: str | None = None            # the broadcast token; None: the feed is public
    round_minutes: float | None = None  # an event round's length: each round's match shows its timer

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> FeedConfig:
        """``KIFU_FEATURE`` (ids, comma-separated, or ``all``), ``KIFU_FEED_DELAY`` (``10d``,
        ``30s``), ``KIFU_BROADCAST_TOKEN``: how ``kifu serve`` hands them to worker processes."""
        featured = tuple(f.strip() for f in env.get(ENV_FEATURE, "").split(",") if f.strip())
        minutes = env.get(ENV_ROUND)
        return cls(featured=featured, delay=Delay.parse(env.get(ENV_DELAY, "0")), token=env.get(ENV_TOKEN) or None,
                   round_minutes=float(minutes) if minutes else None)

    def env(self) -> dict[str, str]:
        out = {ENV_FEATURE: ",".join(self.featured)}
        if self.delay.decisions:
            out[ENV_DELAY] = f"{self.delay.decisions}d"
        elif self.delay.seconds:
            out[ENV_DELAY] = f"{self.delay.seconds:g}s"
        if self.token:
            out[ENV_TOKEN] = self.token
        if self.round_minutes:
            out[ENV_ROUND] = f"{self.round_minutes:g}"
        return out

    def features(self, match_id: str) -> bool:
        return ALL in self.featured or match_id in self.featured


class _Public:
    """One match folded for the public as far as it has been shown."""

    def __init__(self, stream: PublicStream) -> None:
        self.lock = threading.Lock()
        self.stream = stream
        self.shown: list[Envelope[Any]] = []
        self.layout: tuple[int, Any] | None = None


class Shown(msgspec.Struct, frozen=True):
    table: api.FeedTable
    events: list[Envelope[Any]]     # public, after the ``after`` asked for, up to ``table.seq``
    read: int                       # the match's seq in the store when read (the hub's ``seen``)
    release: float | None           # when the next decision becomes public (a delay in seconds)
    last: bool                      # everything is shown and the match is over


class Feed:
    """The featured matches of one store, folded for the public up to their delay."""

    def __init__(self, store: MatchStore, config: FeedConfig) -> None:
        self.store = store
        self.config = config
        self._matches: OrderedDict[str, _Public] = OrderedDict()
        self._lock = threading.Lock()
        self._standings: tuple[float, list[api.StandingLine]] | None = None
        self._standings_lock = threading.Lock()

    def featured(self) -> list[str]:
        if ALL in self.config.featured:
            return [m.match_id for m in self.store.list_matches()]
        return [m for m in self.config.featured if m != ALL]

    def shown(self, match_id: str, after: int = 0, now: float | None = None, layout: bool = False
              ) -> tuple[Shown, Any]:
        """The match as the public sees it at ``now``: its table, the public envelopes after
        ``after``, and (``layout``) the board at the last seq shown."""
        if not self.config.features(match_id):
            raise UnknownMatch(match_id)
        match = self.store.load(match_id)
        now = time.time() if now is None else now
        cut = public_cut(match.envelopes, self.config.delay, now, match.outcome is not None)
        entry = self._entry(match_id, match)
        with entry.lock:
            if entry.stream.seq < cut:
                entry.shown.extend(entry.stream.redact(match.envelopes[entry.stream.seq:cut]))
            cut = entry.stream.seq        # (a cut never moves back: a later request never shows less)
            rules = match.ruleset
            outcome = rules.decider.outcome(entry.stream.state)
            board = None
            if layout:
                if entry.layout is None or entry.layout[0] != cut:
                    entry.layout = (cut, msgspec.to_builtins(public_layout(rules, entry.stream.state)))
                board = entry.layout[1]
            events = entry.shown[max(0, after):cut]
        header = match.header
        clocks = [api.SeatClockInfo(seat=c.seat, decisions=c.decisions, total=c.total, median=c.median,
                                    longest=c.longest)
                  for c in seat_clocks(header, match.envelopes[:cut]).values()]
        timer = None
        if self.config.round_minutes and header.round is not None:
            clock = match_clock(header, match.envelopes[:cut], self.config.round_minutes, utc_stamp(now))
            if clock is not None:
                timer = api.RoundTimer(started=clock.started, minutes=clock.minutes, extension=clock.extension,
                                       elapsed=clock.elapsed, remaining=clock.remaining)
        table = api.FeedTable(match_id=match_id, ruleset=header.ruleset, players=header.players, event=header.event,
                              round=header.round, table=header.table, seq=cut,
                              status="over" if outcome is not None else "ongoing", outcome=outcome, clocks=clocks,
                              timer=timer)
        release = next_release(match.envelopes, self.config.delay, cut)
        return Shown(table, events, match.seq, release, outcome is not None and cut >= match.seq), board

    def _entry(self, match_id: str, match: Any) -> _Public:
        with self._lock:
            entry = self._matches.get(match_id)
            if entry is None:
                rules = match.ruleset
                start = rules.decider.initial_state(match.header)
                entry = self._matches[match_id] = _Public(PublicStream(rules, start))
            self._matches.move_to_end(match_id)
            while len(self._matches) > FEEDS_KEPT:
                self._matches.popitem(last=False)
            return entry

    def index(self, now: float | None = None) -> api.FeedIndex:
        tables = []
        for match_id in self.featured():
            try:
                tables.append(self.shown(match_id, now=now)[0].table)
            except UnknownMatch:        # featured before it was created (an event's next round)
                continue
        pending = {t.match_id for t in tables if t.status != "over"}
        return api.FeedIndex(delay=self.config.delay.describe(), tables=tables, standings=self.standings(pending))

    def standings(self, pending: set[str]) -> list[api.StandingLine]:
        """The players' standings (``kifu stats``), the featured matches not over on the feed yet
        counted as ongoing; caught up at most every ``STANDINGS_FOR`` seconds."""
        from kifu.store.standings import open_standings

        with self._standings_lock:
            kept = self._standings
            if kept is not None and time.monotonic() - kept[0] < STANDINGS_FOR:
                return kept[1]
            standings = open_standings(self.store)
            try:
                standings.catch_up()
                lines = standings.player_lines(pending)
            finally:
                standings.close()
            out = [api.StandingLine(name=x.name, played=x.played, won=x.won, lost=x.lost, drawn=x.drawn,
                                    ongoing=x.ongoing) for x in lines]
            self._standings = (time.monotonic(), out)
            return out


def utc_stamp(when: float) -> str:
    """POSIX seconds as a record stamps time (``kifu.store.clock``)."""
    return datetime.fromtimestamp(when, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _check(request: Request[Any, Any, Any], config: FeedConfig) -> None:
    """With a broadcast token, the feed is for its holders only; without one, for anyone."""
    if config.token is None:
        return
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode(), config.token.encode()):
        raise Unauthorized("the feed needs the broadcast token: send 'Authorization: Bearer <token>'")


def feed_routes(feed: Feed, hub: Hub, run: Callable[..., Awaitable[Any]], heartbeat: float,
                resume: Callable[[str, int], int]) -> list[Any]:
    config = feed.config
    delay = config.delay.describe()
    about = (f"Public: no token, or the broadcast token when the service has one. Shows only what both "
             f"seats may see (no hidden card, no sealed choice, no seed), delayed (this service: {delay}).")

    @get("/feed", summary="The featured tables as the public sees them, with the standings", tags=["feed"],
         description=about)
    async def feed_index(request: Request[Any, Any, Any]) -> api.FeedIndex:
        _check(request, config)
        index: api.FeedIndex = await run(feed.index)
        return index

    @get("/feed/{match_id:str}", summary="A featured match, public and delayed", tags=["feed"],
         description=about + " 404 for a match that is not featured.")
    async def feed_match(request: Request[Any, Any, Any], match_id: MatchId, after: After = 0) -> api.FeedMatch:
        _check(request, config)
        key = match_key(match_id)
        shown, board = await run(lambda: feed.shown(key, after, layout=True))
        return api.FeedMatch(delay=delay, table=shown.table, after=after, events=shown.events, layout=board)

    @get("/feed/{match_id:str}/stream", summary="A featured match, live as it becomes public (server-sent events)",
         tags=["feed"],
         description=about + " Events: 'envelope' (data: one public envelope, id: its seq), 'status' (a FeedTable) "
                             "after each batch, 'end' once the match is over and shown whole. Resumes after the "
                             "Last-Event-ID header if given, else after ?after=N.")
    async def feed_stream(request: Request[Any, Any, Any], match_id: MatchId, after: After = 0) -> ServerSentEvent:
        _check(request, config)
        key = match_key(match_id)
        start = resume(request.headers.get("last-event-id", ""), after)
        first, _ = await run(feed.shown, key, start)        # 404 now, not inside the stream
        return ServerSentEvent(_follow(key, start, first), headers={"Cache-Control": "no-store"})

    async def _follow(match_id: str, sent: int, first: Shown) -> AsyncIterator[ServerSentEventMessage]:
        wake = hub.subscribe(match_id)
        try:
            await hub.ready()
            shown: Shown | None = first
            fresh = True
            while True:
                wake.clear()
                if shown is None:
                    shown, _ = await run(feed.shown, match_id, sent)
                wake.seen = shown.read
                for env in shown.events:
                    if env.seq > sent:
                        yield ServerSentEventMessage(event="envelope", id=env.seq,
                                                     data=msgspec.json.encode(env).decode())
                        sent = env.seq
                if shown.events or fresh:
                    yield ServerSentEventMessage(event="status", data=msgspec.json.encode(shown.table).decode())
                    fresh = False
                if shown.last and sent >= shown.table.seq:
                    yield ServerSentEventMessage(event="end", data="{}")
                    return
                wait = heartbeat
                if shown.release is not None:
                    wait = max(0.0, min(wait, shown.release - time.time()))
                released = shown.release is not None and wait < heartbeat
                shown = None
                try:
                    await asyncio.wait_for(wake.wait(), wait)
                except TimeoutError:
                    if not released:
                        yield ServerSentEventMessage(comment="keep-alive", data=None)
        except KifuError:   # the database went away mid-stream: end; the client resumes from its last id
            yield ServerSentEventMessage(event="error", data=msgspec.json.encode(
                api.Problem(error="unavailable", message="the database is unavailable; resume later")).decode())
        finally:
            hub.unsubscribe(match_id, wake)

    return [feed_index, feed_match, feed_stream]
