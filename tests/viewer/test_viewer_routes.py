"""The viewer's routes and pictures without a browser: who may see which view, what a frame holds,
the page's headers, ``kifu replay --svg/--png`` and ``kifu export --html``."""
from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from litestar.testing import TestClient

from kifu.cli.main import cli
from kifu.domain.core.match import Match
from kifu.projections.picture import svg
from kifu.projections.recordfile import read_record
from kifu.projections.viewdata import ViewSource
from kifu.service import create_app
from kifu.service.viewer import CSP_FILE, page

from .helpers import ROOT

RECORD = sorted((ROOT / "replays" / "worlfard").glob("bot-*.kifu.jsonl"))[0]


def served(client: TestClient[Any]) -> tuple[str, dict[str, str]]:
    record = read_record(RECORD)
    app = client.app
    tokens = app.state.service.tokens.issue(record.header.match_id)
    app.state.store.create(Match.fold(record.ruleset, record.header, record.envelopes))
    return record.header.match_id, tokens


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_seat_token_gets_its_own_view_only_and_the_judge_any() -> None:
    with TestClient(create_app("memory", environ={"KIFU_TEST_RULESETS": "1"})) as client:
        match_id, tokens = served(client)
        mine = client.get(f"/matches/{match_id}/viewer/frame?seq=40", headers=bearer(tokens["seat1"]))
        assert mine.status_code == 200 and mine.json()["layout"]["viewer"] == 1
        other = client.get(f"/matches/{match_id}/viewer/frame?seq=40&as=2", headers=bearer(tokens["seat1"]))
        assert other.status_code == 403 and "seat 1's view only" in other.json()["message"]
        judge = client.get(f"/matches/{match_id}/viewer/frame?seq=40&as=judge", headers=bearer(tokens["seat1"]))
        assert judge.status_code == 403
        for view, expected in (("judge", None), ("1", 1), ("2", 2)):
            body = client.get(f"/matches/{match_id}/viewer/frame?seq=40&as={view}",
                              headers=bearer(tokens["judge"])).json()
            assert body["layout"].get("viewer") == expected
        data = client.get(f"/matches/{match_id}/viewer/data", headers=bearer(tokens["judge"])).json()
        assert data["may"] == ["judge", 1, 2] and data["meta"]["ruleset"] == "worlfard"
        assert len(data["events"]) == data["last_seq"] == len(read_record(RECORD).envelopes)
        assert client.get(f"/matches/{match_id}/viewer/data").status_code == 401
        data = client.get(f"/matches/{match_id}/viewer/data?after=5", headers=bearer(tokens["seat2"])).json()
        assert data["events"][0]["seq"] == 6


def test_the_page_is_served_whole_and_may_reach_only_its_own_origin() -> None:
    with TestClient(create_app("memory", environ={"KIFU_TEST_RULESETS": "1"})) as client:
        match_id, _ = served(client)
        response = client.get(f"/matches/{match_id}/viewer")
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
        csp = response.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "connect-src 'self'" in csp
        assert not re.search(r'(src|href)="(https?:)?//', response.text), "the page loads nothing from another host"


def test_the_page_of_a_match_the_store_does_not_hold_is_404() -> None:
    with TestClient(create_app("memory", environ={"KIFU_TEST_RULESETS": "1"})) as client:
        served(client)
        unknown = client.get("/matches/00000000-0000-0000-0000-000000000001/viewer")
        assert unknown.status_code == 404 and "00000000-0000-0000-0000-000000000001" in unknown.json()["message"]


def test_a_seat_frame_never_names_a_card_the_judge_alone_sees() -> None:
    record = read_record(RECORD)
    judge = ViewSource(record.ruleset, record.header, record.envelopes, None)
    seat = ViewSource(record.ruleset, record.header, record.envelopes, 1, timeline=judge.timeline, turns=judge.turns)
    seq = 60
    judge_ids = set(re.findall(r'"id": (\d+)', json.dumps(judge.frame(seq)["layout"])))
    seat_ids = set(re.findall(r'"id": (\d+)', json.dumps(seat.frame(seq)["layout"])))
    assert seat_ids < judge_ids          # fewer: seat 2's hand and both decks' orders are face down
    why = seat.frame(seq)["why"]
    assert why and why[0]["seq"] == seq and all(link["at"] == link["seq"] - 1 for link in why)


def test_replay_draws_the_board_at_a_seq_as_svg_and_png(tmp_path: Path) -> None:
    record = read_record(RECORD)
    out_svg, out_png = tmp_path / "b.svg", tmp_path / "b.png"
    result = CliRunner().invoke(cli, ["replay", str(RECORD), "--at", "412", "--svg", str(out_svg),
                                      "--png", str(out_png)])
    assert result.exit_code == 0, result.output
    text = out_svg.read_text()
    layout = ViewSource(record.ruleset, record.header, record.envelopes, None).layout(412)
    on_board = [face.name for panel in layout.seats for part in panel.parts
                for cell in getattr(part, "cells", ()) for face in cell.cards if face.name]
    assert text.startswith("<svg") and on_board and all(name[:3] in text for name in on_board)   # long names are cut
    assert f"#412 {record.envelopes[411].kind}" in text
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out_png.stat().st_size > 20_000
    bad = CliRunner().invoke(cli, ["replay", str(RECORD), "--svg", str(out_svg)])
    assert bad.exit_code != 0 and "needs --at" in bad.output


def test_svg_of_an_empty_layout_is_still_a_picture() -> None:
    from kifu.domain.core.layout import Layout

    assert svg(Layout(ruleset="x")).startswith("<svg")


def inlined(html: str) -> dict[str, dict[str, Any]]:
    """The views an exported page inlines, unpacked (base64 of gzipped JSON, one per view)."""
    packs = json.loads(re.search(r'<script type="application/json" id="kifu-bundle">(.*?)</script>', html, re.S)
                       .group(1))
    unpack = lambda v: json.loads(gzip.decompress(base64.b64decode(v)))  # noqa: E731
    shared = unpack(packs["meta"])      # each view keeps the meta that differs from the first's
    return {k: {**b, "meta": {**shared, **b["meta"]}} for k, b in ((k, unpack(v)) for k, v in packs["views"])}


def test_the_exported_page_inlines_the_record_and_forbids_every_request(tmp_path: Path) -> None:
    out = tmp_path / "m.html"
    result = CliRunner().invoke(cli, ["--db", "memory", "export", str(RECORD), "--html", str(out), "--seat", "2"])
    assert result.exit_code == 0, result.output
    html = out.read_text()
    assert CSP_FILE in html and "seat 2" in result.output
    views = inlined(html)
    assert list(views) == ["2"], "a seat's page holds its own view only"
    bundle = views["2"]
    assert bundle["meta"]["viewer"] == 2 and len(bundle["frames"]) == len(read_record(RECORD).envelopes) + 1
    judge = tmp_path / "j.html"
    assert CliRunner().invoke(cli, ["--db", "memory", "export", str(RECORD), "--html", str(judge)]).exit_code == 0
    views = inlined(judge.read_text())
    assert list(views) == ["judge", "1", "2"] and [v["meta"]["viewer"] for v in views.values()] == [None, 1, 2]
    assert views["2"]["events"] == bundle["events"], "the judge's page holds each seat's view as that seat saw it"
    bundle = page({"x": {"meta": {"y": "</script><b>"}}}).split('id="kifu-bundle">')[1]
    assert "</script>" not in bundle.split("</script>")[0]


def test_kifu_viewer_issues_an_imported_matchs_tokens_once_and_they_open_its_views(tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "import", str(RECORD)]).exit_code == 0
    match_id = read_record(RECORD).header.match_id
    result = runner.invoke(cli, ["--db", db, "viewer", match_id, "--at", "9"])
    assert result.exit_code == 0, result.output
    links = dict(re.findall(r"^(judge |seat \d): (\S+)$", result.output, re.M))
    assert all(f"/matches/{match_id}/viewer#seq=9&token=" in link for link in links.values()) and len(links) == 3
    again = runner.invoke(cli, ["--db", db, "viewer", match_id])
    assert again.exit_code == 1 and "already has tokens" in again.output
    unknown = runner.invoke(cli, ["--db", db, "viewer", "no-such-match"])
    assert unknown.exit_code == 2 and "no-such-match" in unknown.output      # an unknown id is bad input
    with TestClient(create_app(db, environ={"KIFU_TEST_RULESETS": "1"})) as client:
        token = links["seat 2"].rsplit("token=", 1)[1]
        frame = client.get(f"/matches/{match_id}/viewer/frame?seq=9", headers=bearer(token))
        assert frame.status_code == 200 and frame.json()["layout"]["viewer"] == 2


def test_kifu_viewer_takes_an_id_prefix_and_reissues_lost_links_the_old_ones_stop_working(tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", db, "import", str(RECORD)]).exit_code == 0
    match_id = read_record(RECORD).header.match_id
    first = runner.invoke(cli, ["--db", db, "viewer", match_id[:8]])        # a prefix, as everywhere
    assert first.exit_code == 0, first.output
    old = dict(re.findall(r"^(judge |seat \d): \S+token=(\S+)$", first.output, re.M))
    assert len(old) == 3 and f"/matches/{match_id}/viewer" in first.output
    refused = runner.invoke(cli, ["--db", db, "viewer", match_id[:8]])
    assert refused.exit_code == 1 and "--reissue" in refused.output
    again = runner.invoke(cli, ["--db", db, "viewer", match_id[:8], "--reissue"])
    assert again.exit_code == 0, again.output
    assert "reissued the tokens" in again.output and "1 time, last at 20" in again.output
    assert "old links no longer work" in again.output
    new = dict(re.findall(r"^(judge |seat \d): \S+token=(\S+)$", again.output, re.M))
    assert len(new) == 3 and not set(new.values()) & set(old.values())
    with TestClient(create_app(db, environ={"KIFU_TEST_RULESETS": "1"})) as client:
        url = f"/matches/{match_id}/viewer/frame?seq=9"
        assert client.get(url, headers=bearer(old["judge "])).status_code == 401
        assert client.get(url, headers=bearer(new["judge "])).status_code == 200
        assert client.get(url, headers=bearer(new["seat 1"])).json()["layout"]["viewer"] == 1
    third = runner.invoke(cli, ["--db", db, "viewer", match_id, "--reissue"])
    assert "2 times, last at" in third.output


def test_a_running_service_drops_reissued_tokens_within_seconds() -> None:
    from kifu.service import tokens as tokens_module

    store = tokens_module.TokenStore(tokens_module.MemoryTokens())
    old = store.issue("m")
    assert store.role_of("m", old["judge"]) == "judge"
    other = tokens_module.TokenStore(store._backend)        # another process on the same table
    new = other.reissue("m", "2026-01-01T00:00:00Z")
    assert other.role_of("m", old["judge"]) is None and other.role_of("m", new["seat2"]) == "seat2"
    store._known["m"] = (store._known["m"][0] - tokens_module.KNOWN_FOR, store._known["m"][1])   # time passes
    assert store.role_of("m", old["judge"]) is None and store.role_of("m", new["judge"]) == "judge"
    assert store.role_of("m", "1 time, last at 2026-01-01T00:00:00Z") is None     # the note grants nothing


def test_a_seat_never_gets_the_other_seats_sealed_choice_before_its_reveal(tmp_path: Path) -> None:
    from .conftest import recorded

    record = read_record(recorded("secretbid", tmp_path))
    sealed = [e for e in record.envelopes if type(e.event).__name__ == "ChoiceSealed"]
    assert sealed and all(e.event.choice is not None for e in sealed)       # the judge's record has them
    for seat in (1, 2):
        source = ViewSource(record.ruleset, record.header, record.envelopes, seat)
        events = {e["seq"]: e for e in source.events()}
        for env in sealed:
            fields = dict((k, v) for k, v, _ in events[env.seq]["fields"])
            if env.event.seat == seat:
                assert fields.get("choice") is not None
            else:
                assert fields.get("choice") in (None, "?") and fields.get("salt") is None and fields["commitment"]
            frame = json.dumps(source.frame(env.seq))
            salt = env.event.salt or Match.fold(record.ruleset, record.header, record.envelopes[:1]).salt(
                env.seq, env.event.seat)        # format 2 writes no salt before the reveal: the one it would derive
            assert salt not in frame or env.event.seat == seat


def test_card_text_gets_an_english_gloss_from_the_clauses_that_name_its_terms() -> None:
    from kifu.domain.core.ruleset import find_ruleset
    from kifu.projections.viewdata import glossary

    rules = find_ruleset("worlfard")
    gloss = glossary(rules.content.catalogue().rows, rules.content.clauses())
    wolf = {g["term"]: g for g in gloss["強襲の狼"]}             # text: ・『強襲:1』
    assert wolf["強襲:1"]["clause"] == "W-Q4" and "adding STR when attacking" in wolf["強襲:1"]["text"]
    assert all(g["text"] and g["title"] for notes in gloss.values() for g in notes)


def test_every_card_of_every_ruleset_reaches_the_page_with_its_english_name_and_gloss(
        records: dict[str, Path], glossed: None) -> None:
    from .conftest import RULESETS

    for name in RULESETS:
        record = read_record(records[name])
        rows = ViewSource(record.ruleset, record.header, record.envelopes[:5], 1).meta()["catalogue"]["rows"]
        assert len(rows) == len(record.ruleset.content.catalogue().rows) > 0, name
        for row in rows:
            if (row["name"] + row.get("text", "")).isascii():    # the secretbid plugin's: English already
                continue
            assert row["name_en"] == f"EN {row['name']}" and row["gloss"] == f"An English gloss of {row['name']}.", row
