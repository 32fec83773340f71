"""A client of the match service over HTTP (httpx): typed answers, Kifu's errors back.

The service's error bodies become the same errors the engine raises locally (``Conflict``,
``Illegal`` with its clause, ``Malformed``, ``UnknownMatch``), so the CLI reports them with its
usual exit codes. The live stream is read as server-sent events.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple, TypeVar, cast

import httpx
import msgspec

from kifu.domain.core.errors import Conflict, Illegal, KifuError, Malformed, MatchOver, UnknownMatch

from . import api, event_api

TIMEOUT = httpx.Timeout(30.0, connect=5.0)
STREAM_TIMEOUT = httpx.Timeout(5.0, read=60.0)  # the service sends a keep-alive every 15 s


class ServiceError(KifuError):
    """An answer the client cannot turn into a more precise error (auth, server trouble)."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(f"service answered {status}: {message}")


class Unreachable(KifuError):
    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"cannot reach the Kifu service at {url}: {reason}")


class SSE(NamedTuple):
    event: str
    data: str
    id: str | None


# Built at import, before any thread decodes (see kifu.service.warmup for why it matters).
_decoders: dict[type, msgspec.json.Decoder[Any]] = {
    kind: msgspec.json.Decoder(kind) for kind in (api.MatchCreated, api.MatchList, api.Rulesets, api.SeatView,
                                                   api.DecisionResult, api.EventsPage, api.StreamStatus)}
_problem = msgspec.json.Decoder(api.Problem)
T = TypeVar("T")


def _decode(kind: type[T], body: bytes) -> T:
    dec = _decoders[kind]
    try:
        return cast(T, dec.decode(body))
    except msgspec.DecodeError as exc:
        raise ServiceError(200, f"an answer that is not a {kind.__name__} ({exc})") from None


def error_of(response: httpx.Response, match_id: str = "", expected: int = -1) -> KifuError:
    """The Kifu error a non-2xx answer stands for."""
    try:
        problem = _problem.decode(response.content)
    except msgspec.DecodeError:
        return ServiceError(response.status_code, response.text[:200] or response.reason_phrase)
    status = response.status_code
    match problem.error:
        case "conflict" if problem.seq is not None:
            return Conflict(match_id, expected, problem.seq)
        case "illegal":
            clause = problem.clause or "?"
            return Illegal(clause, problem.message.removeprefix(f"illegal ({clause}): "))
        case "malformed":
            return Malformed(problem.message)
        case "unknown_match":
            return UnknownMatch(match_id)
        case "match_over":
            err = MatchOver(match_id, "")
            err.args = (problem.message,)
            return err
    return ServiceError(status, problem.message)


class KifuClient:
    """One connection pool to one service; ``token`` is the default for match calls."""

    def __init__(self, server: str, token: str | None = None, *, timeout: httpx.Timeout = TIMEOUT,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.http = httpx.Client(base_url=self.server, timeout=timeout, transport=transport,
                                 headers={"User-Agent": "kifu-client"})

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> KifuClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing --------------------------------------------------------------------------
    def _headers(self, token: str | None) -> dict[str, str]:
        token = token or self.token
        return {"Authorization": f"Bearer {token}"} if token else {}

    def _call(self, method: str, path: str, *, token: str | None = None, body: Any = None,
              params: dict[str, Any] | None = None, match_id: str = "", expected: int = -1) -> httpx.Response:
        content = None if body is None else msgspec.json.encode(body)
        headers = self._headers(token)
        if content is not None:
            headers["Content-Type"] = "application/json"
        try:
            response = self.http.request(method, path, content=content, headers=headers, params=params)
        except httpx.TransportError as exc:
            raise Unreachable(self.server, str(exc) or type(exc).__name__) from None
        if response.status_code >= 400:
            raise error_of(response, match_id, expected)
        return response

    # -- the API ---------------------------------------------------------------------------
    def event_results(self, event: str, *, token: str | None = None) -> event_api.Collected:
        """The service reads the event's current round's end marks into results (organiser token)."""
        body = self._call("POST", f"/events/{event}/results", token=token).content
        try:
            return msgspec.json.decode(body, type=event_api.Collected)
        except msgspec.DecodeError as exc:
            raise ServiceError(200, f"an answer that is not a Collected ({exc})") from None

    def create(self, *, ruleset: str = "worlfard", decks: tuple[Any, Any] | None = None,
               players: tuple[str, str] = ("seat 1", "seat 2"), **tournament: str | None) -> api.MatchCreated:
        request = api.CreateMatch(ruleset=ruleset, decks=decks, players=players, **tournament)
        return _decode(api.MatchCreated, self._call("POST", "/matches", body=request).content)

    def matches(self) -> api.MatchList:
        return _decode(api.MatchList, self._call("GET", "/matches").content)

    def rulesets(self) -> api.Rulesets:
        return _decode(api.Rulesets, self._call("GET", "/rulesets").content)

    def view(self, match_id: str, *, token: str | None = None, position: bool = False) -> api.SeatView:
        r = self._call("GET", f"/matches/{match_id}/view", token=token, match_id=match_id,
                       params={"position": "true"} if position else None)
        return _decode(api.SeatView, r.content)

    def decide(self, match_id: str, seq: int, command: Any, *, token: str | None = None) -> api.DecisionResult:
        body = api.Decision(seq=seq, command=msgspec.to_builtins(command))
        r = self._call("POST", f"/matches/{match_id}/decisions", token=token, body=body,
                       match_id=match_id, expected=seq)
        return _decode(api.DecisionResult, r.content)

    def events(self, match_id: str, after: int = 0, *, token: str | None = None) -> list[Any]:
        """Every envelope after ``after`` (as builtins), following ``more`` across pages."""
        out: list[Any] = []
        while True:
            r = self._call("GET", f"/matches/{match_id}/events", token=token, params={"after": after},
                           match_id=match_id)
            page = _decode(api.EventsPage, r.content)
            out.extend(page.events)
            if not page.more or not page.events:
                return out
            after = page.events[-1]["seq"]

    def record(self, match_id: str, *, token: str | None = None) -> bytes:
        return self._call("GET", f"/matches/{match_id}/record", token=token, match_id=match_id).content

    def stream(self, match_id: str, after: int = 0, *, token: str | None = None) -> Iterator[SSE]:
        """Server-sent events of the match after ``after`` until ``end`` (or the caller stops)."""
        try:
            with self.http.stream("GET", f"/matches/{match_id}/stream", params={"after": after},
                                  headers={**self._headers(token), "Accept": "text/event-stream"},
                                  timeout=STREAM_TIMEOUT) as response:
                if response.status_code >= 400:
                    response.read()
                    raise error_of(response, match_id)
                for message in parse_sse(response.iter_lines()):
                    if message.event == "error":   # the service could not go on: a Kifu error, resumable
                        raise error_of(httpx.Response(503, content=message.data.encode()), match_id)
                    yield message
        except httpx.TransportError as exc:
            raise Unreachable(self.server, str(exc) or type(exc).__name__) from None


def parse_sse(lines: Iterator[str]) -> Iterator[SSE]:
    """The text/event-stream format: fields until a blank line; comments (":") skipped."""
    event, ident = "message", None
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                yield SSE(event, "\n".join(data), ident)
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            ident = value
    if data:
        yield SSE(event, "\n".join(data), ident)
