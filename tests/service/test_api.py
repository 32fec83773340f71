"""The HTTP surface: create, view, decide, events, record, list; tokens; every error a 4xx Problem."""
from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from httpplay import Player, awaited, bearer, create, seat_token, store_finished
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from kifu.domain.core.record import decode_record
from kifu.projections.audit import audit


def test_create_returns_an_id_and_three_distinct_tokens(api: TestClient) -> None:
    created = create(api)
    tokens = created["tokens"]
    assert set(tokens) == {"seat1", "seat2", "judge"} and len(set(tokens.values())) == 3
    assert all(len(t) >= 40 for t in tokens.values())
    assert created["players"] == ["ann", "bob"] and created["ruleset"] == "worlfard"
    assert created["seq"] > 0 and awaited(created) in (1, 2)
    assert "seed" not in created  # the seed fixes every shuffle: never shown to a seat


def test_decks_by_preset_name_or_deck_list(api: TestClient) -> None:
    presets = next(r["presets"] for r in api.get("/rulesets").json()["rulesets"] if r["name"] == "worlfard")
    assert "flame-gale" in presets
    by_name = create(api, decks=["tide-stone", "four-winds"])
    record = api.get(f"/matches/{by_name['match_id']}/record", headers=bearer(by_name["tokens"]["judge"])).text
    header = json.loads(record.splitlines()[0])
    assert [d["name"] for d in header["decks"]] == ["tide-stone", "four-winds"]
    as_list = create(api, decks=[header["decks"][0], "flame-gale"])   # a full deck list, as the record holds it
    assert as_list["match_id"]


@pytest.mark.parametrize("decks, status, clause", [
    (["/etc/passwd", "flame-gale"], 400, None),        # only preset names: the service reads no files
    ([{"name": "tiny", "hearts": [], "cards": []}, "flame-gale"], 422, "W-4.1"),
    ([{"name": "x", "hearts": [], "cards": [], "extra": 1}, "flame-gale"], 400, None),
    (["flame-gale"], 400, None),
])
def test_bad_decks_are_refused_with_a_message(api: TestClient, decks: Any, status: int, clause: str | None) -> None:
    response = api.post("/matches", json={"decks": decks})
    assert response.status_code == status, response.text
    assert response.json()["message"] and response.json().get("clause") == clause


def test_a_seat_sees_its_hand_not_the_opponents_and_its_legal_decisions(api: TestClient) -> None:
    created = create(api)
    player = Player(api, created)
    player.play(3)  # order chosen, hands drawn
    for seat in (1, 2):
        view = player.view(seat)
        assert view["seat"] == seat
        mine, theirs = view["view"]["sides"][seat - 1], view["view"]["sides"][2 - seat]
        assert mine["hand"] is not None and len(mine["hand"]) == mine["hand_count"] > 0
        assert theirs["hand"] is None and theirs["hand_count"] > 0
        assert all(side["deck"] is None for side in view["view"]["sides"])
        assert (view["legal"] != []) == (seat in view["awaiting"])
    judge = player.view(None)
    assert judge["seat"] is None and all(side["deck"] is not None for side in judge["view"]["sides"])


def test_a_decision_returns_its_events_redacted_for_the_seat(api: TestClient) -> None:
    created = create(api, seed=3)
    player = Player(api, created)
    view = player.view(awaited(created))
    choose_order = next(c for c in view["legal"] if c["type"] == "ChooseOrder")
    seat = awaited(created)
    response = api.post(f"/matches/{created['match_id']}/decisions", headers=bearer(seat_token(created, seat)),
                        json={"seq": view["seq"], "command": choose_order})
    assert response.status_code == 200, response.text
    result = response.json()
    assert [e["seq"] for e in result["events"]] == list(range(view["seq"] + 1, result["seq"] + 1))
    drawn = {e["event"]["seat"]: e["event"]["cards"] for e in result["events"] if e["event"]["type"] == "CardsDrawn"}
    assert all(c != 0 for c in drawn[seat]) and all(c == 0 for c in drawn[3 - seat])
    assert all("chain" not in e and "digest" not in e for e in result["events"])


def test_stale_seq_is_409_with_the_current_seq_and_stores_nothing(api: TestClient) -> None:
    created = create(api)
    player = Player(api, created)
    player.play(2)
    seat = awaited(player.view())
    view = player.view(seat)
    before = player.record()
    response = api.post(f"/matches/{created['match_id']}/decisions", headers=player.headers(seat),
                        json={"seq": view["seq"] - 1, "command": view["legal"][0]})
    assert response.status_code == 409
    assert response.json()["error"] == "conflict" and response.json()["seq"] == view["seq"]
    assert player.record() == before


def test_illegal_is_422_naming_the_clause_and_stores_nothing(api: TestClient) -> None:
    created = create(api)
    player = Player(api, created)
    seat = awaited(created)
    before = player.record()
    for who, command in ((seat, {"type": "Attack", "line": 1}), (3 - seat, {"type": "ChooseOrder", "go_first": True})):
        response = api.post(f"/matches/{created['match_id']}/decisions", headers=player.headers(who),
                            json={"seq": created["seq"], "command": command})
        assert response.status_code == 422, response.text
        assert response.json()["error"] == "illegal" and response.json()["clause"].startswith("W-")
    assert player.record() == before


def test_events_after_n_are_redacted_per_caller(api: TestClient) -> None:
    created = create(api)
    Player(api, created).play(4)
    mid = created["match_id"]
    seat1 = api.get(f"/matches/{mid}/events", params={"after": 0}, headers=bearer(seat_token(created, 1))).json()
    judge = api.get(f"/matches/{mid}/events", params={"after": 0}, headers=bearer(created["tokens"]["judge"])).json()
    assert [e["seq"] for e in seat1["events"]] == [e["seq"] for e in judge["events"]]
    assert seat1["events"] != judge["events"]
    assert all(e.get("chain") for e in judge["events"]) and not any(e.get("chain") for e in seat1["events"])
    later = api.get(f"/matches/{mid}/events", params={"after": 3, "limit": 2}, headers=bearer(seat_token(created, 2)))
    assert [e["seq"] for e in later.json()["events"]] == [4, 5] and later.json()["more"] is True


def test_the_record_is_for_the_judge_and_audits_clean(api: TestClient) -> None:
    created = create(api)
    player = Player(api, created)
    player.play(10)
    mid = created["match_id"]
    for seat in (1, 2):
        response = api.get(f"/matches/{mid}/record", headers=bearer(seat_token(created, seat)))
        assert response.status_code == 403 and response.json()["error"] == "forbidden"
    header, envelopes, rules = decode_record(player.record())
    assert header.match_id == mid and audit(rules, header, envelopes).clean


def test_list_shows_status_and_outcome(api: TestClient) -> None:
    over, tokens = store_finished(api.app)
    mid = over.header.match_id
    ongoing = create(api)
    listing = {m["match_id"]: m for m in api.get("/matches").json()["matches"]}
    assert listing[mid]["status"] == "over" and listing[mid]["outcome"]["winner"] == over.outcome.winner
    assert listing[ongoing["match_id"]]["status"] == "ongoing" and listing[ongoing["match_id"]]["outcome"] is None
    one = api.get(f"/matches/{mid}").json()
    assert one == listing[mid] and one["seq"] == over.seq and one["players"] == ["ann", "bob"]
    response = api.post(f"/matches/{mid}/decisions", headers=bearer(tokens["seat1"]),
                        json={"seq": one["seq"], "command": {"type": "Proceed", "to": "end"}})
    assert response.status_code == 409 and response.json()["error"] == "match_over"


# -- tokens ---------------------------------------------------------------------------------------
def test_missing_or_wrong_tokens_are_401_and_wrong_roles_403(api: TestClient) -> None:
    a, b = create(api), create(api)
    mid = a["match_id"]
    response = api.get(f"/matches/{mid}/view")
    assert response.status_code == 401 and response.headers["www-authenticate"].startswith("Bearer")
    for headers in (bearer("not-a-token"), bearer(seat_token(b, 1)), {"Authorization": seat_token(a, 1)},
                    {"Authorization": f"Basic {seat_token(a, 1)}"}):
        assert api.get(f"/matches/{mid}/view", headers=headers).status_code == 401
        assert api.get(f"/matches/{mid}/events", headers=headers).status_code == 401
    spaced = {"Authorization": f"bearer   {seat_token(a, 1)} "}
    assert api.get(f"/matches/{mid}/view", headers=spaced).status_code == 200
    judge = a["tokens"]["judge"]
    response = api.post(f"/matches/{mid}/decisions", headers=bearer(judge),
                        json={"seq": a["seq"], "command": {"type": "ChooseOrder", "go_first": True}})
    assert response.status_code == 403
    assert api.get("/matches/00000000-0000-0000-0000-000000000000/view", headers=bearer(judge)).status_code == 404


def test_a_seat_token_acts_only_for_its_seat(api: TestClient) -> None:
    created = create(api)
    waiting = 3 - awaited(created)
    response = api.post(f"/matches/{created['match_id']}/decisions", headers=bearer(seat_token(created, waiting)),
                        json={"seq": created["seq"], "command": {"type": "ChooseOrder", "go_first": True}})
    assert response.status_code == 422 and response.json()["clause"]


def test_tokens_are_stored_only_as_sha256_digests(make_app: Any, tmp_path: Any) -> None:
    import hashlib
    import sqlite3

    db = tmp_path / "t.db"
    with TestClient(make_app(str(db))) as client:
        created = create(client)
    rows = sqlite3.connect(db).execute("SELECT role, digest FROM kifu_tokens WHERE match_id = ?",
                                       (created["match_id"],)).fetchall()
    assert dict(rows) == {role: hashlib.sha256(token.encode()).hexdigest() for role, token in created["tokens"].items()}
    assert not any(token.encode() in db.read_bytes() for token in created["tokens"].values())


# -- untrusted input ------------------------------------------------------------------------------
BAD_DECISIONS = [
    (b"{not json", 400), (b"", 400), (b"[]", 400), (b'"x"', 400), (b"null", 400),
    (b'{"seq": "5", "command": {"type": "Proceed", "to": "end"}}', 400),        # wrong type, not coerced
    (b'{"seq": 5, "command": {"type": "Proceed", "to": "end"}, "x": 1}', 400),   # unknown field
    (b'{"seq": 5, "command": {"type": "Proceed", "to": "end", "x": 1}}', 400),   # unknown field in the command
    (b'{"seq": 5, "command": {"type": "Teleport"}}', 400),
    (b'{"seq": 5, "command": {"type": "Attack", "line": "1"}}', 400),
    (b'{"seq": -1, "command": {"type": "Proceed", "to": "end"}}', 400),
    (b'{"seq": 1e400, "command": {}}', 400),
    (b'{"seq": 123456789012345678901234567890, "command": {}}', 400),
    (b'{"command": {"type": "Proceed", "to": "end"}}', 400),
    (b'{"seq": 5, "command": {"type": "Attack", "line": 99999999999}}', 422),
    (b'{"seq": 5, "command": ' + b'[' * 5000 + b']' * 5000 + b'}', 400),
    (b'{"seq": 5, "command": {"type": "Proceed", "to": "' + b"x" * 70_000 + b'"}}', 413),
]


@pytest.mark.parametrize("body, status", BAD_DECISIONS)
def test_bad_decision_bodies_are_4xx_with_a_message_and_change_nothing(api: TestClient, body: bytes,
                                                                       status: int) -> None:
    created = create(api)
    mid = created["match_id"]
    response = api.post(f"/matches/{mid}/decisions", content=body,
                        headers={**bearer(seat_token(created, awaited(created))), "Content-Type": "application/json"})
    assert response.status_code == status, response.text
    assert response.json()["message"] and response.json()["error"]
    assert api.get(f"/matches/{mid}").json()["seq"] == created["seq"]


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                           | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
commands = st.fixed_dictionaries({"type": st.sampled_from(["Attack", "Summon", "Proceed", "Block", "Mulligan", "x"])},
                                 optional={"line": json_values, "card": json_values, "to": json_values,
                                           "redraw": json_values, "towers": json_values})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(body=st.one_of(json_values, st.fixed_dictionaries({"seq": json_values, "command": commands}),
                      st.fixed_dictionaries({"seq": st.integers(), "command": commands})))
def test_no_decision_body_makes_a_500(api: TestClient, body: Any) -> None:
    created = getattr(test_no_decision_body_makes_a_500, "created", None) or create(api)
    test_no_decision_body_makes_a_500.created = created  # type: ignore[attr-defined]
    response = api.post(f"/matches/{created['match_id']}/decisions", json=body,
                        headers=bearer(seat_token(created, awaited(created))))
    assert 400 <= response.status_code < 500 or response.status_code == 200, response.text
    assert response.json()


@pytest.mark.parametrize("body", [
    {"ruleset": "chess"}, {"seed": -1}, {"seed": 2**64}, {"seed": "7"}, {"players": ["a"]}, {"players": ["", "b"]},
    {"players": ["a" * 65, "b"]}, {"decks": "flame-gale"}, {"decks": [1, 2]}, {"colour": "red"},
])
def test_bad_create_bodies_are_4xx(api: TestClient, body: dict[str, Any]) -> None:
    response = api.post("/matches", json=body)
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["message"]


def test_unknown_routes_methods_and_queries_are_4xx(api: TestClient) -> None:
    created = create(api)
    mid, token = created["match_id"], bearer(seat_token(created, 1))
    assert api.get("/nowhere").status_code == 404
    assert api.delete("/matches").status_code == 405
    assert api.get(f"/matches/{mid}/events", params={"after": "x"}, headers=token).status_code == 400
    assert api.get(f"/matches/{mid}/events", params={"after": -1}, headers=token).status_code == 400
    assert api.get(f"/matches/{mid}/events", params={"limit": 0}, headers=token).status_code == 400
    assert api.get("/matches/not-a-uuid").status_code == 400    # a malformed id, not an unknown match
    assert api.get(f"/matches/{uuid.UUID(int=7)}").status_code == 404


def test_openapi_document_is_served(api: TestClient) -> None:
    doc = api.get("/schema/openapi.json").json()
    assert doc["info"]["title"] == "Kifu match service"
    assert {"/matches", "/matches/{match_id}/decisions", "/matches/{match_id}/stream"} <= set(doc["paths"])
    assert "token" in doc["components"]["securitySchemes"]
    assert {"Decision", "CreateMatch", "DecisionResult", "Problem"} <= set(doc["components"]["schemas"])
