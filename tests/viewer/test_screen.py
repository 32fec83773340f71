"""One screen at a glance, for every ruleset at 1280×800 and on a 390-px phone (issue 29).

At 1280×800 the page does not scroll: both seats' fields (their grids, or the shared board
between them), the current event with its clause, and the timeline's row of the current event
are all inside the viewport, measured by their bounding boxes. On the phone the current event and
the board of the seat acting come first, before the other seat's. Each page's content is checked
too: the header's players and verified badge, the event and its clause, the timeline row, and
screenshots of each seat's panel that are drawn, not blank.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kifu.projections.recordfile import read_record
from kifu.projections.viewdata import ViewSource

from .conftest import RULESETS
from .test_browser import ink, open_match

SIZES = [(1280, 800), (390, 844)]

BOXES = """() => {
  const box = (el) => { if (!el) return null; const b = el.getBoundingClientRect();
                        return { top: b.top, bottom: b.bottom, left: b.left, right: b.right }; };
  return {
    seats: [...document.querySelectorAll('#board section[data-seat]')].map((s) => ({
      seat: Number(s.dataset.seat), panel: box(s), fields: box(s.querySelector('.fields')),
      acting: s.classList.contains('acting') })),
    shared: box(document.querySelector('#board .shared')),
    current: box(document.querySelector('#current')),
    clause: box(document.querySelector('#current .clause')),
    here: box(document.querySelector('#timeline li.here')),
    list: box(document.querySelector('#timeline')),
    scrollY: window.scrollY, scrollWidth: document.documentElement.scrollWidth,
  };
}"""


def the_seq(record: Any) -> int:
    """A decision past the middle of the match that names a card and has a clause: a busy board."""
    envelopes = record.envelopes
    later = envelopes[len(envelopes) // 2:]
    return next((e.seq for e in later if e.kind == "decision" and e.clause and "card" in str(e.event)),
                next(e.seq for e in later if e.clause))


def acting_seat(record: Any, seq: int) -> int:
    layout = ViewSource(record.ruleset, record.header, record.envelopes, None).layout(seq)
    env = record.envelopes[seq - 1]
    return (layout.awaiting[0] if layout.awaiting else None) or layout.active or env.seat or 1


def inside(box: dict[str, float] | None, height: float, width: float, what: str) -> None:
    assert box is not None, f"{what}: not on the page"
    top, bottom, left, right = box["top"], box["bottom"], box["left"], box["right"]
    assert top >= 0 and bottom <= height + 0.5, f"{what}: y {top:.0f}–{bottom:.0f} of {height}"
    assert left >= 0 and right <= width + 0.5, f"{what}: x {left:.0f}–{right:.0f} of {width}"


@pytest.mark.parametrize("width,height", SIZES, ids=["1280x800", "390x844"])
@pytest.mark.parametrize("name", RULESETS)
def test_one_screen_at_a_glance(name: str, width: int, height: int, records: dict[str, Path], server: Any,
                                stored: Any, page_for: Any) -> None:
    _, served = server
    record = read_record(records[name])
    seq = the_seq(record)
    env = record.envelopes[seq - 1]
    match_id, tokens = stored(records[name])
    page, traffic = page_for(served.url, width=width, height=height)
    open_match(page, served.url, match_id, tokens["judge"], seq=seq)
    page.wait_for_timeout(100)      # the change marks and the arrow follow the board by a frame
    boxes = page.evaluate(BOXES)

    # what the page says: the event, its clause, the header, the timeline's row, both seats
    current = page.locator("#current").inner_text()
    assert f"#{seq}" in current and type(env.event).__name__ in current
    clauses = record.ruleset.content.clauses()
    assert env.clause is not None and env.clause in current
    if env.clause in clauses:
        assert clauses[env.clause].title in current
    info = page.locator("#match-info").inner_text()
    assert all(player in info for player in record.header.players)
    assert page.locator("#verified").inner_text().startswith("verified")
    assert page.locator("#timeline li.here").inner_text().startswith(f"#{seq} ")
    assert sorted(s["seat"] for s in boxes["seats"]) == [1, 2]
    for s in boxes["seats"]:
        panel = page.locator(f"#board section[data-seat='{s['seat']}']")
        assert record.header.players[s["seat"] - 1] in panel.locator("h2").inner_text()
        assert ink(panel.screenshot()) > 0.02, f"seat {s['seat']}'s panel is nearly blank"
    assert boxes["scrollWidth"] <= width, "the page scrolls sideways"
    assert not traffic.blocked and not page.errors

    if width > 800:      # the desktop: everything at once, without scrolling
        assert boxes["scrollY"] == 0
        for s in boxes["seats"]:
            inside(s["fields"] or s["panel"], height, width, f"seat {s['seat']}'s field")
        if boxes["shared"] is not None:
            inside(boxes["shared"], height, width, "the shared board")
        inside(boxes["clause"], height, width, "the current event's clause")
        inside(boxes["here"], height, width, "the timeline's row of the current event")
        inside(boxes["here"], boxes["list"]["bottom"], width, "the row within the timeline's list")
        assert boxes["here"]["top"] >= boxes["list"]["top"]
        assert ink(page.screenshot()) > 0.05
    else:                # the phone: the current event and the acting seat's board come first
        acting = acting_seat(record, seq)
        (mine,) = [s for s in boxes["seats"] if s["acting"]]
        (other,) = [s for s in boxes["seats"] if not s["acting"]]
        assert mine["seat"] == acting
        assert boxes["current"]["top"] < height and mine["panel"]["top"] < height
        assert boxes["current"]["top"] < other["panel"]["top"] and mine["panel"]["top"] < other["panel"]["top"]
