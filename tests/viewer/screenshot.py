"""Remake the viewer's screenshot in docs/viewer.md: ``.venv/bin/python -m tests.viewer.screenshot [OUT]``.

Serves a recorded WORLFARD match from an in-memory store and photographs the page at 1280×800
in Debian's chromium (a CJK font, e.g. Debian's fonts-noto-cjk, draws the card names)."""
from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from kifu.service import create_app
from kifu.service.server import BackgroundServer

from .conftest import CHROMIUM
from .helpers import ROOT, store_record

RECORD = ROOT / "replays" / "worlfard" / "bot-flame-gale-vs-tide-stone-s1.kifu.jsonl"
SEQ = 254         # a combat damage ruling: its why shows the units and the STR it used, and the tip the card


def main(out: str = str(ROOT / "docs" / "viewer-worlfard.png")) -> None:
    app = create_app("memory", environ={})
    with BackgroundServer(app, grace=0.2) as server, sync_playwright() as p:
        match_id, tokens = store_record(app, RECORD)
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{server.url}/matches/{match_id}/viewer#seq={SEQ}&token={tokens['judge']}")
        page.wait_for_selector(f"body[data-seq='{SEQ}']")
        page.keyboard.press("w")
        page.wait_for_selector("#why li")
        page.locator("#board .card.named").first.focus()     # the ruled card's text and its English gloss
        page.wait_for_selector("#tip:not([hidden])")
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=out)
        browser.close()
    print(out)


if __name__ == "__main__":
    main(*sys.argv[1:])
