"""The tournament routes under ``/events`` (``kifu.service.events`` does the work).

    POST /events                               create an event -> its organiser token (shown once)
    GET  /events/{event}                       the event: players, commitments, pairings, results
                                               (lists hidden until published, unless the organiser asks)
    GET  /events/{event}/standings?round=N     standings with the spec's tiebreakers and their arithmetic
    POST /events/{event}/players               register a player and a list            (organiser)
    POST /events/{event}/rounds                pair the next round, create its matches  (organiser)
    POST /events/{event}/results               read the round's end marks into results  (organiser)
    POST /events/{event}/corrections           a judge's result correction               (organiser)
    POST /events/{event}/drops                 a player drops                            (organiser)
    POST /events/{event}/publication           publish every list                        (organiser)
"""
from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Protocol, TypeVar

import msgspec
from litestar import Request, get, post
from litestar.enums import RequestEncodingType
from litestar.params import Body, PathParameter, QueryParameter

from kifu.domain.core.errors import Malformed
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.tournament.standings import Standings

from . import event_api as wire
from .events import EventService
from .matches import Unauthorized

EVENT_PATTERN = "^[a-z0-9][a-z0-9_-]{0,47}$"
_EVENT = re.compile(EVENT_PATTERN)
EventName = Annotated[str, PathParameter(description="the event's name")]
Round = Annotated[int | None, QueryParameter(name="round", ge=1, le=100, description="after this Swiss round")]
SECURITY: list[dict[str, list[str]]] = [{"token": []}]

T = TypeVar("T")


class Runner(Protocol):
    """The service's worker-thread runner (``create_app``'s ``run``)."""

    def __call__(self, fn: Callable[..., T], *args: Any) -> Awaitable[T]: ...


REQUESTS = (wire.CreateEvent, wire.Registration, wire.Correction, wire.Drop)
_decoders = {kind: msgspec.json.Decoder(kind) for kind in REQUESTS}


def event_key(name: str) -> str:
    if not _EVENT.fullmatch(name):
        raise Malformed(f"{name[:48]!r} is not an event name (lower-case letters, digits, - and _)", "event")
    return name


def _bearer(request: Request[Any, Any, Any]) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _body(body: bytes, kind: type[Any]) -> Any:
    try:
        return _decoders[kind].decode(body)
    except msgspec.ValidationError as exc:
        raise Malformed(str(exc), "body") from None
    except msgspec.DecodeError as exc:
        raise Malformed(f"not JSON ({exc})", "body") from None


def event_routes(service: EventService, run: Runner) -> list[Any]:
    def organiser(request: Request[Any, Any, Any], name: str) -> str:
        token = _bearer(request)
        if token is None:
            raise Unauthorized("this needs the event's organiser token: send 'Authorization: Bearer <token>'")
        return token

    async def check(request: Request[Any, Any, Any], name: str) -> str:
        token = organiser(request, name)     # 401 before the name is even read
        key = event_key(name)
        await run(service.organiser, key, token)
        return key

    @post("/events", summary="Create an event", tags=["events"], status_code=200,
          description="Returns the organiser token, shown only here; the service keeps its SHA-256 digest.")
    async def create_event(request: Request[Any, Any, Any],
                           data: Annotated[wire.CreateEvent, Body(media_type=RequestEncodingType.JSON)]
                           ) -> wire.EventCreated:
        return await run(service.create, _body(await request.body(), wire.CreateEvent))

    @get("/events/{event:str}", summary="An event: players, commitments, pairings and results", tags=["events"],
         description="Decklists stay hidden (only their commitments show) until published, or the top cut; "
                     "with the organiser token, everything.")
    async def event_info(request: Request[Any, Any, Any], event: EventName) -> wire.EventInfo:
        key = event_key(event)
        token = _bearer(request)
        if token is not None:
            await run(service.organiser, key, token)
        return await run(lambda: service.info(key, organiser=token is not None))

    @get("/events/{event:str}/standings", summary="Standings, with each tiebreaker's arithmetic", tags=["events"])
    async def event_standings(event: EventName, after_round: Round = None) -> Standings:
        return await run(service.standings, event_key(event), after_round)

    @post("/events/{event:str}/players", summary="Register a player and a decklist", tags=["events"],
          security=SECURITY, status_code=200)
    async def register(request: Request[Any, Any, Any], event: EventName,
                       data: Annotated[wire.Registration, Body(media_type=RequestEncodingType.JSON)]
                       ) -> wire.PlayerInfo:
        key = await check(request, event)
        reg: wire.Registration = _body(await request.body(), wire.Registration)

        def go() -> wire.PlayerInfo:
            rules = find_ruleset(service.ruleset_of(key))
            deck = rules.content.load_deck(reg.deck) if isinstance(reg.deck, str) else reg.deck
            name = reg.deck if isinstance(reg.deck, str) else str(reg.deck.get("name") or "list")
            return service.register(key, reg.player, deck, name, judge=reg.judge, reason=reg.reason)
        return await run(go)

    @post("/events/{event:str}/rounds", summary="Pair the next round and create its matches", tags=["events"],
          security=SECURITY, status_code=200,
          description="The answer holds every new match's seat tokens: hand each player theirs.")
    async def pair(request: Request[Any, Any, Any], event: EventName) -> wire.Paired:
        return await run(service.pair, await check(request, event))

    @post("/events/{event:str}/results", summary="Read the round's end marks into results", tags=["events"],
          security=SECURITY, status_code=200,
          description="Records each decided table's result from its matches' end marks; starts the next game "
                      "of a best-of-three that needs one (its seat tokens are in the answer).")
    async def results(request: Request[Any, Any, Any], event: EventName) -> wire.Collected:
        return await run(service.collect, await check(request, event))

    @post("/events/{event:str}/corrections", summary="A judge's correction of a result", tags=["events"],
          security=SECURITY, status_code=200)
    async def correct(request: Request[Any, Any, Any], event: EventName,
                      data: Annotated[wire.Correction, Body(media_type=RequestEncodingType.JSON)]) -> wire.TableInfo:
        key = await check(request, event)
        return await run(service.correct, key, _body(await request.body(), wire.Correction))

    @post("/events/{event:str}/drops", summary="A player drops", tags=["events"], security=SECURITY,
          status_code=200)
    async def drop(request: Request[Any, Any, Any], event: EventName,
                   data: Annotated[wire.Drop, Body(media_type=RequestEncodingType.JSON)]) -> wire.PlayerInfo:
        key = await check(request, event)
        return await run(service.drop, key, _body(await request.body(), wire.Drop).player)

    @post("/events/{event:str}/publication", summary="Publish every decklist", tags=["events"], security=SECURITY,
          status_code=200)
    async def publish(request: Request[Any, Any, Any], event: EventName) -> wire.EventInfo:
        return await run(service.publish, await check(request, event))

    return [create_event, event_info, event_standings, register, pair, results, correct, drop, publish]
