"""The viewer in real Chromium: every ruleset's recorded match loads, steps, jumps, follows a
``#seq=`` link, explains a ruling, toggles views; a live match advances; a seat's page and its
traffic never hold the opponent's hidden cards; the exported page works from file:// offline."""
from __future__ import annotations

import io
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.projections.causes import cause_chain
from kifu.projections.recordfile import read_record
from kifu.projections.viewdata import ViewSource
from kifu.service import api

from .conftest import RULESETS

WAIT = 20_000   # ms: a loaded CI machine is slow, a broken page never gets there


def at(page: Any, seq: int) -> None:
    page.wait_for_selector(f"body[data-seq='{seq}']", timeout=WAIT)


def until(page: Any, script: str, timeout: float = WAIT / 1000) -> None:
    """Poll ``script`` (an expression) until true: the page's CSP forbids wait_for_function's eval."""
    import time

    end = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < end, f"timed out waiting for {script}"
        page.wait_for_timeout(25)


def open_match(page: Any, url: str, match_id: str, token: str, seq: int = 0, extra: str = "") -> None:
    page.goto(f"{url}/matches/{match_id}/viewer#seq={seq}{extra}&token={token}")
    at(page, seq)


def ink(png: bytes) -> float:
    """The share of pixels that are not the page's background: a drawn board has plenty."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    small = image.resize((image.width // 4, image.height // 4))
    pixels = [small.getpixel((x, y)) for y in range(small.height) for x in range(small.width)]
    background = max(set(pixels), key=pixels.count)
    return sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, background, strict=False)) > 60) / len(pixels)


def shows_card_text(page: Any, card: Any, rules: Any) -> None:
    """The tip of ``card`` (a locator) holds its seed text and, unless that is English already (the
    secretbid plugin's), its English name and gloss."""
    name = card.get_attribute("data-card")
    page.wait_for_selector("#tip:not([hidden])")
    tip = page.locator("#tip").inner_text()
    row = rules.content.catalogue().card(name)
    assert row is not None and name in tip and (not row.text or row.text.splitlines()[0][:10] in tip)
    if not (name + row.text).isascii():
        assert f"EN {name}" in tip and f"An English gloss of {name}." in tip


@pytest.mark.parametrize("name", RULESETS)
def test_a_recorded_match_of_each_ruleset_loads_steps_and_jumps(name: str, records: dict[str, Path], server: Any,
                                                                stored: Any, page_for: Any, glossed: None) -> None:
    _, served = server
    record = read_record(records[name])
    match_id, tokens = stored(records[name])
    page, traffic = page_for(served.url)
    open_match(page, served.url, match_id, tokens["judge"])
    last = len(record.envelopes)
    assert page.locator("#of").inner_text() == f"of {last}"
    assert page.locator("#timeline li[data-seq]").count() == last
    assert page.locator("#board section[data-seat]").count() == 2

    page.keyboard.press("ArrowRight")
    at(page, 1)
    first = record.envelopes[0]
    assert (first.clause or "") in page.locator("#current").inner_text()

    decision = next(e.seq for e in record.envelopes[1:] if e.kind == "decision")
    page.keyboard.press("]")
    at(page, decision)

    target = last // 2
    page.fill("#jump", str(target))
    page.press("#jump", "Enter")
    at(page, target)
    env = record.envelopes[target - 1]
    current = page.locator("#current").inner_text()
    assert f"#{target}" in current and type(env.event).__name__ in current
    if env.clause and env.clause in record.ruleset.content.clauses():
        assert record.ruleset.content.clauses()[env.clause].title in current
    assert page.evaluate("location.hash") == f"#seq={target}"

    board = page.locator("#board").screenshot()
    assert ink(board) > 0.04, "the board screenshot is nearly blank"
    faces = page.locator("#board .card").count()
    assert faces > 0, "no card drawn on the board"
    card = page.locator("#board .card[data-card]").first
    card.hover()                      # the card's text as printed, and in English
    shows_card_text(page, card, record.ruleset)
    page.keyboard.press("Escape")     # dismissed without moving the pointer
    assert page.locator("#tip").is_hidden()
    assert not traffic.blocked and not page.errors


def test_a_seq_link_opens_the_ruling_and_the_address_follows_each_step(records: dict[str, Path], server: Any,
                                                                        stored: Any, page_for: Any) -> None:
    _, served = server
    match_id, tokens = stored(records["worlfard"])
    page, _ = page_for(served.url)
    open_match(page, served.url, match_id, tokens["judge"], seq=412)
    assert "token" not in page.url, "the token must leave the address at once"
    page.keyboard.press("ArrowRight")
    at(page, 413)
    assert page.url.endswith("#seq=413")
    page.evaluate("location.hash = '#seq=100'")
    at(page, 100)
    page.keyboard.press("T")          # next turn: the first event of a later turn
    until(page, "document.body.dataset.seq !== '100'")
    seq = int(page.get_attribute("body", "data-seq"))
    turn = lambda s: page.evaluate(f"window.kifuViewer.ui.src.events[{s} - 1].turn")  # noqa: E731
    assert seq > 100 and turn(seq) > turn(100) and turn(seq - 1) == turn(100)
    page.keyboard.press("t")          # previous turn: back to the first event of turn(100)
    until(page, f"document.body.dataset.seq !== '{seq}'")
    back = int(page.get_attribute("body", "data-seq"))
    assert back <= 100 and turn(back) == turn(100) and (back == 1 or turn(back - 1) != turn(100))
    page.keyboard.press("End")
    at(page, len(read_record(records["worlfard"]).envelopes))


def test_why_walks_from_a_ruling_back_to_the_decision_with_its_clauses(records: dict[str, Path], server: Any,
                                                                         stored: Any, page_for: Any) -> None:
    _, served = server
    record = read_record(records["worlfard"])
    seq = next(e.seq for e in record.envelopes if e.kind == "rule" and len(cause_chain(record.envelopes, e.seq)) >= 3
               and e.seq > 50)
    chain = cause_chain(record.envelopes, seq)
    match_id, tokens = stored(records["worlfard"])
    page, _ = page_for(served.url)
    open_match(page, served.url, match_id, tokens["judge"], seq=seq)
    page.keyboard.press("w")
    page.wait_for_selector("#why li")
    links = page.locator("#why > ol > li")
    assert links.count() == len(chain)
    text = page.locator("#why").inner_text()
    for env in chain:
        assert f"#{env.seq}" in text and (env.clause or "") in text
    assert f"decided by seat {chain[-1].seat} at #{chain[-1].seq}" in text
    links.nth(len(chain) - 1).locator("button").first.click()
    at(page, chain[-1].seq)


def test_the_judge_toggles_seat_views_and_a_seat_token_has_no_toggle(records: dict[str, Path], server: Any,
                                                                       stored: Any, page_for: Any) -> None:
    _, served = server
    match_id, tokens = stored(records["worlfard"])
    page, _ = page_for(served.url)
    open_match(page, served.url, match_id, tokens["judge"], seq=300)
    judge_down = page.locator("#board .card.down").count()
    page.select_option("#as", "1")
    until(page, "document.querySelector('#title').textContent.includes(\"seat 1's view\")")
    at(page, 300)
    assert "as=1" in page.url
    assert page.locator("#board .card.down").count() + page.locator("#board .count").count() > judge_down
    page.keyboard.press("v")         # on to seat 2
    until(page, "document.querySelector('#title').textContent.includes(\"seat 2's view\")")

    seat, _ = page_for(served.url)
    open_match(seat, served.url, match_id, tokens["seat2"], seq=300)
    assert seat.locator("#as-wrap").is_hidden()
    assert "seat 2's view" in seat.locator("#title").inner_text()


def never_seen_by(record: Any, seat: int) -> set[int]:
    """Card ids the judge's layouts show that ``seat`` never sees, in any layout or event."""
    judge = ViewSource(record.ruleset, record.header, record.envelopes, None)
    mine = ViewSource(record.ruleset, record.header, record.envelopes, seat, timeline=judge.timeline, turns=judge.turns)

    def ids(source: ViewSource, every: int) -> set[int]:
        found: set[int] = set()
        for s in range(0, source.last_seq + 1, every):
            found.update(int(i) for i in re.findall(r'"id":(\d+)', json.dumps(source.frame(s)["layout"],
                                                                               separators=(",", ":"))))
        return found

    seen = ids(mine, 1) | {c for e in mine.events() for c in e.get("cards", [])}
    return ids(judge, 5) - seen - {0}


def test_a_seat_page_and_its_traffic_never_hold_the_opponents_hidden_cards(records: dict[str, Path], server: Any,
                                                                            stored: Any, page_for: Any) -> None:
    _, served = server
    record = read_record(records["worlfard"])
    hidden = never_seen_by(record, 1)
    assert hidden, "the match should hold cards seat 1 never sees"
    match_id, tokens = stored(records["worlfard"])
    page, traffic = page_for(served.url)
    open_match(page, served.url, match_id, tokens["seat1"], seq=40)
    for key in ("ArrowRight", "]", "]", "T", "w", "ArrowRight", "End"):
        page.keyboard.press(key)
        page.wait_for_timeout(50)
    late = str(len(record.envelopes) - 5)   # deep into the match, whatever its length (the corpus is re-recorded)
    page.fill("#jump", late)
    page.press("#jump", "Enter")
    at(page, int(late))
    # the prefetched neighbours arrive too: waited for by their responses, not for a fixed time (a loaded machine)
    neighbours = {f"seq={int(late) - 1}", f"seq={int(late) + 1}"}
    end = time.monotonic() + WAIT / 1000
    while not all(any(re.search(re.escape(n) + r"(?!\d)", url) for url, _ in traffic.bodies) for n in neighbours):
        assert time.monotonic() < end, f"the frames {sorted(neighbours)} never arrived"
        page.wait_for_timeout(25)
    leaked: list[str] = []
    texts = [(url, body.decode("utf-8", "replace")) for url, body in traffic.bodies]
    texts.append(("the page's DOM", page.content()))
    for url, text in texts:
        # a card as JSON ("id"/"card", an event's "cards"), as an event names it ("name#id"), on the board
        for m in re.finditer(r'"(?:id|card)":(\d+)|"cards":\[([\d,]+)\]|(?<=[^\s>"(#\d\[,])#(\d+)|data-id="(\d+)"',
                             text):
            ids = {int(i) for g in m.groups() if g for i in g.split(",")}
            if ids & hidden:
                leaked.append(f"{url}: …{text[max(0, m.start() - 120):m.end()]}")
    assert len(traffic.bodies) >= 4 and not leaked, leaked[:3]


def test_a_live_match_advances_on_the_page_without_reloading(server: Any, page_for: Any) -> None:
    app, served = server
    service = app.state.service
    created = service.create(api.CreateMatch(ruleset="worlfard", players=("ann", "bob")))
    match_id = created.match_id
    page, _ = page_for(served.url)
    open_match(page, served.url, match_id, created.tokens.judge, seq=0)
    page.keyboard.press("End")
    start = created.seq
    at(page, start)
    assert page.locator("#live-wrap").is_visible()
    seat_page, _ = page_for(served.url)
    open_match(seat_page, served.url, match_id, created.tokens.seat1, seq=0)
    seat_page.keyboard.press("End")
    at(seat_page, start)
    import msgspec

    for _ in range(4):
        view = service.view(match_id, None)
        (seat,) = view.awaiting
        mine = service.view(match_id, seat)
        command = msgspec.to_builtins(mine.legal[0])
        service.decide(match_id, seat, api.Decision(seq=mine.seq, command=command))
    end = service.view(match_id, None).seq
    assert end > start
    at(page, end)                      # followed the live end without a reload
    at(seat_page, end)
    assert page.locator("#timeline li[data-seq]").count() == end
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1


def test_the_exported_page_steps_through_the_match_from_file_with_the_network_blocked(
        records: dict[str, Path], tmp_path: Path, page_for: Any) -> None:
    source = records["reigeki"]
    out = tmp_path / "m.html"
    result = CliRunner().invoke(cli, ["--db", "memory", "export", str(source), "--html", str(out)])
    assert result.exit_code == 0, result.output
    page, traffic = page_for("file://")
    page.goto(out.as_uri() + "#seq=5")
    at(page, 5)
    page.keyboard.press("ArrowRight")
    at(page, 6)
    page.keyboard.press("w")
    page.wait_for_selector("#why li")
    page.keyboard.press("End")
    last = len(read_record(source).envelopes)
    at(page, last)
    assert ink(page.locator("#board").screenshot()) > 0.04
    record = read_record(source)
    judge = ViewSource(record.ruleset, record.header, record.envelopes, None)
    seat = ViewSource(record.ruleset, record.header, record.envelopes, 2, timeline=judge.timeline, turns=judge.turns)
    named = lambda src, s: json.dumps(src.frame(s)["layout"]).count('"name"')  # noqa: E731
    hides = next(s for s in range(last // 2, last) if named(seat, s) < named(judge, s))
    page.evaluate(f"window.kifuViewer.go({hides})")
    at(page, hides)
    shown = f"window.kifuViewer.ui.src.frame({hides}).then((f) => f.layout)"
    layout = lambda src: {"board": [], **json.loads(json.dumps(src.frame(hides)["layout"]))}  # noqa: E731  as JSON has it
    assert page.evaluate(shown) == layout(judge)
    judge_board = page.inner_html("#board")
    page.select_option("#as", "2")      # the judge's page holds each seat's view: toggled offline
    until(page, "document.querySelector('#title').textContent.includes(\"seat 2's view\")")
    at(page, hides)
    assert page.url.endswith(f"#seq={hides}&as=2")
    assert page.evaluate(shown) == layout(seat) and page.inner_html("#board") != judge_board
    page.goto(out.as_uri() + "#seq=7&as=1")  # a link to a seat's view at a seq opens there
    page.reload()
    at(page, 7)
    assert "seat 1's view" in page.locator("#title").inner_text()
    assert not traffic.blocked and all(u.startswith("file://") for u in traffic.requests)
    assert not page.errors


def test_keyboard_only_use_reaches_card_text_and_the_help(records: dict[str, Path], server: Any, stored: Any,
                                                         page_for: Any, glossed: None) -> None:
    _, served = server
    rules = read_record(records["worlfard"]).ruleset
    match_id, tokens = stored(records["worlfard"])
    page, _ = page_for(served.url)
    open_match(page, served.url, match_id, tokens["judge"], seq=412)
    page.locator("#board .card[data-card]").first.focus()
    shows_card_text(page, page.locator(":focus"), rules)
    named = next(s for s in range(412, 1, -1) if "cards" in page.evaluate(f"window.kifuViewer.ui.src.events[{s - 1}]"))
    page.evaluate(f"window.kifuViewer.go({named})")
    at(page, named)
    page.locator("#why-toggle").focus()
    page.keyboard.press("Tab")       # a card the current event names is next in the tab order
    assert page.evaluate("document.activeElement.classList.contains('card-ref')")
    shows_card_text(page, page.locator(":focus"), rules)
    page.evaluate("window.kifuViewer.go(412)")
    at(page, 412)
    gloss = page.evaluate("window.kifuViewer.ui.src.meta.glossary")
    shown = page.evaluate("[...document.querySelectorAll('#board .card[data-card]')].map((c) => c.dataset.card)")
    glossed = [n for n in shown if n in gloss]
    assert glossed, "a card on this board has keywords in its text"
    page.locator(f"#board .card[data-card='{glossed[0]}']").first.focus()   # its English gloss from the rules
    page.wait_for_selector("#tip:not([hidden])")
    assert gloss[glossed[0]][0]["clause"] in page.locator("#tip").inner_text()
    page.keyboard.press("Escape")
    page.locator("body").focus()
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#help").is_visible()
    page.locator("body").focus()
    page.select_option("#speed", "40")
    page.locator("body").focus()
    page.keyboard.press(" ")              # play: the board moves on by itself
    until(page, "Number(document.body.dataset.seq) >= 416")
    page.keyboard.press(" ")              # pause: it stops (a step already under way may land)
    page.wait_for_timeout(200)
    stopped = page.get_attribute("body", "data-seq")
    page.wait_for_timeout(300)
    assert page.get_attribute("body", "data-seq") == stopped
    for _ in range(3):                    # tab reaches the controls
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") in ("BUTTON", "SELECT", "INPUT", "SPAN", "OL")


CONTRAST = """() => {
  const lum = (c) => {
    const v = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((x) => {
      x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const bg = (el) => {
    for (; el; el = el.parentElement) {
      const c = getComputedStyle(el).backgroundColor;
      if (!/rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent') return c;
    }
    return 'rgb(255, 255, 255)'; };
  const bad = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement; if (!n.textContent.trim() || !el.offsetParent) continue;
    const a = lum(getComputedStyle(el).color), b = lum(bg(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) bad.push(n.textContent.trim().slice(0, 20) + ' ' + ratio.toFixed(2));
  }
  return bad;
}"""


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_readable_at_desktop_and_phone_width_with_aa_contrast(width: int, height: int, records: dict[str, Path],
                                                              server: Any, stored: Any, page_for: Any) -> None:
    _, served = server
    match_id, tokens = stored(records["worlfard"])
    page, _ = page_for(served.url, width=width, height=height)
    open_match(page, served.url, match_id, tokens["judge"], seq=412)
    page.keyboard.press("w")
    page.wait_for_selector("#why li")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
    assert page.evaluate(CONTRAST) == []
    page.locator("#board .card[data-card]").last.focus()   # the card tip too, inside the phone's width
    page.wait_for_selector("#tip:not([hidden])")
    tip = page.locator("#tip").bounding_box()
    assert tip is not None and tip["x"] >= 0 and tip["x"] + tip["width"] <= width
    assert page.evaluate(CONTRAST) == []
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")   # down the page:
    assert width > 800 or page.evaluate("window.scrollY") > 1000                  # the step buttons stay in reach
    box = page.locator("button[data-go='next']").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height
    page.locator("button[data-go='next']").click()
    at(page, 413)
    page.keyboard.press("?")             # the keys' help, and the token form, read as well
    assert page.locator("#help").is_visible() and page.evaluate(CONTRAST) == []
    login, _ = page_for(served.url, width=width, height=height)
    login.goto(f"{served.url}/matches/{match_id}/viewer")
    login.fill("#token", "not-a-token")
    login.press("#token", "Enter")
    login.wait_for_selector("#login-error:not(:empty)")
    assert login.evaluate(CONTRAST) == [] and login.evaluate("document.documentElement.scrollWidth") <= width
