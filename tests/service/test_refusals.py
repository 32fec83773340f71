"""No 5xx from any body, every refusal a problem, no page framed (issue 24)."""
from __future__ import annotations

import pytest
from litestar.testing import TestClient

from kifu.service import create_app

ID = "00000000-0000-0000-0000-000000000007"


@pytest.fixture
def api() -> TestClient:
    with TestClient(create_app("memory", environ={}), raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize("path", ["/matches", f"/matches/{ID}/decisions"])
def test_a_json_integer_of_more_than_4300_digits_is_a_400_problem(api: TestClient, path: str) -> None:
    body = b'{"seq": ' + b"7" * 5000 + b', "command": {}}'
    answer = api.post(path, content=body, headers={"Content-Type": "application/json", "Authorization": "Bearer x"})
    assert answer.status_code == 400, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert "too many digits" in answer.json()["message"]


@pytest.mark.parametrize("path", ["/health", "/rulesets", "/schema", "/schema/openapi.json", f"/matches/{ID}/viewer",
                                  f"/matches/{ID}", "/matches/not-an-id", "/nowhere"])
def test_no_page_of_the_service_may_be_framed(api: TestClient, path: str) -> None:
    answer = api.get(path)
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"], path
    assert answer.headers["x-frame-options"] == "DENY"


def test_the_viewer_page_keeps_its_own_policy_and_adds_frame_ancestors(api: TestClient) -> None:
    match_id = api.post("/matches", json={"players": ["ann", "bob"]}).json()["match_id"]
    csp = api.get(f"/matches/{match_id}/viewer").headers["content-security-policy"]
    assert csp.startswith("default-src 'none'") and csp.endswith("frame-ancestors 'none'")
    assert api.get(f"/matches/{ID}/viewer").status_code == 404      # no page for a match the store does not hold


@pytest.mark.parametrize("method, path", [("GET", "/matches/0/view"), ("GET", "/matches/0/events"),
                                          ("GET", "/matches/0/record"), ("GET", "/matches/0/viewer/data"),
                                          ("POST", "/matches/0/decisions")])
def test_a_missing_token_is_401_before_the_id_is_read(api: TestClient, method: str, path: str) -> None:
    answer = api.request(method, path, json={"seq": 0, "command": {}} if method == "POST" else None)
    assert answer.status_code == 401, answer.text
    assert answer.headers["www-authenticate"].startswith("Bearer")
    with_token = api.request(method, path, headers={"Authorization": "Bearer x"},
                             json={"seq": 0, "command": {}} if method == "POST" else None)
    assert with_token.status_code == 400 and "is not a match id" in with_token.json()["message"]


def test_options_lists_every_method_of_the_path(api: TestClient) -> None:
    assert api.options("/matches").headers["allow"] == "GET, OPTIONS, POST"


def test_the_document_declares_match_ids_problems_and_the_statuses_refusals_use(api: TestClient) -> None:
    doc = api.get("/schema/openapi.json").json()
    view = doc["paths"]["/matches/{match_id}/view"]["get"]
    (match_id,) = [p for p in view["parameters"] if p["name"] == "match_id"]
    assert match_id["schema"]["format"] == "uuid"
    assert {"400", "401", "404", "503"} <= set(view["responses"])
    assert set(view["responses"]["401"]["content"]) == {"application/problem+json"}
    create = doc["paths"]["/matches"]["post"]["responses"]
    assert {"400", "413", "415", "422"} <= set(create)
    assert doc["components"]["schemas"]["Decision"]["additionalProperties"] is False
