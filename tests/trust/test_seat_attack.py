"""The attack as a test (issue 24): a seat holding only its own token plays served matches of the
rulesets with sealed decisions (novel, alteil, secretbid), keeps every byte the service sends it
(views with the masked position, legal lists, decision answers, /events, the live stream), and
tries to derive what it must not know.

Threat model (docs/security.md, "Fair randomness"): the service and the judge are honest; the
attacker is a seat, with its own token, reading everything it is sent, as many matches as it
likes, with unbounded offline time per match (but not 2**64 work). What it must not learn before
the rules show it: the opponent's hidden cards and their order, how many of them qualify for a
choice, the opponent's sealed choice before its reveal, and the match seed (which would give all
of those).

Record format 1 derived seal salts from SplitMix64 outputs of the seed, and a seat's own seal
carried its salt: SplitMix64's output step is invertible, so one salt gave the seed
(``test_format_1_the_seed_falls_out_of_a_seats_own_salt`` keeps that on the saved format-1 record).
Format 2 draws from SHAKE-256 keyed by the seed and the served match's 128-bit nonce, and no seal
carries a salt before its reveal: the tests below play served matches whose seeds are drawn in
[0, 2**24) on purpose and find that no salt inverts, the seed and nonce never reach the seat
before ``SeedRevealed``, and a brute force over those 2**24 seeds of every derivation a seat can
run finds nothing (``slow``). Against a local match (no nonce) the same brute force does find the
seed: the search is real.
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from kifu.domain.core.bot import Seen
from kifu.domain.core.commit import commitment
from kifu.domain.core.record import decode_record
from kifu.domain.core.rng import Rng, match_key, seal_salt
from kifu.domain.core.ruleset import find_ruleset
from kifu.projections.recordfile import read_record
from kifu.service import create_app
from kifu.service import matches as served_matches

SEALED_RULESETS = ("novel", "alteil", "secretbid")
SHUFFLED = {"alteil", "secretbid"}      # novel has no hidden order (N-3.2: deck lists are public, no order)
ATTACKER = 1
MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
SEQ_STEP = 0xD1B54A32D192ED03
BRUTE = 1 << 24
FORMAT1_NOVEL = Path(__file__).parent.parent / "toolkit" / "data" / "format1-novel-served.kifu.jsonl"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def weak_seeds(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the service draw ``seed`` (in [0, 2**24): weak on purpose) as the match seed; the nonce
    stays the service's own 128 random bits."""
    real = os.urandom

    def urandom(n: int) -> bytes:
        return (seed << 1).to_bytes(8, "big") if n == 8 else real(n)
    monkeypatch.setattr(served_matches.os, "urandom", urandom)


def play_served(name: str, seed: int, decisions: int = 400) -> tuple[bytes, list[tuple[int, bytes]]]:
    """A served match (the service draws and commits to the seed: ``weak_seeds`` makes it weak)
    played by two random bots through the routes; returns the judge's record and every byte seat
    ``ATTACKER`` received."""
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
        key = match_key(header.seed, header.seed_nonce)
        for env in seals:
            assert env.event.salt is None           # format 2: no seal carries its salt
            salt = seal_salt(key, env.seq, env.event.seat).encode()
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


def salts_sent(got: list[tuple[int, bytes]]) -> list[tuple[int, int, str]]:
    """Every salt in the envelopes the seat was sent: (seq of the seal, seat, salt), from its own
    seals (format 1 kept the salt there) and from every reveal (which cites the seal as its cause)."""
    out = []
    for _, payload in got:
        for e in envelopes_in(payload) if payload.startswith(b"{") else ():
            ev = e["event"]
            if ev.get("type") == "ChoiceSealed" and ev.get("salt"):
                out.append((e["seq"], ev["seat"], ev["salt"]))
            elif ev.get("type") == "ChoiceRevealed" and ev.get("salt") and e.get("cause"):
                out.append((e["cause"], ev["seat"], ev["salt"]))
    return sorted(set(out))


def brute_keyed(salt: str, seq: int, seat: int, seeds: range) -> int | None:
    """The seed among ``seeds`` whose format-2 key without a nonce (the seat never has it before the
    reveal) derives this salt."""
    return next((s for s in seeds if seal_salt(match_key(s, None), seq, seat) == salt), None)


def reveal_seq(envelopes: list[Any]) -> int:
    """The seq of ``SeedRevealed``; a match still going (the nonce, and so the match, differs each
    run) has revealed nothing: everything the seat got came before the reveal."""
    return next((e.seq for e in envelopes if type(e.event).__name__ == "SeedRevealed"), 1 << 62)


@pytest.mark.parametrize("name", SEALED_RULESETS)
def test_no_seat_can_derive_the_seed_from_what_it_is_sent(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    weak = random.Random(name).randrange(BRUTE)
    weak_seeds(monkeypatch, weak)
    record, got = play_served(name, 1)
    header, envelopes, _ = decode_record(record)
    assert header.format == 2 and header.seed == weak and header.seed_nonce
    revealed = reveal_seq(envelopes)
    before = b"\n".join(p for seq, p in got if seq < revealed)
    assert f'"seed":{weak}'.encode() not in before and header.seed_nonce.encode() not in before
    salts = salts_sent(got)
    assert salts, "the seat was sent no salt: the attack had nothing to work on"
    for seq, _seat, salt in salts:
        assert invert(salt, seq) is None          # no salt is a SplitMix64 output of any seed
    # the seat cannot re-derive a salt without the nonce, even knowing the seed's neighbourhood
    seq, seat, salt = salts[0]
    assert brute_keyed(salt, seq, seat, range(max(0, weak - 2000), weak + 2000)) is None
    assert seal_salt(match_key(weak, header.seed_nonce), seq, seat) == salt     # what it would need


@pytest.mark.slow
@pytest.mark.parametrize("name", SEALED_RULESETS)
def test_a_brute_force_over_2_to_the_24_weak_seeds_finds_nothing(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every derivation a seat can run from a salt it is sent, over every seed in [0, 2**24) (the
    match's own included): format 1's SplitMix64 salt and format 2's key without the nonce."""
    weak_seeds(monkeypatch, random.Random(name).randrange(BRUTE))
    _, got = play_served(name, 1, decisions=60)
    seq, seat, salt = salts_sent(got)[0]
    assert invert(salt, seq) is None
    assert brute(salt, seq) is None
    assert brute_keyed(salt, seq, seat, range(BRUTE)) is None


def test_the_brute_force_finds_a_local_matchs_weak_seed() -> None:
    """The search is real: a local match (no nonce: its seed is in its header anyway) with a weak
    seed gives the seed from one salt, and with it the other seat's sealed choices."""
    from kifu.domain.core.driver import drive
    from kifu.domain.core.match import Match

    rules = find_ruleset("secretbid")
    weak = 1_234_567
    match = Match.create(rules, match_id="local", seed=weak, players=("a", "b"),
                         decks=[rules.content.load_deck(d) for d in rules.content.presets()[:2]])
    drive(match, {s: rules.content.bots["random"](s) for s in (1, 2)}, limit=40)
    reveal = next(e for e in match.envelopes if type(e.event).__name__ == "ChoiceRevealed")
    assert reveal.cause is not None
    found = brute_keyed(reveal.event.salt, reveal.cause, reveal.event.seat, range(weak - 3000, weak + 1000))
    assert found == weak


def test_format_1_the_seed_falls_out_of_a_seats_own_salt() -> None:
    """The saved format-1 record (served novel, made before format 2): the attacker's own seal
    carried its salt, and SplitMix64's inversion turns the first one into the seed, which reads
    every sealed choice of the other seat off its commitment."""
    record = read_record(FORMAT1_NOVEL)
    assert record.header.format == 1
    own = next(e for e in record.envelopes
               if type(e.event).__name__ == "ChoiceSealed" and e.event.seat == ATTACKER)
    seed = invert(own.event.salt, own.seq)
    assert seed == record.header.seed
    others = sum(1 for e in record.envelopes if type(e.event).__name__ == "ChoiceSealed" and e.event.seat != ATTACKER)
    assert others and decode_sealed(record.ruleset, seed, record.header, record.envelopes) == others
