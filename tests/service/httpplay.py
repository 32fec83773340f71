"""Helpers for the service tests: create a match over HTTP and play it with the random bot."""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.bot import Seen
from kifu.domain.core.driver import seen_by
from kifu.domain.core.ruleset import find_ruleset

RULES = find_ruleset("worlfard")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: Any, seed: int = 7, **extra: Any) -> dict[str, Any]:
    response = client.post("/matches", json={"players": ["ann", "bob"], **extra})
    assert response.status_code == 201, response.text
    return response.json()


def awaited(body: dict[str, Any]) -> int:
    """The one seat an answer says the rules await (WORLFARD awaits one at a time)."""
    (seat,) = body["awaiting"]
    return seat


def seat_token(created: dict[str, Any], seat: int) -> str:
    return created["tokens"][f"seat{seat}"]


class Player:
    """Plays a match through an HTTP client with the random bot, one decision per ``step``."""

    def __init__(self, client: Any, created: dict[str, Any], seed: int = 1) -> None:
        self.client = client
        self.created = created
        self.match_id = created["match_id"]
        self.bots = {s: RULES.content.bots["random"](seed * 2 + s) for s in (1, 2)}
        self.decisions = 0

    def headers(self, seat: int) -> dict[str, str]:
        return bearer(seat_token(self.created, seat))

    def view(self, seat: int | None = None) -> dict[str, Any]:
        token = self.created["tokens"]["judge" if seat is None else f"seat{seat}"]
        response = self.client.get(f"/matches/{self.match_id}/view", headers=bearer(token))
        assert response.status_code == 200, response.text
        return response.json()

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        seat = view["seat"]
        legal = [msgspec.convert(c, RULES.decider.command_type) for c in view["legal"]]
        return msgspec.to_builtins(self.bots[seat].choose(Seen(seat, legal)))

    def step(self, client: Any = None) -> dict[str, Any] | None:
        """One decision by the awaited seat; None when the match is over."""
        judge = self.view()
        if judge["outcome"] is not None:
            return None
        seat = awaited(judge)
        view = self.view(seat)
        response = (client or self.client).post(f"/matches/{self.match_id}/decisions", headers=self.headers(seat),
                                                json={"seq": view["seq"], "command": self.choose(view)})
        assert response.status_code == 200, response.text
        self.decisions += 1
        return response.json()

    def play(self, decisions: int, client: Any = None) -> int:
        for _ in range(decisions):
            if self.step(client) is None:
                break
        return self.decisions

    def record(self) -> bytes:
        response = self.client.get(f"/matches/{self.match_id}/record", headers=bearer(self.created["tokens"]["judge"]))
        assert response.status_code == 200, response.text
        return response.content


def finished_match(seed: int = 9) -> Any:
    """A whole match played locally by bots (milliseconds), to store without HTTP round trips."""
    import uuid

    from kifu.domain.core.match import Match

    match = Match.create(RULES, match_id=str(uuid.uuid4()), seed=seed,
                         decks=[RULES.content.load_deck("flame-gale"), RULES.content.load_deck("tide-stone")],
                         players=("ann", "bob"))
    bots = {s: RULES.content.bots["random"](seed * 2 + s) for s in (1, 2)}
    while match.outcome is None:
        seat = match.deciding
        match.submit(seat, bots[seat].choose(seen_by(match, seat)))
    return match


def store_finished(app: Any, seed: int = 9) -> tuple[Any, dict[str, str]]:
    """A finished match in the app's store, as `kifu play` would leave it, with tokens issued."""
    match = finished_match(seed)
    app.state.store.create(match)
    return match, app.state.service.tokens.issue(match.header.match_id)
