"""The ruling dossier in real Chromium, opened from file://: it makes no request but its own
file, runs no script, and shows the verification, the boards, both why chains, the clauses in
English and the seed's Japanese, the notes near the event and a variation with its diff."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.projections.recordfile import read_record


def kifu(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), env={"KIFU_AUTHOR": "head judge"})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_dossier_opens_offline_and_holds_the_ruling(page_for: Any, tmp_path: Path) -> None:
    record = tmp_path / "m.kifu.jsonl"
    kifu("--db", "memory", "play", "masters", "--seed", "3", "-q", "--out", str(record))
    read = read_record(record)
    seq = next(e.seq for e in read.envelopes[40:] if e.kind == "rule" and e.cause and e.clause)
    at = next(e.seq for e in read.envelopes[seq - 6:] if e.digest is not None and e.seq < seq)
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
