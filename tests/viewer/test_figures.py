"""The figures the viewer is held to, measured in Chromium on a recorded match of 2,000+ events:
the page's weight, the time to the first board, and the latency of a step (key press to the
board drawn). Printed with ``-s``; the bounds are loose (CI machines are shared and slow)."""
from __future__ import annotations

import os
import statistics
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner

from cli.main import cli
from projections.recordfile import read_record

from .helpers import ROOT

STEPS = 40

LONG = next(p for p in sorted((ROOT / "replays" / "worlfard").glob("bot-*.kifu.jsonl"))
            if len(read_record(p).envelopes) >= 2000)

STEP_JS = """async ([key, n]) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const before = document.body.dataset.seq;
    const t = performance.now();
    document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    await new Promise((resolve) => { const check = () => document.body.dataset.seq !== before ? resolve() : setTimeout(check, 0); check(); });
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


def measure(page: Any, url: str) -> dict[str, float]:
    page.goto(url)
    page.wait_for_selector("body[data-seq='0']", timeout=30_000)
    first = page.evaluate("window.kifuFirstBoard")
    steps = page.evaluate(STEP_JS, ["ArrowRight", STEPS])
    last = int(page.evaluate("window.kifuViewer.ui.src.events.length"))
    jumps = page.evaluate(JUMP_JS, [(i * 7919) % last for i in range(1, 21)])
    return {"first_board_ms": first, "step_median_ms": statistics.median(steps), "step_p90_ms": sorted(steps)[int(len(steps) * 0.9)],
            "jump_median_ms": statistics.median(jumps), "events": last}


def test_page_weight_first_board_and_step_latency_on_a_2000_event_match(server: Any, stored: Any, page_for: Any,
                                                                         tmp_path: Path) -> None:
    _, served = server
    match_id, tokens = stored(LONG)
    page, traffic = page_for(served.url)
    live = measure(page, f"{served.url}/matches/{match_id}/viewer#seq=0&token={tokens['judge']}")
    weight = {}
    for path, token in (("viewer", None), ("viewer/data?after=0", tokens["judge"]), ("viewer/frame?seq=1200", tokens["judge"])):
        headers = {"Accept-Encoding": "gzip", **({"Authorization": f"Bearer {token}"} if token else {})}
        got = httpx.get(f"{served.url}/matches/{match_id}/{path}", headers=headers)
        assert got.status_code == 200 and got.headers.get("content-encoding") == "gzip"
        weight[path.split("?")[0].rsplit("/", 1)[-1]] = (int(got.headers["content-length"]), len(got.content))
    out = tmp_path / "long.html"
    assert CliRunner().invoke(cli, ["--db", "memory", "export", str(LONG), "--html", str(out)]).exit_code == 0
    offline_page, _ = page_for("file://")
    offline = measure(offline_page, out.as_uri() + "#seq=0")
    load = os.getloadavg()[0]
    print(f"\nviewer figures on {LONG.name} ({live['events']} events), load average {load:.2f}:"
          + "".join(f"\n  served {k}: {sent} bytes sent (gzip), {whole} bytes of content" for k, (sent, whole) in weight.items()) +
          f"\n  requests the page made until its first board and {STEPS} steps: {len(traffic.requests)}"
          f"\n  served: first board {live['first_board_ms']:.0f} ms, step median {live['step_median_ms']:.1f} ms "
          f"(p90 {live['step_p90_ms']:.1f}), uncached jump median {live['jump_median_ms']:.1f} ms"
          f"\n  exported page {out.stat().st_size} bytes: first board {offline['first_board_ms']:.0f} ms, "
          f"step median {offline['step_median_ms']:.1f} ms (p90 {offline['step_p90_ms']:.1f}), "
          f"jump median {offline['jump_median_ms']:.1f} ms")
    assert live["first_board_ms"] < 15_000 and offline["first_board_ms"] < 15_000
    assert live["step_median_ms"] < 500 and offline["step_median_ms"] < 500
