"""The OpenAPI document as the service's contract: what Litestar generates, made exact.

Litestar writes the routes, parameters and success bodies; it cannot know what the service
refuses and how. ``finish`` completes the generated document in place, once, before it is first
served (``tests/service/test_openapi_contract.py`` holds the service to it with schemathesis):

- every match id is a canonical lowercase UUID (``format: uuid`` and a pattern): the service
  refuses any other spelling;
- the request bodies are described by msgspec's own schema of the Structs the service decodes
  strictly (unknown fields refused, tuple lengths, string bounds), not Litestar's looser reading;
- every refusal is an RFC 9457 problem (``application/problem+json``), and every status a route
  can answer with is listed: 400 (malformed), 401 (no token, or not one of this match: checked
  before the id), 403, 404, 409, 413 and 415 (a body too large or not JSON), 422 (the rules
  refuse), 503 (the store is unavailable);
- the live stream answers ``text/event-stream``.
"""
from __future__ import annotations

import re
from typing import Any

import msgspec

from kifu.domain.core.ruleset import ruleset_names

from . import api, event_api
from .params import MAX_SEQ

PROBLEM_MEDIA = "application/problem+json"
UUID_PATTERN = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
CANONICAL_UUID = re.compile(UUID_PATTERN)

WHAT = {400: "malformed input (a body, parameter or match id the service cannot read)",
        401: "no token, or not a token of this match or event (checked before anything else)",
        403: "the token's role may not do or see this", 404: "no such match or event",
        409: "stale seq (the body has the current seq) or the match is over",
        413: "body too large", 415: "the body is not application/json",
        422: "the rules refuse it: the body names the clause", 503: "the database is unavailable; try again"}

# An RFC 9457 problem with Kifu's extension members (``error``, ``message``, ``clause``, ``seq``).
PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "Problem", "type": "object", "required": ["type", "title", "status", "detail", "error", "message"],
    "properties": {
        "type": {"type": "string", "description": "urn:kifu:problem:<error>"},
        "title": {"type": "string"}, "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string"},
        "error": {"type": "string", "description": "what kind of refusal: malformed, unauthorized, illegal, …"},
        "message": {"type": "string", "description": "one line saying what was wrong"},
        "clause": {"type": "string", "description": "the rule clause that refuses an illegal decision"},
        "seq": {"type": "integer", "description": "the match's current seq (a stale decision)"},
    },
}
_REQUESTS = (api.CreateMatch, api.Decision, event_api.CreateEvent, event_api.Registration, event_api.Correction,
             event_api.Drop)
EVENT_PATTERN = "^[a-z0-9][a-z0-9_-]{0,47}$"
# One server-sent event of the live stream (OpenAPI 3.1: the schema describes each event).
SSE_EVENT: dict[str, Any] = {
    "type": "object", "required": ["event", "data"],
    "properties": {"event": {"enum": ["envelope", "status", "end", "error"]},
                   "data": {"type": "string", "description": "JSON: an envelope, a StreamStatus, {} or a Problem"},
                   "id": {"type": "string", "description": "an envelope's seq (resume with Last-Event-ID)"},
                   "retry": {"type": "integer"}},
}
# The viewer's JSON, read only by its own page: its outer shape (the parts are the ruleset's).
VIEWER: dict[str, dict[str, Any]] = {
    "data": {"type": "object", "required": ["events", "last_seq", "outcome", "may"],
             "properties": {"events": {"type": "array"}, "last_seq": {"type": "integer"},
                            "outcome": {"type": "string"}, "may": {"type": "array"}, "meta": {"type": "object"}}},
    "frame": {"type": "object"},
}


def _statuses(path: str, method: str, op: dict[str, Any]) -> set[int]:
    """What a route may answer besides success: from what it reads and who may call it."""
    codes = {400} if (op.get("parameters") or method == "post") else set()
    if path.endswith("/viewer"):
        return codes                                     # the page itself: static, it asks for a token
    if path != "/rulesets":
        codes.add(503)                                   # every other route reads the store
    if "{match_id}" in path:
        codes |= {400, 404}
        if op.get("security") or path.endswith(("/viewer/data", "/viewer/frame")):
            codes |= {401, 403}
    if "{event}" in path:
        codes |= {400, 404}
        if op.get("security") or path == "/events/{event}":
            codes.add(401)
    if method == "post":
        codes |= {413, 415, 422}
        if "{match_id}" in path or path.startswith("/events"):
            codes.add(409)
    return codes


def _exact_bounds(schema: dict[str, Any]) -> None:
    """Integer bounds as integers: Litestar writes them as floats, and 2**63 - 1 as a float is
    2**63, a seq the service refuses."""
    if schema.get("type") != "integer":
        return
    for key in ("minimum", "maximum"):
        value = schema.get(key)
        if isinstance(value, float):
            schema[key] = MAX_SEQ if value >= MAX_SEQ else int(value)


def finish(doc: dict[str, Any]) -> dict[str, Any]:
    """Complete Litestar's generated document in place (and return it)."""
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    (_, defs) = msgspec.json.schema_components(_REQUESTS, ref_template="#/components/schemas/{name}")
    defs["CreateMatch"]["properties"]["ruleset"]["enum"] = ruleset_names()
    defs["CreateEvent"]["properties"]["ruleset"]["enum"] = ruleset_names()
    schemas.update(defs)
    schemas["Problem"] = PROBLEM_SCHEMA
    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            for param in op.get("parameters", ()):
                _exact_bounds(param.get("schema", {}))
                if param.get("name") == "event" and param.get("in") == "path":
                    param["schema"] = {"type": "string", "pattern": EVENT_PATTERN, "description": "the event's name"}
                if param.get("name") == "match_id" and param.get("in") == "path":
                    param["schema"] = {"type": "string", "format": "uuid", "pattern": UUID_PATTERN,
                                       "description": "the match id: a UUID as POST /matches gives it (lowercase)"}
            responses = op["responses"]
            for code in _statuses(path, method, op):
                responses.setdefault(str(code), {"description": WHAT[code]})
            for code, response in responses.items():
                if code.isdigit() and int(code) >= 400:
                    response["description"] = WHAT.get(int(code), response.get("description", ""))
                    response["content"] = {PROBLEM_MEDIA: {"schema": {"$ref": "#/components/schemas/Problem"}}}
            if path.endswith("/stream") and "200" in responses:
                responses["200"]["content"] = {"text/event-stream": {"schema": SSE_EVENT}}
            elif path.endswith(("/viewer/data", "/viewer/frame")) and "200" in responses:
                responses["200"]["content"] = {"application/json": {"schema": VIEWER[path.rsplit("/", 1)[-1]]}}
            if method == "post" and "requestBody" in op:
                body = op["requestBody"].setdefault("content", {}).get("application/json", {})
                name = (body.get("schema") or {}).get("$ref", "").rsplit("/", 1)[-1]
                if name in defs:
                    op["requestBody"]["required"] = True
    return doc
