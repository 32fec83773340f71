"""The HTTP API on Litestar: routes, token checks, errors as ``Problem`` bodies, the live stream.

Routes (JSON; the OpenAPI document is at ``/schema/openapi.json``, browsable at ``/schema``):

    GET  /rulesets                        rulesets and their preset decks
    POST /matches                         create a match -> id, seat tokens, judge token
    GET  /matches                         every match with status and outcome
    GET  /matches/{id}                    one of them
    GET  /matches/{id}/view               the caller's view and legal decisions      (token)
    POST /matches/{id}/decisions          a decision based on seq -> redacted events (seat token)
    GET  /matches/{id}/events?after=N     envelopes after N, redacted for the caller (token)
    GET  /matches/{id}/stream?after=N     the same, live (server-sent events)       (token)
    GET  /matches/{id}/record             the .kifu.jsonl record                    (judge token)
    GET  /matches/{id}/notes              the notes the caller may see               (token)
    POST /matches/{id}/notes              add a note on a seq (judge or seat token)
    GET  /matches/{id}/viewer[/data|/frame]  the web viewer and its JSON (kifu.service.viewer)
    GET  /feed, /feed/{id}[/stream]       featured matches, public and delayed (kifu.service.feed)
    /events/…                             tournaments (kifu.service.event_routes; organiser token)

Tokens travel only in ``Authorization: Bearer <token>`` (never in a URL, which access logs keep).
Every blocking store call runs in a worker thread; the event loop only parses, routes and streams.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Annotated, Any, TypeVar

import msgspec
from litestar import Litestar, Request, Response, get, post
from litestar.enums import RequestEncodingType
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.openapi.spec import Components, SecurityScheme
from litestar.params import Body, QueryParameter
from litestar.plugins.problem_details import ProblemDetailsException, ProblemDetailsPlugin
from litestar.response import ServerSentEvent, ServerSentEventMessage

from kifu.domain.core.errors import (
    Conflict,
    Illegal,
    InvalidDeck,
    KifuError,
    Malformed,
    MatchOver,
    UnknownMatch,
    UnknownRuleset,
)
from kifu.domain.core.ruleset import find_ruleset, offered_rulesets
from kifu.domain.core.visibility import SeatStream
from kifu.domain.version import ENGINE_VERSION
from kifu.store import MatchStore, StoreError, resolve
from kifu.store.keys import signer_from
from kifu.store.notes import NoteStore
from kifu.store.penalties import penalties_from

from . import api
from .contract import finish
from .event_routes import event_routes
from .events import EventService, UnknownEvent
from .feed import Feed, FeedConfig, feed_routes
from .hub import Hub
from .matches import Caller, Forbidden, MatchService, Unauthorized
from .params import MAX_SEQ, After, MatchId, Position, match_key
from .tokens import TokenStore
from .viewer import viewer_routes
from .warmup import warm_rulesets, warm_signatures

log = logging.getLogger("kifu.service")

MAX_BODY = 64 * 1024           # a decision is ~100 bytes; two full deck lists are a few KiB
HEARTBEAT = 15.0               # seconds between keep-alive comments on an idle stream
WORKER_THREADS = 64            # blocking store calls at once (decisions waiting for a group commit)
SECURITY: list[dict[str, list[str]]] = [{"token": []}]


def _problems(*codes: int) -> dict[int, ResponseSpec]:
    what = {400: "malformed input", 401: "no token, or not a token of this match", 403: "the token's role may not",
            404: "no such match", 409: "stale seq (the body has the current seq) or match over",
            413: "body too large", 422: "illegal: the body names the clause", 503: "the database is unavailable"}
    return {code: ResponseSpec(data_container=api.Problem, description=what[code]) for code in codes}
# Service defaults for a PostgreSQL pool (the CLI keeps one connection); the environment wins.
SERVICE_POOL = {"POSTGRES_POOL_SIZE": "8", "POSTGRES_MAX_OVERFLOW": "24"}

T = TypeVar("T")
CreateBody = Annotated[api.CreateMatch, Body(media_type=RequestEncodingType.JSON)]
DecisionBody = Annotated[api.Decision, Body(media_type=RequestEncodingType.JSON)]
NoteBody = Annotated[api.NewNote, Body(media_type=RequestEncodingType.JSON)]
JudgeBody = Annotated[api.JudgeAct, Body(media_type=RequestEncodingType.JSON)]


_create_decoder = msgspec.json.Decoder(api.CreateMatch)
_decision_decoder = msgspec.json.Decoder(api.Decision)
_note_decoder = msgspec.json.Decoder(api.NewNote)
_judge_decoder = msgspec.json.Decoder(api.JudgeAct)


async def _strict(request: Request[Any, Any, Any], decoder: msgspec.json.Decoder[T]) -> T:
    """The body decoded strictly (Litestar's ``data`` is converted leniently: "5" would pass as 5).

    ``data`` stays in the handlers' signatures for the OpenAPI document; ``_checked_body`` has
    already refused what is not UTF-8 JSON without duplicate keys."""
    return _decoded(await request.body(), decoder)


def _decoded(body: bytes, decoder: msgspec.json.Decoder[T]) -> T:
    try:
        return decoder.decode(body)
    except msgspec.ValidationError as exc:
        raise Malformed(str(exc), "body") from None
    except msgspec.DecodeError as exc:
        raise Malformed(f"not JSON ({exc})", "body") from None


def _decision(body: bytes) -> api.Decision:
    """A decision's body; its seq an int even when written ``5.0`` (JSON does not tell them apart)."""
    decision = _decoded(body, _decision_decoder)
    return msgspec.structs.replace(decision, seq=int(decision.seq)) if isinstance(decision.seq, float) else decision


def _options(request: Request[Any, Any, Any]) -> Response[Any]:
    """``Allow`` lists every method of the path: Litestar's own OPTIONS answer, made when the
    first handler of a path is registered, misses the methods a later handler adds (GET /matches)."""
    methods: set[str] = {"OPTIONS"}
    for path in request.route_handler.paths:
        methods |= set(request.app.route_handler_method_map.get(path, {}))
    return Response(content=None, status_code=204, headers={"Allow": ", ".join(sorted(methods))})


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise Malformed(f"duplicate key {key[:40]!r} in a JSON object", "body")
        seen[key] = value
    return seen


async def _checked_body(request: Request[Any, Any, Any]) -> Response[Any] | None:
    """Before any handler parses a body: JSON only (415), UTF-8 (400), no duplicate keys (400),
    not nested past what the decoder handles (400). Litestar's own parse would turn invalid
    UTF-8 into a 500 and let the last of two equal keys win. (And OPTIONS, answered here.)"""
    if request.method == "OPTIONS":
        return _options(request)
    if request.method not in ("POST", "PUT", "PATCH"):
        return None
    if "data" not in request.route_handler.parsed_fn_signature.parameters and not await request.body():
        return None    # a POST that takes no body (pair an event's round): nothing to check
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPException(status_code=415, detail=f"the body must be application/json, not {kind[:60] or 'untyped'}")
    body = await request.body()
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Malformed(f"the body is not UTF-8 (byte {exc.start})", "body") from None
    try:
        json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise Malformed(f"not JSON ({exc.msg} at char {exc.pos})", "body") from None
    except RecursionError:
        raise Malformed("the JSON body is nested too deeply", "body") from None
    except ValueError:     # Python's int() limit: an integer of more than 4,300 digits is no JSONDecodeError
        raise Malformed("a number in the body has too many digits", "body") from None
    return None


def _resume_after(value: str, after: int) -> int:
    """``Last-Event-ID`` (ASCII digits, a seq) or else ``after``; anything else is malformed."""
    if not value:
        return after
    if not (value.isascii() and value.isdigit() and len(value) <= 19 and int(value) <= MAX_SEQ):
        raise Malformed(f"Last-Event-ID {value[:20]!r} is not a seq", "Last-Event-ID")
    return int(value)


def _bearer(request: Request[Any, Any, Any]) -> str | None:
    value = request.headers.get("authorization")
    if not value:
        return None
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _token_then_key(request: Request[Any, Any, Any], match_id: str) -> tuple[str, str]:
    """The token, then the match id: a request without a token is 401 whatever its id (the
    service says who may ask before it says what was asked wrongly)."""
    token = _bearer(request)
    if token is None:
        raise Unauthorized("this needs a token of the match: send 'Authorization: Bearer <token>'")
    return match_key(match_id), token


def _no_framing(response: Response[Any]) -> Response[Any]:
    """No page of the service may be framed by another site (clickjacking): every response says
    so, the viewer's own policy included (``frame-ancestors`` is only obeyed from a header)."""
    csp = response.headers.get("Content-Security-Policy")
    if csp is None:
        response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
    elif "frame-ancestors" not in csp:
        response.headers["Content-Security-Policy"] = f"{csp}; frame-ancestors 'none'"
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def create_app(db: str | None = None, *, environ: dict[str, str] | None = None,
               poll_interval: float | None = None, heartbeat: float = HEARTBEAT,
               feed: FeedConfig | None = None) -> Litestar:
    """The service on the store ``db`` names (as ``--db``: SQLite file, postgresql:// URL, memory).

    Opens the store now (so a bad database fails at start, not at the first request) and closes
    it when the application shuts down. ``feed``: the featured matches and their delay (default:
    from the environment, ``kifu.service.feed.FeedConfig.from_env``)."""
    warm_rulesets()   # before any worker thread decodes: see kifu.service.warmup
    env = {**SERVICE_POOL, **(os.environ if environ is None else environ)}
    config = resolve(db, env)
    store = MatchStore(config)
    try:
        tokens = TokenStore.open(config)
    except BaseException:
        store.close()
        raise
    hub = Hub(store) if poll_interval is None else Hub(store, interval=poll_interval)
    try:
        signer = signer_from(env)
        notes = NoteStore.open(config)   # the notes' own table beside the matches (kifu.store.notes)
    except BaseException:
        tokens.close()
        store.close()
        raise
    offered = offered_rulesets(env)      # test rulesets only with KIFU_TEST_RULESETS=1
    try:
        penalties = penalties_from(env)
    except BaseException:
        tokens.close()
        store.close()
        raise
    featured = Feed(store, feed if feed is not None else FeedConfig.from_env(env))
    service = MatchService(store, tokens, on_change=hub.poke, signer=signer, rulesets=offered, notes=notes,
                           penalties=penalties)
    tournaments = EventService(store, tokens, service)    # also sets the deck check on every match it creates

    workers = ThreadPoolExecutor(max_workers=WORKER_THREADS, thread_name_prefix="kifu-store")

    async def run(fn: Callable[..., T], *args: Any) -> T:
        # the event loop's own executor hop: measured 17 µs of CPU and 31 µs of latency per call
        # against anyio.to_thread's 29 and 175 (no capacity limiter, cancel scope or thread lookup)
        return await asyncio.get_running_loop().run_in_executor(workers, partial(fn, *args))

    async def caller(request: Request[Any, Any, Any], match_id: MatchId) -> Caller:
        return await run(service.caller, *_token_then_key(request, match_id))

    @get("/rulesets", summary="Rulesets and their preset decks", tags=["matches"])
    async def rulesets() -> api.Rulesets:
        found = [find_ruleset(name) for name in offered]
        return api.Rulesets(rulesets=[api.RulesetInfo(name=r.name, rules_version=r.rules_version,
                                                      presets=r.content.presets()) for r in found])

    @post("/matches", summary="Create a match", tags=["matches"], responses=_problems(400, 413, 422, 503),
          description="Returns the match id, one secret token per seat and a judge token. They are shown "
                      "only here; the service keeps their SHA-256 digests.")
    async def create_match(request: Request[Any, Any, Any], data: CreateBody) -> api.MatchCreated:
        return await run(service.create, await _strict(request, _create_decoder))

    @get("/matches", summary="Every match, with status and outcome", tags=["matches"])
    async def list_matches() -> api.MatchList:
        return await run(service.list)

    @get("/matches/{match_id:str}", summary="One match, with status and outcome", tags=["matches"])
    async def match_info(match_id: MatchId) -> api.MatchInfo:
        return await run(service.info, match_key(match_id))

    @get("/matches/{match_id:str}/view", summary="What the caller may see now, and its legal decisions",
         tags=["play"], security=SECURITY, responses=_problems(401, 404))
    async def view(request: Request[Any, Any, Any], match_id: MatchId, position: Position = False) -> api.SeatView:
        key, token = _token_then_key(request, match_id)
        return await run(lambda: service.view(key, service.caller(key, token), position))   # one thread hop

    @post("/matches/{match_id:str}/decisions", summary="Submit a decision", tags=["play"], security=SECURITY,
          responses=_problems(400, 401, 403, 404, 409, 413, 422),
          status_code=200,
          description="``seq`` is the match's seq the decision was based on. 409 if the match has moved on "
                      "(the body says its current seq); 422 if the rules forbid it (the body names the clause). "
                      "Nothing is stored in either case.")
    async def decide(request: Request[Any, Any, Any], match_id: MatchId, data: DecisionBody) -> api.DecisionResult:
        key, token = _token_then_key(request, match_id)
        body = await request.body()
        # one worker-thread hop per decision: the token check, then the body, then the decision
        return await run(lambda: service.decide(key, service.caller(key, token), _decision(body)))

    @post("/matches/{match_id:str}/judge", summary="Record a judge's act (judge token only)", tags=["judge"],
          security=SECURITY, responses=_problems(400, 401, 403, 404, 409, 413, 422), status_code=200,
          description="A call, ruling, backup, penalty, time extension or result, recorded in the match's own "
                      "stream with the service's time. 422 if the record cannot take it (the body says why and "
                      "names the act's clause: a backup across a sealed choice, an unknown clause id, a bad "
                      "seat); 409 once the match is over. Nothing is stored in either case.")
    async def judge(request: Request[Any, Any, Any], match_id: MatchId, data: JudgeBody) -> api.JudgeRecorded:
        key, token = _token_then_key(request, match_id)
        body = await request.body()
        return await run(lambda: service.judge(key, service.caller(key, token), _decoded(body, _judge_decoder)))

    @get("/matches/{match_id:str}/events", summary="Envelopes after a seq, as the caller may see them",
         tags=["play"], security=SECURITY, responses=_problems(400, 401, 404))
    async def events(request: Request[Any, Any, Any], match_id: MatchId, after: After = 0,
                     limit: Annotated[int, QueryParameter(ge=1, le=5000)] = 1000) -> api.EventsPage:
        who = await caller(request, match_id)
        return await run(service.events, match_key(match_id), who, after, limit)

    @get("/matches/{match_id:str}/stream", summary="Live envelopes (server-sent events)", tags=["play"],
         security=SECURITY,
         description="Events: 'envelope' (data: one envelope, id: its seq), 'status' after each batch "
                     "(seq, awaiting, outcome, and the caller's legal decisions when it is awaited), 'end' once "
                     "the match is over and everything was sent, 'error' (a Problem) if the store failed. "
                     "Resumes after the Last-Event-ID header if given, else after ?after=N.")
    async def stream(request: Request[Any, Any, Any], match_id: MatchId, after: After = 0) -> ServerSentEvent:
        start = _resume_after(request.headers.get("last-event-id", ""), after)
        who = await caller(request, match_id)
        match_id = match_key(match_id)
        first = await run(store.load, match_id)
        return ServerSentEvent(_follow(match_id, who, start, first), headers={"Cache-Control": "no-store"})

    async def _follow(match_id: str, who: Caller, sent: int, match: Any) -> AsyncIterator[ServerSentEventMessage]:
        """Subscribe first, then read: an event stored in between is read, not missed."""
        rules = match.ruleset
        seen = SeatStream(rules, rules.decider.initial_state(match.header), who)   # the scrub needs each event's states
        await run(seen.skip, match.envelopes[:sent])       # folding is CPU work: off the event loop
        def newer(since: int) -> list[Any]:
            # one worker-thread hop per wake-up: read what is new, then redact it for the caller
            found = store.events(match_id, match.seq)
            if found:
                match.extend(found)
            return seen.redact(match.envelopes[since:]) if match.seq > since else []

        wake = hub.subscribe(match_id)
        try:
            await hub.ready()
            fresh = True
            while True:
                wake.clear()
                shown = await run(newer, sent)
                wake.seen = match.seq
                if match.seq > sent or fresh:
                    for env in shown:
                        yield ServerSentEventMessage(event="envelope", id=env.seq,
                                                     data=msgspec.json.encode(env).decode())
                    sent = max(sent, match.seq)
                    awaiting = match.awaiting
                    status = api.StreamStatus(seq=match.seq, awaiting=sorted(awaiting), outcome=match.outcome,
                                              legal=match.legal(who) if who is not None and who in awaiting else [])
                    yield ServerSentEventMessage(event="status", data=msgspec.json.encode(status).decode())
                    fresh = False
                if match.outcome is not None and sent >= match.seq:
                    yield ServerSentEventMessage(event="end", data="{}")
                    return
                try:
                    await asyncio.wait_for(wake.wait(), heartbeat)
                except TimeoutError:
                    yield ServerSentEventMessage(comment="keep-alive", data=None)
        except KifuError as exc:  # the database went away mid-stream: say so, end; the client resumes
            code, problem = _status_of(exc)
            if code == 503:   # never the database's name, host or user
                log.warning("store unavailable while streaming %s: %s", match_id, exc)
                problem = api.Problem(error="unavailable", message="the database is unavailable; resume later")
            yield ServerSentEventMessage(event="error", data=msgspec.json.encode(problem).decode())
        finally:
            hub.unsubscribe(match_id, wake)

    @get("/matches/{match_id:str}/record", summary="The full .kifu.jsonl record (judge token only)",
         tags=["judge"], security=SECURITY, media_type="application/x-ndjson", responses=_problems(401, 403, 404))
    async def record(request: Request[Any, Any, Any], match_id: MatchId) -> Response[bytes]:
        who = await caller(request, match_id)
        match_id = match_key(match_id)
        body = await run(service.record, match_id, who)
        return Response(body, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{match_id}.kifu.jsonl"'})

    @get("/matches/{match_id:str}/notes", summary="The notes on the match the caller may see",
         tags=["notes"], security=SECURITY, responses=_problems(401, 404),
         description="The judge sees every note; a seat its own notes and the judge's public ones (never the "
                     "other seat's). A seat's copy has no chain links.")
    async def list_notes(request: Request[Any, Any, Any], match_id: MatchId) -> api.NoteList:
        key, token = _token_then_key(request, match_id)
        return await run(lambda: service.list_notes(key, service.caller(key, token)))

    @post("/matches/{match_id:str}/notes", summary="Add a note on a seq (judge or seat token)", tags=["notes"],
          security=SECURITY, responses=_problems(400, 401, 403, 404, 413),
          description="A comment, a glyph, arrows or a linked variation (a match forked from this one) on event "
                      "``seq`` (0: the match as a whole), outside the match's events and chain. 400 if the match "
                      "has no such seq, the note is empty or the variation was not forked from this match; 403 a "
                      "seat's note made public. Stored append-only, numbered, signed by the service's key.")
    async def add_note(request: Request[Any, Any, Any], match_id: MatchId, data: NoteBody) -> api.NoteOut:
        key, token = _token_then_key(request, match_id)
        body = await _strict(request, _note_decoder)
        return await run(lambda: service.add_note(key, service.caller(key, token), body))

    @get("/health", summary="Liveness: the store answers", tags=["service"])
    async def health() -> dict[str, str]:
        await run(store.last_notification_id)
        return {"status": "ok", "store": config.backend, "engine": ENGINE_VERSION}

    async def shutdown() -> None:
        await hub.stop()
        workers.shutdown(wait=True)
        tokens.close()
        service.notes.close()
        store.close()

    app = Litestar(
        route_handlers=[rulesets, create_match, list_matches, match_info, view, decide, judge, events, stream, record,
                        list_notes, add_note, health, *viewer_routes(store, run, caller, service.notes,
                                                                   signer=signer.name if signer else None),
                        *feed_routes(featured, hub, run, heartbeat, _resume_after), *event_routes(tournaments, run)],
        on_startup=[hub.start], on_shutdown=[shutdown],
        exception_handlers={Exception: _problem},
        before_request=_checked_body,
        after_request=_no_framing,
        plugins=[ProblemDetailsPlugin()],
        request_max_body_size=MAX_BODY,
        openapi_config=OpenAPIConfig(
            title="Kifu match service", version=ENGINE_VERSION,
            description="Matches played over HTTP by two seats; hidden information stays hidden. "
                        "Every error body is a Problem.",
            components=Components(security_schemes={"token": SecurityScheme(
                type="http", scheme="bearer", description="a seat token or the judge token of the match")})),
        logging_config=None,   # leave the process's logging alone: uvicorn (or the embedding program) owns it
        debug=False,
    )
    warm_signatures([h for route in app.routes for h in getattr(route, "route_handlers", ())])
    for plugin in app.plugins.init:     # the document Litestar serves, completed once: kifu.service.contract
        if hasattr(plugin, "provide_openapi_schema"):
            finish(plugin.provide_openapi_schema())
    app.state.service = service
    app.state.store = store
    app.state.hub = hub
    return app


# -- errors ---------------------------------------------------------------------------------------
def _status_of(exc: KifuError) -> tuple[int, api.Problem]:
    message = str(exc)
    match exc:
        case Unauthorized():
            return 401, api.Problem(error="unauthorized", message=message)
        case Forbidden():
            return 403, api.Problem(error="forbidden", message=message)
        case UnknownMatch():
            return 404, api.Problem(error="unknown_match", message=message)
        case UnknownEvent():
            return 404, api.Problem(error="unknown_event", message=message)
        case Conflict(actual=actual):
            return 409, api.Problem(error="conflict", message=message, seq=actual)
        case MatchOver():
            return 409, api.Problem(error="match_over", message=message)
        case Illegal(clause=clause) | InvalidDeck(clause=clause):
            return 422, api.Problem(error="illegal", message=message, clause=clause)
        case UnknownRuleset():
            return 422, api.Problem(error="unknown_ruleset", message=message)
        case Malformed():
            return 400, api.Problem(error="malformed", message=message)
        case StoreError():
            return 503, api.Problem(error="unavailable", message=message)
    return 400, api.Problem(error="rejected", message=message)


_HTTP_KINDS = {400: "malformed", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "method_not_allowed",
               413: "too_large", 415: "unsupported_media_type", 429: "too_many_requests"}


def _validation_message(exc: HTTPException) -> str:
    """Litestar's validation details, flattened into one line naming each bad field."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    parts = []
    for item in extra:
        if not isinstance(item, dict):
            continue
        key, text = item.get("key"), str(item.get("message", ""))
        if key == "data" and text in ("'data'", ""):
            text = "the request needs a JSON body"
        elif key and key != "data":
            text = f"{item.get('source', '')} {key}: {text}".strip()
        parts.append(text)
    detail = exc.detail or "bad request"
    return "; ".join(parts) if parts else detail


_TITLES = {400: "Malformed input", 401: "Unauthorized", 403: "Forbidden", 404: "Not found", 405: "Method not allowed",
           409: "Conflict", 413: "Body too large", 415: "Unsupported media type", 422: "Illegal",
           429: "Too many requests", 503: "Unavailable"}


def _problem(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Every error as an RFC 9457 problem (``application/problem+json``, through Litestar's
    ``ProblemDetailsException``); Kifu's own members (``error``, ``message``, ``clause``, ``seq``)
    ride along as extension members. Internals (tracebacks, database names) never leave."""
    headers: dict[str, str] = {}
    if isinstance(exc, KifuError):
        status, problem = _status_of(exc)
        if status == 503:   # the store's message names the database, its host and user: log it, say less
            log.warning("store unavailable on %s %s: %s", request.method, request.url.path, exc)
            problem = api.Problem(error="unavailable", message="the database is unavailable; try again")
    elif isinstance(exc, HTTPException):
        status = exc.status_code
        message = _validation_message(exc) if isinstance(exc, ValidationException) else (exc.detail or "error")
        if status >= 500:
            log.error("%s on %s %s: %s", status, request.method, request.url.path, message)
            status, message = 503, "the service cannot answer now; try again"
        problem = api.Problem(error=_HTTP_KINDS.get(status, "rejected"), message=message)
        headers.update(exc.headers or {})
    elif isinstance(exc, RecursionError):  # msgspec's answer to JSON nested thousands deep
        status, problem = 400, api.Problem(error="malformed", message="the JSON body is nested too deeply")
    else:
        log.exception("unexpected error on %s %s", request.method, request.url.path)  # no headers: no tokens
        status, problem = 503, api.Problem(error="unavailable", message="internal error; it has been logged")
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="kifu"'
    members = msgspec.to_builtins(problem)
    return _no_framing(ProblemDetailsException(   # (a refusal skips after_request: say it here too)
        status_code=status, detail=problem.message, headers=headers or None, type_=f"urn:kifu:problem:{problem.error}",
        title=_TITLES.get(status, "Rejected"), extra=members).to_response(request))
