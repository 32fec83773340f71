"""Property: over random matches played through the API, a seat token never sees the other
seat's hand, any deck's order, or a face-down heart.

After every decision the test asks the judge (who sees everything) where each card is, and
calls a card id *secret for seat s* when it lies in the opponent's hand, in either deck, or in
a face-down heart. Then everything seat s was sent — its views, its decisions' events, the
events endpoint — must hold no secret card id, except ones the seat had already been shown
legitimately (its own hand returned to its deck at a mulligan: it knows the cards, not where
they lie). Seats also get no hash (chain, digest) of unredacted content to test guesses against.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from httpplay import bearer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from kifu.domain.core.bot import Seen
from kifu.domain.core.ruleset import find_ruleset
from kifu.service import create_app

RULES = find_ruleset("worlfard")
CARD_KEYS = {"card", "cards", "order", "hearts", "souls", "defender_card", "attacker_card", "id"}
HIDDEN = 0


def card_ids(value: Any, key: str | None = None) -> Iterator[int]:
    """Every card id in a JSON value: ints under card-ish keys (and inside their lists)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from card_ids(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from card_ids(v, key)
    elif isinstance(value, int) and not isinstance(value, bool) and key in CARD_KEYS and value != HIDDEN:
        yield value


def secrets_for(seat: int, judge_view: dict[str, Any]) -> set[int]:
    sides = judge_view["sides"]
    opponent = sides[2 - seat]
    secret = {c["id"] for c in opponent["hand"]}
    for side in sides:
        secret |= {c["id"] for c in side["deck"]}
        secret |= {h["card"]["id"] for h in side["hearts"] if not h["face_up"]}
    return secret


def assert_view_hides(seat: int, view: dict[str, Any], secret: set[int]) -> None:
    sides = view["sides"]
    assert sides[2 - seat]["hand"] is None
    assert all(side["deck"] is None for side in sides)
    assert all(h["card"] is None for side in sides for h in side["hearts"] if not h["face_up"])
    leaked = set(card_ids(view)) & secret
    assert not leaked, f"seat {seat}'s view shows secret cards {leaked}"


def assert_events_hide(seat: int, events: list[dict[str, Any]], secret: set[int], known: set[int]) -> None:
    for env in events:
        assert not env.get("chain") and not env.get("digest"), f"seat {seat} got a hash of unredacted seq {env['seq']}"
        leaked = (set(card_ids(env["event"])) & secret) - known
        assert not leaked, f"seat {seat} sees secret cards {leaked} in event {env}"


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), bot_seed=st.integers(0, 2**32), decisions=st.integers(15, 60),
       decks=st.tuples(st.sampled_from(RULES.content.presets()), st.sampled_from(RULES.content.presets())))
def test_a_seat_never_sees_hidden_cards(seed: int, bot_seed: int, decisions: int, decks: tuple[str, str]) -> None:
    with TestClient(create_app("memory", environ={})) as api:
        created = api.post("/matches", json={"decks": list(decks)}).json()
        mid, tokens = created["match_id"], created["tokens"]
        bots = {s: RULES.content.bots["random"](bot_seed * 2 + s) for s in (1, 2)}
        known: dict[int, set[int]] = {1: set(), 2: set()}   # card ids each seat was legitimately shown

        def judge() -> dict[str, Any]:
            return api.get(f"/matches/{mid}/view", headers=bearer(tokens["judge"])).json()

        def look(seat: int, secret: set[int]) -> dict[str, Any]:
            seen = api.get(f"/matches/{mid}/view", headers=bearer(tokens[f"seat{seat}"])).json()
            assert_view_hides(seat, seen["view"], secret)
            known[seat] |= set(card_ids(seen["view"]))
            return seen

        now = judge()
        for _ in range(decisions):
            if now["outcome"] is not None:
                break
            (seat,) = now["awaiting"]
            mine = look(seat, secrets_for(seat, now["view"]))
            legal = [msgspec.convert(c, RULES.decider.command_type) for c in mine["legal"]]
            command = msgspec.to_builtins(bots[seat].choose(Seen(seat, legal)))
            result = api.post(f"/matches/{mid}/decisions", headers=bearer(tokens[f"seat{seat}"]),
                              json={"seq": mine["seq"], "command": command}).json()
            now = judge()
            for s in (1, 2):
                secret = secrets_for(s, now["view"])
                look(s, secret)
                if s == seat:
                    assert_events_hide(s, result["events"], secret, known[s])
                    known[s] |= set(card_ids([e["event"] for e in result["events"]])) - secret
        for s in (1, 2):
            everything = api.get(f"/matches/{mid}/events", params={"after": 0}, headers=bearer(tokens[f"seat{s}"]))
            assert_events_hide(s, everything.json()["events"], secrets_for(s, now["view"]), known[s])
