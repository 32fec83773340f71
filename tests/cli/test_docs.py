"""The documentation holds together: a short README, every relative link of README.md and docs/
leading to a file that exists, every page in the site's navigation, and the site building with
``mkdocs build --strict`` (which also checks the anchors) where the docs extra is installed
(``make docs`` installs it and runs the same build)."""
from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")           # [text](target), images included
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def links(page: Path) -> list[str]:
    """The relative targets a page links to, code blocks left out (their brackets are not links)."""
    text = FENCE.sub("", page.read_text("utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def test_the_readme_stays_short() -> None:
    lines = (ROOT / "README.md").read_text("utf-8").count("\n")
    assert lines <= 300, f"README.md has {lines} lines: move the detail to a page under docs/"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    missing = [t for t in links(page) if not (page.parent / t.split("#")[0]).exists()]
    assert not missing, f"{page.relative_to(ROOT)} links to files that do not exist: {missing}"


def test_every_page_is_in_the_site_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    listed = set(re.findall(r":\s*([\w/.-]+\.md)\s*$", nav, re.M))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert pages == listed, f"not in mkdocs.yml's nav: {pages - listed}; in nav, no such page: {listed - pages}"


def test_the_readme_links_every_page() -> None:
    linked = {(ROOT / t.split("#")[0]).resolve() for t in links(ROOT / "README.md")}
    unlinked = [p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md")
                if p.resolve() not in linked and p.name != "index.md"]
    assert not unlinked, f"README.md's documentation list misses {unlinked}"


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason="the docs extra is not installed (make docs installs it and builds the site)")
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "site" / "index.html").read_text("utf-8")
    assert not re.search(r"(src|href)=\"https?://fonts\.", page), "the site asks a font server"


def test_the_corpus_page_counts_what_replays_holds() -> None:
    """docs/regression.md's table of the corpus (bot matches, scenarios, probes per ruleset, and
    the total) is what replays/ holds: a re-recorded or added scenario updates the page."""
    text = (DOCS / "regression.md").read_text("utf-8")
    replays = ROOT / "replays"
    for ruleset in sorted(p.name for p in replays.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        records = sorted(p.name for p in (replays / ruleset).glob("*.kifu.jsonl"))
        bots = sum(name.startswith("bot-") for name in records)
        probes = len(list((replays / ruleset).glob("*.probes.json")))
        row = f"| `{ruleset}` | {bots} | {len(records) - bots} | {probes} |"
        assert row in text, f"docs/regression.md should show {row}"
    total = len(list(replays.glob("*/*.kifu.jsonl")))
    assert f"({total} records in all;" in text, f"docs/regression.md should count {total} records in all"
