"""The viewer's figures in Chromium on a recorded match of 2,000+ events: ``.venv/bin/python -m
tests.viewer.figures [--steps 100] [--loads 3] [--compare OLD.html]``. Prints the page weight (served and exported),
the time to the first board and the latency of a step (key press to the board drawn: median, p95)
and of an uncached jump. A measurement, not a test: it asserts nothing about time."""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner
from playwright.sync_api import sync_playwright

from kifu.cli.main import cli
from kifu.projections.recordfile import read_record
from kifu.service import create_app
from kifu.service.server import BackgroundServer

from .conftest import CHROMIUM, open_page
from .helpers import ROOT, store_record

STEP_JS = """async ([key, n]) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const before = document.body.dataset.seq;
    const t = performance.now();
    document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    await new Promise((resolve) => {
      const check = () => document.body.dataset.seq !== before ? resolve() : setTimeout(check, 0);
      check();
    });
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    times.push(performance.now() - t);
  }
  return times;
}"""

JUMP_JS = """async (targets) => {
  const times = [];
  for (const s of targets) {
    const t = performance.now();
    await window.kifuViewer.go(s);
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    times.push(performance.now() - t);
  }
  return times;
}"""


def long_record() -> Path:
    return next(p for p in sorted((ROOT / "replays" / "worlfard").glob("bot-*.kifu.jsonl"))
                if len(read_record(p).envelopes) >= 2000)


def p95(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, round(len(values) * 0.95))]


def measure(browser: Any, urls: list[str], allowed: str, steps: int, loads: int) -> list[dict[str, Any]]:
    """Per URL: the first board over ``loads`` fresh loads (median), then ``steps`` steps and 20
    jumps on its last load; the URLs' loads and steps interleaved, so a busy moment costs each alike."""
    firsts: list[list[float]] = [[] for _ in urls]
    last: list[Any] = [None for _ in urls]
    for round_ in range(loads):
        for i, url in enumerate(urls):
            context, page, traffic = open_page(browser, allowed)
            page.goto(url)
            page.wait_for_selector("body[data-seq='0']", timeout=60_000)
            firsts[i].append(page.evaluate("window.kifuFirstBoard"))
            if round_ < loads - 1:
                context.close()
            else:
                last[i] = (context, page, traffic, len(traffic.requests))
    stepped: list[list[float]] = [[] for _ in urls]
    for _ in range(0, steps, 10):             # the steps interleaved too, ten at a time
        for i, (_, page, _, _) in enumerate(last):
            stepped[i] += page.evaluate(STEP_JS, ["ArrowRight", 10])
    out = []
    for i, (context, page, traffic, requests) in enumerate(last):
        step = stepped[i]
        events = int(page.evaluate("window.kifuViewer.ui.src.events.length"))
        jumps = page.evaluate(JUMP_JS, [(k * 7919) % events for k in range(1, 21)])
        outside = [u for u in traffic.requests if not u.startswith(allowed)]
        context.close()
        out.append({"first": statistics.median(firsts[i]), "firsts": firsts[i], "step": statistics.median(step),
                    "p95": p95(step), "jump": statistics.median(jumps), "events": events, "requests": requests,
                    "outside": outside})
    return out


def exported_line(name: str, size: int, m: dict[str, Any], loads: int, steps: int) -> str:
    return (f"  {name}: {size} bytes; first board {m['first']:.0f} ms "
            f"(median of {loads} loads: {', '.join(f'{t:.0f}' for t in m['firsts'])}); "
            f"step median {m['step']:.1f} ms, p95 {m['p95']:.1f} ms over {steps} steps; jump median {m['jump']:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--compare", nargs="*", default=[], metavar="PAGE.html",
                        help="other exported pages of the same match (an older kifu's) measured alongside")
    args = parser.parse_args()
    record = long_record()
    out = Path(tempfile.mkdtemp()) / "long.html"
    seat_out = out.with_name("long-seat1.html")
    cpu = time.process_time()
    for path, extra in ((out, []), (seat_out, ["--seat", "1"])):
        result = CliRunner().invoke(cli, ["--db", "memory", "export", str(record), "--html", str(path), *extra])
        assert result.exit_code == 0, result.output
    export_cpu = time.process_time() - cpu
    app = create_app("memory", environ={})
    with BackgroundServer(app, grace=0.2) as served, sync_playwright() as p:
        match_id, tokens = store_record(app, record)
        weight = {}
        for path, token in (("viewer", None), ("viewer/data?after=0", tokens["judge"]),
                            ("viewer/frame?seq=1200", tokens["judge"])):
            headers = {"Accept-Encoding": "gzip", **({"Authorization": f"Bearer {token}"} if token else {})}
            got = httpx.get(f"{served.url}/matches/{match_id}/{path}", headers=headers, timeout=60)
            weight[path.split("?")[0].rsplit("/", 1)[-1]] = (int(got.headers.get("content-length", len(got.content))),
                                                             len(got.content))
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        (live,) = measure(browser, [f"{served.url}/matches/{match_id}/viewer#seq=0&token={tokens['judge']}"],
                          served.url, args.steps, args.loads)
        pages = [out, *args.compare]
        offline = measure(browser, [Path(p).resolve().as_uri() + "#seq=0" for p in pages], "file://",
                          args.steps, args.loads)
        browser.close()
    print(f"viewer figures on {record.name} ({live['events']} events), {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}")
    for name, (sent, whole) in weight.items():
        print(f"  served {name}: {sent} bytes sent (gzip), {whole} bytes of content")
    print(f"  served: {live['requests']} requests to the first board; first board {live['first']:.0f} ms "
          f"(median of {args.loads} loads: {', '.join(f'{t:.0f}' for t in live['firsts'])}); "
          f"step median {live['step']:.1f} ms, p95 {live['p95']:.1f} ms over {args.steps} steps; "
          f"uncached jump median {live['jump']:.1f} ms")
    print(f"  exported pages written in {export_cpu:.1f} CPU-s (judge with both seats' views, and seat 1 alone: "
          f"{seat_out.stat().st_size} bytes)")
    for path, m in zip(pages, offline, strict=True):
        name = "exported (judge, both seats' views)" if path == out else f"compared {path}"
        print(exported_line(name, Path(path).stat().st_size, m, args.loads, args.steps))
    print(f"  requests to another host: {len(live['outside']) + sum(len(m['outside']) for m in offline)}")

if __name__ == "__main__":
    main()
