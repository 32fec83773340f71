"""Notes over HTTP: ``GET/POST /matches/{id}/notes`` with the judge's or a seat's token.

Who sees whose notes: the judge every note; a seat its own and the judge's public ones, never
the other seat's (a seat writes about its own hand); a seat's copy carries no chain link (a seat
gets none, as in its events). Notes never touch the match's events, chain or end mark.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from httpplay import Player, bearer, create, seat_token
from litestar import Litestar
from litestar.testing import TestClient

from kifu.domain.core.record import first_broken_link
from kifu.domain.core.signing import check_note


def post(client: Any, created: dict[str, Any], role: str, **body: Any) -> Any:
    return client.post(f"/matches/{created['match_id']}/notes", json=body,
                       headers=bearer(created["tokens"][role]))


def listed(client: Any, created: dict[str, Any], role: str) -> list[dict[str, Any]]:
    response = client.get(f"/matches/{created['match_id']}/notes", headers=bearer(created["tokens"][role]))
    assert response.status_code == 200, response.text
    return list(response.json()["notes"])


def test_judge_and_seats_add_notes_and_each_sees_what_it_may(api: TestClient[Litestar]) -> None:
    created = create(api)
    player = Player(api, created, seed=2)
    for _ in range(6):
        player.step()
    judged = post(api, created, "judge", seq=3, text="hand checked: Shadow Kite in hand", glyph="?!",
                  arrows=["12-30", "c3"])
    assert judged.status_code == 201, judged.text
    public = post(api, created, "judge", seq=0, text="match under review", public=True)
    mine = post(api, created, "seat1", seq=2, text="I hold the burn for later", glyph="!")
    theirs = post(api, created, "seat2", seq=4, text="bluffing here")
    assert [r.status_code for r in (public, mine, theirs)] == [201, 201, 201]
    note = judged.json()
    assert (note["number"], note["role"], note["author"], note["glyph"], note["arrows"]) == \
        (1, "judge", "judge", "?!", ["12-30", "c3"])
    assert note["chain"]                                   # the judge's copy is pinned to #3's link
    assert mine.json()["author"] == "ann" and mine.json()["role"] == "seat1"

    judge_sees = [n["text"] for n in listed(api, created, "judge")]
    assert judge_sees == ["hand checked: Shadow Kite in hand", "match under review", "I hold the burn for later",
                          "bluffing here"]
    seat1 = listed(api, created, "seat1")
    seat2 = listed(api, created, "seat2")
    assert [n["text"] for n in seat1] == ["match under review", "I hold the burn for later"]
    assert [n["text"] for n in seat2] == ["match under review", "bluffing here"]
    assert all(n["chain"] == "" for n in seat1 + seat2)   # no hash of hidden content to test guesses on
    assert "Shadow Kite" not in str(seat1) + str(seat2)


def test_notes_leave_the_events_and_their_chain_alone(api: TestClient[Litestar]) -> None:
    created = create(api)
    player = Player(api, created, seed=4)
    while player.step() is not None:
        pass
    judge = bearer(created["tokens"]["judge"])
    before = api.get(f"/matches/{created['match_id']}/record", headers=judge).content
    assert post(api, created, "judge", seq=5, text="fine").status_code == 201
    after = api.get(f"/matches/{created['match_id']}/record", headers=judge).content
    assert before == after
    store = api.app.state.store
    match = store.load(created["match_id"])
    assert first_broken_link(match.header, match.envelopes) is None


def test_refusals_say_what_was_wrong_and_store_nothing(api: TestClient[Litestar]) -> None:
    created = create(api)
    mid = created["match_id"]
    no_token = api.post(f"/matches/{mid}/notes", json={"seq": 1, "text": "x"})
    assert no_token.status_code == 401
    past = post(api, created, "judge", seq=10_000, text="x")
    assert past.status_code == 400 and "outside the record" in past.json()["message"]
    empty = post(api, created, "judge", seq=1)
    assert empty.status_code == 400 and "empty note" in empty.json()["message"]
    glyph = post(api, created, "judge", seq=1, glyph="?!?")
    assert glyph.status_code == 400
    arrow = post(api, created, "judge", seq=1, arrows=["a b"])
    assert arrow.status_code == 400
    public_seat = post(api, created, "seat1", seq=1, text="x", public=True)
    assert public_seat.status_code == 403
    stray = post(api, created, "judge", seq=1, variation=created["match_id"])
    assert stray.status_code == 400 and "was not forked" in stray.json()["message"]
    unknown = api.get("/matches/00000000-0000-4000-8000-000000000000/notes",
                      headers=bearer(seat_token(created, 1)))
    assert unknown.status_code in (401, 404)
    assert listed(api, created, "judge") == []


def test_notes_are_signed_by_the_services_key(make_app: Callable[[str], Litestar], tmp_path: Any) -> None:
    from kifu.domain.core.signing import new_signer, private_pem
    from kifu.service import create_app
    from kifu.store.notes import NoteStore

    key = tmp_path / "service.pem"
    key.write_bytes(private_pem(new_signer("house")))
    db = str(tmp_path / "signed.db")
    with TestClient(create_app(db, environ={"KIFU_SIGNING_KEY": str(key)})) as client:
        created = create(client)
        assert post(client, created, "judge", seq=1, text="signed").status_code == 201
    from kifu.store import resolve

    with NoteStore.open(resolve(db, {})) as notes:
        (note,) = notes.notes(created["match_id"])
    verdict = check_note(note)
    assert verdict.ok and "house" in verdict.text


def test_two_service_processes_adding_notes_at_once_lose_none(db_url: str,
                                                              make_app: Callable[[str], Litestar]) -> None:
    """Two apps on one database (SQLite file or PostgreSQL schema), each adding notes from threads."""
    with TestClient(make_app(db_url)) as one, TestClient(make_app(db_url)) as two:
        created = create(one)
        barrier = threading.Barrier(4)
        codes: list[int] = []

        def write(client: Any, role: str, tag: str) -> None:
            barrier.wait()
            for k in range(8):
                codes.append(post(client, created, role, seq=1, text=f"{tag} {k}").status_code)

        threads = [threading.Thread(target=write, args=args) for args in
                   ((one, "judge", "a"), (two, "judge", "b"), (one, "seat1", "c"), (two, "seat2", "d"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert codes == [201] * 32
        notes = listed(one, created, "judge")
        assert [n["number"] for n in notes] == list(range(1, 33))
        assert sorted(n["text"] for n in notes) == sorted(f"{t} {k}" for t in "abcd" for k in range(8))
