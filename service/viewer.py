"""The web replay viewer: one page per match, and the JSON it reads, each as a token may see it.

Routes (added to the service by ``create_app``):

    GET /matches/{id}/viewer                   the page (HTML, everything inlined; no token: it asks);
                                               404 for an id the store does not hold
    GET /matches/{id}/viewer/data?after=N&as=  the events after N described by role, and (N = 0)
                                               the clause texts and the catalogue         (token)
    GET /matches/{id}/viewer/frame?seq=S&as=   the layout after event S and the why of S  (token)

``as`` picks the view: a seat token sees only its own seat (asking for another is 403); the
judge token may look as the judge or as either seat. The page keeps the token in the tab's
``sessionStorage`` and sends it as a header, like every other route: never in a URL. The same
page with the match inlined (``page(views)``) is ``kifu export --html``: no server, no network.
"""
from __future__ import annotations

import base64
import gzip
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any

import msgspec
from litestar import MediaType, Request, Response, get

from kifu.domain.core.notes import for_role
from kifu.projections.annotations import variations, viewer_meta
from kifu.projections.timeline import Timeline
from kifu.projections.viewdata import ViewSource, turns_after, turns_of, verification

from .matches import Caller, Forbidden
from .params import As, MatchId, Seq, match_key

SOURCES_KEPT = 16
GZIP_OVER = 1024          # bytes: smaller answers go as they are
# The page may talk to its own origin only; the exported page to nothing at all.
# (the service adds ``frame-ancestors 'none'`` to every response's header: a <meta> policy cannot say it)
CSP_SERVED = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
              "img-src data:; base-uri 'none'; form-action 'none'")
CSP_FILE = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            "img-src data:; base-uri 'none'; form-action 'none'")


def _asset(name: str) -> str:
    return (files("kifu.service.viewer_assets") / name).read_text(encoding="utf-8")


def packed(bundle: dict[str, Any]) -> str:
    """A bundle as base64 of gzipped JSON: a 2,418-event match's 2.3 MB of JSON is ~170 KB so.
    The page inflates it with the browser's own ``DecompressionStream`` (no code of ours, no network)."""
    body = json.dumps(bundle, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(body, compresslevel=9, mtime=0)).decode("ascii")


def page(views: dict[str, dict[str, Any]] | None = None) -> str:
    """The viewer as one HTML document: stylesheet and script inlined, and ``views`` (the whole
    match from ``ViewSource.bundle`` per view — "judge", "1", "2" — the first opened) when the page
    must work without a server. Each view is packed alone, so the page inflates only those shown;
    the meta they share (clause texts, catalogue) is packed once, each view keeping what differs."""
    data = ""
    if views is not None:
        shared = next(iter(views.values()))["meta"]
        own = {k: {**b, "meta": {m: v for m, v in b["meta"].items() if shared.get(m) != v}} for k, b in views.items()}
        data = json.dumps({"meta": packed(shared), "views": [[k, packed(b)] for k, b in own.items()]})   # in order
    values = {"css": _asset("viewer.css"), "js": _asset("viewer.js"), "bundle": data,   # base64: no "<" to escape
              "csp": CSP_SERVED if views is None else CSP_FILE}
    return re.sub(r"\{(css|js|bundle|csp)\}", lambda m: values[m.group(1)], _asset("viewer.html"))


def annotations_meta(store: Any, notes: Any, match_id: str, seat: int | None) -> dict[str, Any]:
    """The notes the view may see (``for_role``) and the stored forks of the match."""
    header = store.header(match_id)
    forks = [("store", store.header(row.match_id)) for row in store.list_matches()]
    shown = for_role(notes.notes(match_id), None if seat is None else f"seat{seat}")
    return viewer_meta(shown, variations(header, [], forks, shown))


def view_seat(caller: Caller, asked: str) -> int | None:
    """The seat whose view ``caller`` gets for ``as=asked`` (None: the judge's)."""
    asked = asked.strip().lower()
    if asked in ("", "me"):
        return caller
    if asked not in ("judge", "1", "2"):
        raise Forbidden(f"as={asked!r}: give judge, 1 or 2")
    wanted = None if asked == "judge" else int(asked)
    if caller is not None and wanted != caller:
        raise Forbidden(f"seat {caller}'s token shows seat {caller}'s view only, not the {asked} view")
    return wanted


def may_see(caller: Caller) -> list[Any]:
    return ["judge", 1, 2] if caller is None else [caller]


class _Followed:
    """One match as the viewer keeps it: its timeline, turn marks and views, each grown in place
    of refolded when the match moves; one lock, so two requests never fold the same events."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.timeline: Timeline | None = None
        self.turns: list[int] = []
        self.views: dict[int | None, ViewSource] = {}
        self.verified: tuple[int, dict[str, Any]] | None = None   # (last seq checked, the badge)


class Sources:
    """The last few matches folded for the viewer, per view. A live match's new events are the only
    ones folded (and redacted, per seat) on the next request: never the whole match again."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self._matches: OrderedDict[str, _Followed] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: str, seat: int | None) -> ViewSource:
        with self._lock:
            followed = self._matches.get(match_id)
            if followed is None:
                followed = self._matches[match_id] = _Followed()
            self._matches.move_to_end(match_id)
            while len(self._matches) > SOURCES_KEPT:
                self._matches.popitem(last=False)
        with followed.lock:
            timeline = followed.timeline
            if timeline is None:
                match = self.store.load(match_id)
                timeline = Timeline(match.ruleset, match.header, match.envelopes)
                followed.turns = turns_of(match.ruleset, match.header, match.envelopes)
            elif newer := self.store.events(match_id, timeline.last_seq):
                followed.turns = [*followed.turns, *turns_after(timeline.ruleset, timeline.final, newer)]
                timeline = timeline.extended(newer)
            followed.timeline = timeline
            view = followed.views.get(seat)
            if view is None:
                view = ViewSource(timeline.ruleset, timeline.header, timeline.envelopes, seat, timeline=timeline,
                                  turns=followed.turns)
            elif view.last_seq != timeline.last_seq:
                view = view.extended(timeline, followed.turns)
            followed.views[seat] = view
            return view

    def verified(self, match_id: str, signer: str | None) -> dict[str, Any]:
        """The badge of ``match_id`` as it stands (``viewdata.verification`` on the judge's record),
        checked again only when the match has moved since."""
        with self._lock:
            followed = self._matches.get(match_id)
        if followed is None or followed.timeline is None:
            self.get(match_id, None)
            with self._lock:
                followed = self._matches[match_id]
        with followed.lock:
            timeline = followed.timeline
            assert timeline is not None
            if followed.verified is None or followed.verified[0] != timeline.last_seq:
                finished = timeline.ruleset.decider.outcome(timeline.final) is not None
                badge = verification(timeline.header, timeline.envelopes, signer=signer, finished=finished)
                followed.verified = (timeline.last_seq, badge)
            return followed.verified[1]


def _send(request: Request[Any, Any, Any], body: bytes, media_type: str, headers: dict[str, str]) -> Response[bytes]:
    """Gzipped when the browser takes it: a 2,000-event match's events are ~460 KB of JSON, ~10× less."""
    headers = {**headers, "Vary": "Accept-Encoding"}
    if len(body) > GZIP_OVER and "gzip" in request.headers.get("accept-encoding", ""):
        body = gzip.compress(body, compresslevel=5)
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type=media_type, headers=headers)


def _json(request: Request[Any, Any, Any], body: Any) -> Response[bytes]:
    return _send(request, msgspec.json.encode(body), MediaType.JSON, {"Cache-Control": "no-store"})


def viewer_routes(store: Any, run: Callable[..., Awaitable[Any]],
                  caller: Callable[[Request[Any, Any, Any], str], Awaitable[Caller]], notes: Any = None,
                  signer: str | None = None) -> list[Any]:
    """The viewer's route handlers on the service's store, worker-thread runner and token check;
    ``notes`` (a ``NoteStore``): the notes and variations its meta carries, as the view may see them;
    ``signer``: the name the service signs its records with (the page's "verified" badge)."""
    sources = Sources(store)
    html = page().encode()

    def data(match_id: str, seat: int | None, may: list[Any], after: int) -> dict[str, Any]:
        src = sources.get(match_id, seat)
        after = max(0, min(after, src.last_seq))
        body: dict[str, Any] = {"events": src.events(after), "last_seq": src.last_seq,
                                "outcome": src.outcome.describe() if src.outcome else "", "may": may}
        if after == 0:
            body["meta"] = src.meta()
            if notes is not None:
                body["meta"].update(annotations_meta(store, notes, match_id, seat))
            body["meta"]["verified"] = sources.verified(match_id, signer)
        elif src.outcome is not None:     # finished since the page opened: the badge says so now
            body["verified"] = sources.verified(match_id, signer)
        return body

    def frame(match_id: str, seat: int | None, seq: int) -> dict[str, Any]:
        return sources.get(match_id, seat).frame(seq)

    @get("/matches/{match_id:str}/viewer", summary="The web viewer of a match (asks for a token)", tags=["viewer"],
         media_type=MediaType.HTML, include_in_schema=True)
    async def viewer_page(request: Request[Any, Any, Any], match_id: MatchId) -> Response[bytes]:
        match_key(match_id)       # a page only for an id the service could have issued,
        await run(store.header, match_id)     # and holds (UnknownMatch: 404)
        return _send(request, html, MediaType.HTML,
                     {"Content-Security-Policy": CSP_SERVED, "Referrer-Policy": "no-referrer",
                      "X-Content-Type-Options": "nosniff"})

    @get("/matches/{match_id:str}/viewer/data", summary="The viewer's events (and meta), as the token may see them",
         tags=["viewer"], security=[{"token": []}])
    async def viewer_data(request: Request[Any, Any, Any], match_id: MatchId, as_: As = "",
                          after: Seq = 0) -> Response[bytes]:
        who = await caller(request, match_id)
        return _json(request, await run(data, match_id, view_seat(who, as_), may_see(who), after))

    @get("/matches/{match_id:str}/viewer/frame", summary="The layout after a seq and the why of that seq",
         tags=["viewer"], security=[{"token": []}])
    async def viewer_frame(request: Request[Any, Any, Any], match_id: MatchId, seq: Seq,
                           as_: As = "") -> Response[bytes]:
        who = await caller(request, match_id)
        return _json(request, await run(frame, match_id, view_seat(who, as_), seq))

    return [viewer_page, viewer_data, viewer_frame]
