"""Fixtures for the viewer tests: Debian's chromium driven by Playwright, a served store of matches.

Nothing here downloads a browser: Playwright is pointed at the system's ``chromium``
(``executable_path``), which ``.ci/run`` installs when it is missing. Without it the browser
tests are skipped saying why, unless ``CI`` is set, where they fail.
"""
from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kifu.domain.core.driver import drive
from kifu.domain.core.match import Match
from kifu.domain.core.record import encode_record
from kifu.domain.core.ruleset import find_ruleset, ruleset_names
from kifu.service import create_app
from kifu.service.server import BackgroundServer

from .helpers import ROOT, store_record

CHROMIUM = os.environ.get("KIFU_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why}; CI must have it (.ci/run installs Debian's chromium)")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, for one test module at a time: Playwright's sync API keeps an event loop running
    in the main thread while it is open, and a test that later calls ``asyncio.run`` in the same
    xdist worker (tests/service/test_coalesce.py) would find it there and fail."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[test]')")
    if CHROMIUM is None:
        _missing("no chromium on this machine (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


class Traffic:
    """Every request a page made, every response body it got, and the ones blocked."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.bodies: list[tuple[str, bytes]] = []
        self.blocked: list[str] = []


def open_page(browser: Any, allowed: str, *, width: int = 1280, height: int = 800) -> tuple[Any, Any, Traffic]:
    """A fresh context that lets requests reach only ``allowed`` (a URL prefix) and records them."""
    context = browser.new_context(viewport={"width": width, "height": height})
    traffic = Traffic()

    def route(r: Any) -> None:
        url = r.request.url
        traffic.requests.append(url)
        if url.startswith(allowed) or url.startswith("data:"):
            r.continue_()
        else:
            traffic.blocked.append(url)
            r.abort()

    context.route("**/*", route)

    def keep(response: Any) -> None:
        try:
            traffic.bodies.append((response.url, response.body()))
        except Exception:  # a streamed body (SSE) has none to give; its messages are read by the page
            pass

    page = context.new_page()
    page.on("response", keep)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors   # type: ignore[attr-defined]
    return context, page, traffic


@pytest.fixture
def page_for(browser: Any) -> Iterator[Any]:
    opened: list[Any] = []

    def make(allowed: str, **size: int) -> tuple[Any, Traffic]:
        context, page, traffic = open_page(browser, allowed, **size)
        opened.append(context)
        return page, traffic

    yield make
    for context in opened:
        context.close()


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[Any, BackgroundServer]]:
    app = create_app("memory", environ={"KIFU_TEST_RULESETS": "1"}, poll_interval=0.02)
    with BackgroundServer(app, grace=0.2) as served:
        yield app, served


def recorded(name: str, tmp: Path) -> Path:
    """A recorded match of ruleset ``name``: its corpus's first bot match, else one played now."""
    found = sorted((ROOT / "replays" / name).glob("bot-*.kifu.jsonl"))
    if found:
        return found[0]
    rules = find_ruleset(name)
    decks = [rules.content.load_deck(p) for p in rules.content.presets()[:2]]
    match = Match.create(rules, match_id=str(uuid.uuid4()), seed=11, decks=decks, players=("ann", "bob"))
    drive(match, {s: rules.content.bots["random"](10 + s) for s in (1, 2)})
    path = tmp / f"{name}.kifu.jsonl"
    path.write_bytes(encode_record(match.header, match.envelopes))
    return path


RULESETS = ruleset_names()


@pytest.fixture(scope="session")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("records")
    return {name: recorded(name, tmp) for name in RULESETS}


@pytest.fixture(scope="module")
def stored(server: tuple[Any, BackgroundServer]) -> Any:
    """Store a record once per module: (match id, tokens)."""
    app, _ = server
    known: dict[Path, tuple[str, dict[str, str]]] = {}

    def put(path: Path) -> tuple[str, dict[str, str]]:
        if path not in known:
            known[path] = store_record(app, path)
        return known[path]

    return put


@pytest.fixture
def glossed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every card of every ruleset gets an English name and gloss, as a ruleset's ``gloss.toml``
    gives them: the tests stand on the seam (``kifu.domain.core.gloss``), not on the shipped files."""
    from kifu.domain.core import gloss

    class EveryCard(dict):   # type: ignore[type-arg]
        def get(self, name: str, default: Any = None) -> gloss.Gloss:
            return gloss.Gloss(name=f"EN {name}", text=f"An English gloss of {name}.")

    def clear() -> None:     # some catalogues are cached: drop them with and without the stand-in
        for name in RULESETS:
            getattr(find_ruleset(name).content.catalogue, "cache_clear", lambda: None)()

    monkeypatch.setattr(gloss, "glosses", lambda package: EveryCard(any=None))
    clear()
    yield
    monkeypatch.undo()
    clear()
