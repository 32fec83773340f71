"""The ruling dossier in real Chromium, opened from file://: it makes no request but its own
file, runs no script, and shows the verification, the boards, both why chains, the clauses in
English and the seed's Japanese, the notes near the event and a variation with its diff."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.domain.core.envelope import at_rest
from kifu.projections.recordfile import read_record

from .test_browser import until


def kifu(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), env={"KIFU_AUTHOR": "head judge"})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_dossier_opens_offline_and_holds_the_ruling(page_for: Any, tmp_path: Path) -> None:
    record = tmp_path / "m.kifu.jsonl"
    kifu("--db", "memory", "play", "masters", "--seed", "3", "-q", "--out", str(record))
    read = read_record(record)
    seq = next(e.seq for e in read.envelopes[40:] if e.kind == "rule" and e.cause and e.clause)
    at = next(e.seq for e in read.envelopes[seq - 6:] if at_rest(read.envelopes, e.seq) and e.seq < seq)
    fork = tmp_path / "fork.kifu.jsonl"
    kifu("--db", str(tmp_path / "k.db"), "fork", str(record), "--at", str(at), "-q", "--out", str(fork))
    kifu("annotate", str(record), str(seq), "priority passed too early?", "--glyph", "?!", "--arrow", "a1-c3")
    out = tmp_path / "ruling.html"
    kifu("dossier", str(record), str(seq), "--out", str(out))

    page, traffic = page_for("file://")
    page.goto(out.as_uri())
    page.wait_for_selector("#variations")
    assert traffic.requests == [out.as_uri()]           # nothing but the page itself
    assert traffic.blocked == [] and page.errors == []
    assert page.evaluate("document.scripts.length") == 0
    text = page.inner_text("body")
    assert f"event #{seq}" in text
    assert "hash chain\tok" in text or "hash chain ok" in text.replace("\t", " ")
    assert page.locator(".boards svg").count() == 2
    why = json.loads(kifu("why", str(record), str(seq), "--json"))
    chain = page.inner_text("#why + ol")
    for link in why["chain"]:
        assert f"#{link['seq']}" in chain
    clause = why["chain"][0]["clause"]
    assert clause in page.inner_text("body")
    assert page.locator(".ja").count() >= 1                # the seed's original text
    assert any("\u3000" <= ch <= "\u9fff" for ch in page.inner_text(".ja >> nth=0"))
    assert "?! head judge: priority passed too early? → a1-c3" in text
    fork_id = read_record(fork).header.match_id
    assert f"match {fork_id}, after #{at}" in text
    assert "B was forked from A" in text or "forked from" in text


def test_the_exported_viewer_shows_each_views_notes_at_their_event(page_for: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "v.db")
    kifu("--db", db, "play", "novel", "--seed", "1", "-q")
    match_id = json.loads(kifu("--db", db, "matches", "--json"))[0]["match_id"]
    kifu("--db", db, "annotate", match_id, "4", "judge only: both hands seen", "--glyph", "!?")
    kifu("--db", db, "annotate", match_id, "4", "for everyone", "--public")
    out = tmp_path / "v.html"
    kifu("--db", db, "export", match_id, "--html", str(out))
    page, traffic = page_for("file://")
    page.goto(out.as_uri() + "#seq=4")
    page.wait_for_selector("body[data-seq='4']", timeout=20_000)
    page.wait_for_selector("#notes:not([hidden])", timeout=20_000)
    notes = page.inner_text("#notes")
    assert "!? head judge: judge only: both hands seen" in notes and "for everyone" in notes
    page.select_option("#as", "1")
    until(page, "document.querySelector('#title').textContent.includes(\"seat 1's view\")")
    page.wait_for_selector("body[data-seq='4']", timeout=20_000)
    until(page, "!document.querySelector('#notes').innerText.includes('judge only')")
    assert "for everyone" in page.inner_text("#notes")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-seq='5']", timeout=20_000)
    assert page.locator("#notes").is_hidden()
    assert traffic.blocked == [] and page.errors == []


def test_the_served_viewer_data_carries_the_notes_the_token_may_see(tmp_path: Path) -> None:
    from litestar.testing import TestClient

    from kifu.service import create_app

    with TestClient(create_app("memory", environ={})) as client:
        created = client.post("/matches", json={"players": ["ann", "bob"]}).json()
        mid, tokens = created["match_id"], created["tokens"]

        def auth(role: str) -> dict[str, str]:
            return {"Authorization": f"Bearer {tokens[role]}"}

        assert client.post(f"/matches/{mid}/notes", json={"seq": 1, "text": "seat 1's plan"},
                           headers=auth("seat1")).status_code == 201
        assert client.post(f"/matches/{mid}/notes", json={"seq": 0, "text": "judge's"},
                           headers=auth("judge")).status_code == 201
        seen = {role: [n["line"] for n in client.get(f"/matches/{mid}/viewer/data", headers=auth(role)).json()
                       ["meta"]["notes"]] for role in ("judge", "seat1", "seat2")}
    assert seen == {"judge": ["#1 ann (seat1): seat 1's plan", "match judge (judge): judge's"],
                    "seat1": ["#1 ann (seat1): seat 1's plan"], "seat2": []}
