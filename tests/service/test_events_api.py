"""The /events routes: the organiser's token, hidden lists, pairing with seat tokens, the deck check."""
from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

ORGANISER: dict[str, str] = {}


def _event(api: TestClient[Any], players: int = 4) -> dict[str, str]:
    created = api.post("/events", json={"name": "cup", "ruleset": "reigeki", "rounds": 2, "top_cut": 2})
    assert created.status_code == 200, created.text
    auth = {"Authorization": f"Bearer {created.json()['organiser_token']}"}
    for i, deck in zip(range(players), ("hakurei", "mima", "moriya", "scarlet"), strict=False):
        answer = api.post("/events/cup/players", json={"player": f"p{i}", "deck": deck}, headers=auth)
        assert answer.status_code == 200, answer.text
    return auth


def test_the_organiser_token_guards_the_event(api: TestClient[Any]) -> None:
    auth = _event(api)
    assert api.post("/events/cup/rounds").status_code == 401
    wrong = api.post("/events/cup/rounds", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and "organiser token" in wrong.json()["message"]
    assert api.get("/events/nosuch").status_code == 404
    assert api.post("/events", json={"name": "cup", "ruleset": "reigeki"}).json()["clause"] == "E-created"
    assert api.post("/events/cup/players", json={"player": "x", "deck": "no-such-deck"}, headers=auth).status_code \
        in (400, 422)


def test_lists_are_hidden_until_published(api: TestClient[Any]) -> None:
    auth = _event(api)
    public = api.get("/events/cup").json()
    assert all(p["deck"] is None and p["deck_name"] is None and len(p["commitment"]) == 64 for p in public["players"])
    assert all(p["deck"] is not None for p in api.get("/events/cup", headers=auth).json()["players"])
    api.post("/events/cup/publication", headers=auth)
    assert all(p["deck_name"] for p in api.get("/events/cup").json()["players"])


def test_pairing_creates_matches_with_tokens_and_the_deck_check_refuses_another_list(api: TestClient[Any]) -> None:
    auth = _event(api)
    paired = api.post("/events/cup/rounds", headers=auth).json()
    assert paired["round"] == 1 and len(paired["games"]) == 2
    game = paired["games"][0]
    assert set(game["tokens"]) == {"seat1", "seat2", "judge"}
    view = api.get(f"/matches/{game['match_id']}/view", headers={"Authorization": f"Bearer {game['tokens']['seat1']}"})
    assert view.status_code == 200 and view.json()["players"] == game["players"]
    locked = api.post("/events/cup/players", json={"player": "p0", "deck": "scarlet"}, headers=auth)
    assert locked.status_code == 422 and locked.json()["clause"] == "E-decklist-lock"
    swap = api.post("/matches", json={"ruleset": "reigeki", "decks": ["scarlet", "mima"], "players": ["p0", "p1"],
                                      "event": "cup"})
    assert swap.status_code == 422 and swap.json()["clause"] == "E-deck-check"
    assert "p0's deck is not the list registered" in swap.json()["message"] and "→" in swap.json()["message"]
    same = api.post("/matches", json={"ruleset": "reigeki", "decks": ["hakurei", "mima"], "players": ["p0", "p1"],
                                      "event": "cup"})
    assert same.status_code == 201 or same.status_code == 200, same.text
    early = api.post("/events/cup/rounds", headers=auth)
    assert early.status_code == 422 and early.json()["clause"] == "E-pair"
    standings = api.get("/events/cup/standings").json()
    assert standings["spec"] == "mtr-c" and len(standings["rows"]) == 4
