"""The attack as a test (issue 24): a seat holding only its own token plays served matches of the
rulesets with sealed decisions (novel, alteil, secretbid), keeps every byte the service sends it
(views with the masked position, legal lists, decision answers, /events, the live stream), and
tries to derive what it must not know.

Threat model: the service and the judge are honest; the opponent seat and the network between
the seat and the service (TLS aside) are not the attacker; the attacker is a seat, with its own
token, reading everything it is sent, as many matches as it likes, with unbounded offline time
per match (but not 2**64 work). What it must not learn before the rules show it: the opponent's
hidden cards and their order, how many of them qualify for a choice, the opponent's sealed choice
before its reveal, and the match seed (which would give all of those).

What passes today: no hidden order in the bytes, no opponent sealed choice in plaintext.
What fails today: the seed. A seat's own ``ChoiceSealed`` carries its salt, two raw SplitMix64
outputs of ``Rng.for_seq(seed, seq)``; SplitMix64's output step is invertible, so one salt gives
the generator's state and the seed. That part is ``xfail(strict=True)`` until record format 2
(issue 25) brings the cryptographic generator and salts no seat can relate to the seed: it turns
red once that lands, and must then be un-marked (its 2**24 brute force then runs in full: about a
minute a ruleset in pure Python on this machine, so mark it ``slow`` then).
"""
from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from kifu.domain.core.bot import Seen
from kifu.domain.core.commit import commitment
from kifu.domain.core.record import decode_record
from kifu.domain.core.rng import Rng
from kifu.domain.core.ruleset import find_ruleset
from kifu.service import create_app

SEALED_RULESETS = ("novel", "alteil", "secretbid")
SHUFFLED = {"alteil", "secretbid"}      # novel has no hidden order (N-3.2: deck lists are public, no order)
ATTACKER = 1
MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
SEQ_STEP = 0xD1B54A32D192ED03
BRUTE = 1 << 24


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def play_served(name: str, seed: int, decisions: int = 400) -> tuple[bytes, list[tuple[int, bytes]]]:
    """A served match (the service draws and commits to the seed) played by two random bots
    through the routes; returns the judge's record and every byte seat ``ATTACKER`` received."""
    rules = find_ruleset(name)
    rng = random.Random(seed)
    got: list[tuple[int, bytes]] = []
    with TestClient(create_app("memory", environ={"KIFU_TEST_RULESETS": "1"})) as api:
        created = api.post("/matches", json={"ruleset": name, "players": ["ann", "bob"]}).json()
        mid, tokens = created["match_id"], created["tokens"]
        bots = {s: rules.content.bots["random"](seed * 2 + s) for s in (1, 2)}
        for _ in range(decisions):
            answers = {}
            for s in (1, 2):
                r = api.get(f"/matches/{mid}/view", params={"position": "true"}, headers=bearer(tokens[f"seat{s}"]))
                answers[s] = r.json()
                if s == ATTACKER:
                    got.append((answers[s]["seq"], r.content))
            view = answers[ATTACKER]
            if view["outcome"] is not None or not view["awaiting"]:
                break
            seat = rng.choice(view["awaiting"])
            mine = answers[seat]
            legal = [msgspec.convert(c, rules.decider.command_type) for c in mine["legal"]]
            command = msgspec.to_builtins(bots[seat].choose(Seen(seat, legal)))
            r = api.post(f"/matches/{mid}/decisions", headers=bearer(tokens[f"seat{seat}"]),
                         json={"seq": mine["seq"], "command": command})
            assert r.status_code in (200, 409), r.text
            if seat == ATTACKER:
                got.append((r.json().get("seq", mine["seq"]), r.content))
        events = api.get(f"/matches/{mid}/events", params={"after": 0, "limit": 5000},
                         headers=bearer(tokens[f"seat{ATTACKER}"]))
        got.append((1 << 62, events.content))
        record = api.get(f"/matches/{mid}/record", headers=bearer(tokens["judge"])).content
    return record, got


def envelopes_in(payload: bytes) -> list[dict[str, Any]]:
    """The envelopes a payload carries (a decision's answer or an /events page)."""
    body = json.loads(payload)
    return [e for e in body.get("events", ()) if isinstance(e, dict) and "event" in e]


# -- what passes today ----------------------------------------------------------------------------
def hidden_orders(rules: Any, record: bytes) -> list[str]:
    """Every order of three or more cards the judge's record holds that the seat's copy hides
    (a shuffle, a pile), written as the seat would receive it in JSON."""
    from kifu.domain.core.visibility import redacted

    header, envelopes, _ = decode_record(record)
    mine = redacted(rules, rules.decider.initial_state(header), envelopes, ATTACKER)
    out = []
    for judge, seat in zip(envelopes, mine, strict=True):
        j, s = msgspec.to_builtins(judge.event), msgspec.to_builtins(seat.event)
        for key, value in j.items() if isinstance(j, dict) else ():
            if isinstance(value, (list, tuple)) and len(value) >= 3 and all(isinstance(v, int) for v in value) \
                    and s.get(key) != value and len(set(value)) > 1:
                out.append(json.dumps(list(value), separators=(",", ":")))
    return out


@pytest.mark.parametrize("name", SEALED_RULESETS)
def test_a_seats_bytes_hold_no_hidden_order_and_no_sealed_choice_of_the_other(name: str) -> None:
    rules = find_ruleset(name)
    for seed in (1, 2):
        record, got = play_served(name, seed)
        header, envelopes, _ = decode_record(record)
        everything = b"\n".join(p for _, p in got)
        orders = hidden_orders(rules, record)
        assert orders or name not in SHUFFLED, "the match hid no order from the seat: the check would mean nothing"
        for order in orders:
            assert order.encode() not in everything, f"{name}: a hidden order reached the seat: {order[:80]}"
        seals = [e for e in envelopes if type(e.event).__name__ == "ChoiceSealed" and e.event.seat != ATTACKER]
        assert seals, "no sealed choice of the other seat: the check would mean nothing"
        for env in seals:
            salt = env.event.salt.encode()
            reveal = next((r.seq for r in envelopes
                           if r.cause == env.seq and type(r.event).__name__ == "ChoiceRevealed"), 1 << 62)
            before = b"\n".join(p for seq, p in got if seq < reveal)
            assert salt not in before, f"{name}: the other seat's salt at #{env.seq} reached the seat before its reveal"
        for _, payload in got:
            for e in envelopes_in(payload) if payload.startswith(b"{") else ():
                ev = e["event"]
                if ev.get("type") == "ChoiceSealed" and ev.get("seat") != ATTACKER:
                    assert "choice" not in ev and "salt" not in ev, f"{name}: the other's sealed choice in plaintext"


# -- what fails today: the seed ---------------------------------------------------------------------
def _unmix(x: int) -> int:
    """SplitMix64's output step undone (each xor-shift and multiplication is a bijection)."""
    x ^= (x >> 31) ^ (x >> 62)
    x = (x * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    x ^= (x >> 27) ^ (x >> 54)
    x = (x * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    x ^= (x >> 30) ^ (x >> 60)
    return x


def _salt(seed: int, seq: int) -> str:
    """Today's seal salt for the decision starting at ``seq`` (``Match._seal``): update with the generator."""
    rng = Rng.for_seq(seed, seq)
    return f"{rng.next_u64():016x}{rng.next_u64():016x}"


def invert(salt: str, seq: int) -> int | None:
    """The seed whose generator gave this salt at this seq, from the salt alone."""
    first, second = int(salt[:16], 16), int(salt[16:], 16)
    state = (_unmix(first) - GAMMA) & MASK
    seed = ((state - seq * SEQ_STEP) * pow(GAMMA, -1, 1 << 64)) & MASK
    return seed if _salt(seed, seq)[16:] == f"{second:016x}" else None


def brute(salt: str, seq: int, bound: int = BRUTE) -> int | None:
    """The seed among the first ``bound`` values whose derivation gives this salt (a weak seed draw)."""
    return next((s for s in range(bound) if _salt(s, seq) == salt), None)


def derive_seed(got: list[tuple[int, bytes]]) -> tuple[int | None, int]:
    """What the attacker can work out from its own sealed decisions: (seed or None, decisions used)."""
    used = 0
    for _, payload in got:
        for e in envelopes_in(payload) if payload.startswith(b"{") else ():
            ev = e["event"]
            if ev.get("type") == "ChoiceSealed" and ev.get("seat") == ATTACKER and ev.get("salt"):
                used += 1
                seed = invert(ev["salt"], e["seq"])
                if seed is None:
                    seed = brute(ev["salt"], e["seq"])
                if seed is not None:
                    return seed, used
    return None, used


def decode_sealed(rules: Any, seed: int, header: Any, envelopes: list[Any]) -> int:
    """With the seed, the other seat's sealed choices read off their commitments: how many."""
    from kifu.domain.core.match import Match

    match = Match.start(rules, header)
    read = 0
    for env in envelopes:
        event = env.event
        if type(event).__name__ == "ChoiceSealed" and event.seat != ATTACKER:
            salt = _salt(seed, env.seq)
            options = rules.decider.legal(match.state, event.seat)
            read += any(commitment(msgspec.to_builtins(c), salt) == event.commitment for c in options)
        match.extend([env])
    return read


@pytest.mark.xfail(strict=True, reason="record format 1 derives seal salts from SplitMix64 outputs of the seed: "
                                       "a seat inverts one salt into the seed. Format 2 (issue 25) brings the "
                                       "cryptographic generator keyed by the seed and unrelated salts; un-mark then")
@pytest.mark.parametrize("name", SEALED_RULESETS)
def test_no_seat_can_derive_the_seed_from_what_it_is_sent(name: str) -> None:
    rules = find_ruleset(name)
    record, got = play_served(name, 1)
    header, envelopes, _ = decode_record(record)
    seed, used = derive_seed(got)
    if seed is not None:
        read = decode_sealed(rules, seed, header, envelopes)
        others = sum(1 for e in envelopes if type(e.event).__name__ == "ChoiceSealed" and e.event.seat != ATTACKER)
        print(f"\n{name}: the seed {'is' if seed == header.seed else 'is NOT'} recovered after {used} of the "
              f"attacker's sealed decisions; {read} of the other seat's {others} sealed choices read with it")
    assert seed != header.seed, f"{name}: a seat derived the match seed from its own sealed decision"
    assert used, "the seat made no sealed decision: the attack had nothing to work on"
