"""Property: over random matches of every ruleset played through the API, nothing a seat is sent
names a card that seat has never been allowed to see.

The oracle is the ruleset's ``mask`` (what a seat may know of a state): a card is *secret for
seat s up to seq t* if the mask hid it in every state from the setup to t. Every payload a seat
gets — its views and layouts, its legal lists, its decisions' answers, ``/events``, the live
stream, the bodies of its refused requests — is decoded int by int: an int names card c if it
is c, or packs c with a line (c*10 + line, as WORLFARD's options and targets do). Any secret
card so named is a leak. (Issue 14: 召喚術師's ChoiceAwaited.options and 連鎖の魔導書's targets
named a hand card.) So is a pending choice's option list holding a hidden card: its length counts
the hidden cards that qualify (issue 24: 召喚術師's options, qualifying hand cards × empty lines).
"""
from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from kifu.domain.core.bot import Seen
from kifu.domain.core.commit import ChoiceRevealed
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.record import decode_record
from kifu.domain.core.roles import HIDDEN, roles_of
from kifu.domain.core.ruleset import find_ruleset, ruleset_names
from kifu.service import create_app

from .scrub_audit import counted


def _seq_keys() -> set[str]:
    """Keys that hold seq numbers, not cards: the envelope's, and every event field a ruleset
    declares with the role ``seq`` (``SeqRef``: a declaration a later ruling traces back to)."""
    keys = {"seq", "cause", "after", "turn", "round", "forked_at"}
    seen: set[type] = set()

    def declared(struct_type: type) -> None:        # the type and the Structs nested in it (WORLFARD's Effect.id)
        if struct_type in seen:
            return
        seen.add(struct_type)
        keys.update(f.key or f.name for f in roles_of(struct_type) if f.role == "seq")
        for field in msgspec.structs.fields(struct_type):
            for inner in nested_structs(field.type):
                declared(inner)

    for name in ruleset_names():
        for member in getattr(find_ruleset(name).decider.event_type, "__args__", ()):
            declared(member)
    return keys


def nested_structs(annotation: Any) -> Iterator[type]:
    """The Struct types an annotation holds (directly, in a tuple or list, or as an optional)."""
    if isinstance(annotation, type) and issubclass(annotation, msgspec.Struct):
        yield annotation
    for arg in getattr(annotation, "__args__", ()):
        yield from nested_structs(arg)


SEQ_KEYS = _seq_keys()
COUNTS = {"matches": 0, "decisions": 0, "payloads": 0, "ints": 0, "ids": 0}
PER_RULESET: dict[str, dict[str, int]] = {}     # the closing note's figures: `pytest -s` prints them


def tally(name: str, before: dict[str, int]) -> str:
    """Add what the scan just did for ``name`` to its row and say the row (printed with ``-s``)."""
    row = PER_RULESET.setdefault(name, dict.fromkeys(COUNTS, 0))
    for key, value in COUNTS.items():
        row[key] += value - before[key]
    return (f"leak scan {name}: {row['matches']} matches, {row['decisions']} decisions, {row['payloads']} payloads, "
            f"{row['ints']} ints read, {row['ids']} card ids decoded, 0 leaks")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


DISTINCT = 100     # card ids from here up cannot be mistaken for a seat, a line, an amount or a count


def cardish(key: str | None) -> bool:
    return key is not None and ("card" in key or key in ("id", "order", "options", "targets", "hand", "deck")
                                or key.endswith("_id"))


def ints(value: Any, key: str | None = None) -> Iterator[tuple[int, bool]]:
    """Every int of a JSON value with whether its key says it is a card, except seq numbers."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from ints(v, k)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from ints(v, key)
    elif isinstance(value, int) and not isinstance(value, bool) and key not in SEQ_KEYS and value != HIDDEN:
        yield value, cardish(key)


def named(value: int, card_key: bool) -> tuple[int, ...]:
    """The cards an int may name: itself, or a card packed with a line (card*10 + line). Small
    card ids (a test ruleset numbers its cards 1..N) are read only under a card's key."""
    return tuple(c for c in (value, value // 10) if c >= DISTINCT or (card_key and c == value))


def masked_away(judge: Any, masked: Any) -> Iterator[int]:
    """The ints of the judge's state that the seat's mask replaced by HIDDEN, place by place."""
    if isinstance(judge, dict) and isinstance(masked, dict):
        for key, value in judge.items():
            yield from masked_away(value, masked.get(key))
    elif isinstance(judge, (list, tuple)) and isinstance(masked, (list, tuple)) and len(judge) == len(masked):
        for a, b in zip(judge, masked, strict=True):
            yield from masked_away(a, b)
    elif isinstance(judge, int) and not isinstance(judge, bool) and masked == HIDDEN and judge != HIDDEN:
        yield judge


def all_ints(value: Any) -> Iterator[int]:
    if isinstance(value, dict):
        for v in value.values():
            yield from all_ints(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from all_ints(v)
    elif isinstance(value, int) and not isinstance(value, bool):
        yield value


def secret_up_to(rules: Any, record: bytes, seat: int) -> list[frozenset[int]]:
    """For each seq t (0 = before any event): the cards the mask hides from ``seat`` at t that
    it has not once been shown (present in a state, not masked) at any seq up to t."""
    header, envelopes, _ = decode_record(record)
    state = Match.empty(rules, header).state
    evolve = record_evolve(rules)
    hidden: list[frozenset[int]] = [frozenset()]
    present: list[frozenset[int]] = [frozenset()]
    revealed: list[frozenset[int]] = [frozenset()]
    for env in envelopes:
        state = evolve(state, env.event)
        judge = msgspec.to_builtins(state)
        hidden.append(frozenset(masked_away(judge, msgspec.to_builtins(rules.visibility.mask(state, seat)))))
        present.append(frozenset(all_ints(judge)))
        # a sealed choice, once revealed, is public by the core's rule K-reveal
        revealed.append(frozenset(all_ints(msgspec.to_builtins(env.event.choice)))
                        if isinstance(env.event, ChoiceRevealed) else frozenset())
    cards = frozenset().union(*hidden)
    shown: set[int] = set()
    out = []
    for hid, there, public in zip(hidden, present, revealed, strict=True):
        shown |= ((there & cards) - hid) | public
        out.append(hid - shown)
    return out


# The issue's cases: dawn-dusk vs four-winds, seed 58 (召喚術師's options at seq 144) and 69
# (連鎖の魔導書's targets at seq 146).
DECKS = {"worlfard": ("dawn-dusk", "four-winds")}


def play_and_collect(rules: Any, seed: int, decisions: int) -> tuple[bytes, dict[int, list[tuple[int, str, Any]]]]:
    """Plays one random match through the API; returns the judge's record and, per seat, every
    payload it was sent as (seq when sent, what, body)."""
    rng = random.Random(seed)
    got: dict[int, list[tuple[int, str, Any]]] = {1: [], 2: []}
    with TestClient(create_app("memory", environ={"KIFU_TEST_RULESETS": "1"})) as api:
        # a fixed seed (the service would draw one): the match is stored and given tokens as
        # POST /matches does, then played only through the routes
        presets = rules.content.presets()
        service = api.app.state.service
        match = Match.create(rules, match_id=str(uuid.UUID(int=seed)), seed=seed, players=("ann", "bob"),
                             decks=[rules.content.load_deck(d) for d in DECKS.get(rules.name) or
                                    (rng.choice(presets), rng.choice(presets))])
        tokens = service.tokens.issue(match.header.match_id)
        service.store.create(match)
        mid = match.header.match_id
        bots = {s: rules.content.bots["random"](seed * 2 + s) for s in (1, 2)}
        for _ in range(decisions):
            views = {}
            for s in (1, 2):
                v = api.get(f"/matches/{mid}/view", params={"position": "true"},
                            headers=bearer(tokens[f"seat{s}"])).json()
                got[s].append((v["seq"], "view", {k: v[k] for k in ("view", "layout", "legal", "position")}))
                views[s] = v
            if views[1]["outcome"] is not None or not views[1]["awaiting"]:
                break
            seat = rng.choice(views[1]["awaiting"])
            mine = views[seat]
            legal = [msgspec.convert(c, rules.decider.command_type) for c in mine["legal"]]
            command = msgspec.to_builtins(bots[seat].choose(Seen(seat, legal)))
            if rng.random() < 0.1:   # a refused request too: its body must not name a secret either
                bad = api.post(f"/matches/{mid}/decisions", headers=bearer(tokens[f"seat{seat}"]),
                               json={"seq": mine["seq"], "command": {**command, "type": "Nope"}})
                got[seat].append((mine["seq"], "error", bad.json()))
            answer = api.post(f"/matches/{mid}/decisions", headers=bearer(tokens[f"seat{seat}"]),
                              json={"seq": mine["seq"], "command": command})
            assert answer.status_code in (200, 409), answer.text
            body = answer.json()
            got[seat].append((body.get("seq", mine["seq"]), "decision", body))
            COUNTS["decisions"] += 1
        for s in (1, 2):
            page = api.get(f"/matches/{mid}/events", params={"after": 0, "limit": 5000},
                           headers=bearer(tokens[f"seat{s}"])).json()
            last = page["events"][-1]["seq"] if page["events"] else 0
            for env in page["events"]:
                got[s].append((env["seq"], "events", env))
            if views[1]["outcome"] is not None:   # the stream ends on its own only once the match is over
                with api.stream("GET", f"/matches/{mid}/stream", headers=bearer(tokens[f"seat{s}"])) as r:
                    for line in r.iter_lines():
                        if line.startswith("data:") and line[5:].strip().startswith("{"):
                            data = json.loads(line[5:])
                            got[s].append((data.get("seq", last), "stream", data))
        record = api.get(f"/matches/{mid}/record", headers=bearer(tokens["judge"])).content
    return record, got


def leaks(rules: Any, record: bytes, got: dict[int, list[tuple[int, str, Any]]]) -> list[str]:
    found = []
    for seat, payloads in got.items():
        secret = secret_up_to(rules, record, seat)
        for seq, what, body in payloads:
            COUNTS["payloads"] += 1
            hidden = secret[min(seq, len(secret) - 1)]
            for value, card_key in ints(body):
                COUNTS["ints"] += 1
                cards = named(value, card_key)
                COUNTS["ids"] += len(cards)
                hit = [c for c in cards if c in hidden]
                if hit:
                    found.append(f"seat {seat} at seq {seq} ({what}) is sent {value}, naming secret card {hit[0]}: "
                                 f"{json.dumps(body, ensure_ascii=False)[:300]}")
            if counted(body):
                found.append(f"seat {seat} at seq {seq} ({what}) is sent a pending choice's options with a hidden "
                             f"card among them (their number counts hidden cards): "
                             f"{json.dumps(body, ensure_ascii=False)[:300]}")
    return found


Played = tuple[bytes, dict[int, list[tuple[int, str, Any]]]]


def scan(name: str, seeds: Iterable[int], play: Callable[[Any, int], Played], how: str) -> None:
    """Play ``name`` at each seed and fail on the first match where a seat is sent a card it may
    not see; print the scan's counts (the closing note's figures) under ``how``."""
    rules = find_ruleset(name)
    if rules.visibility.mask is None:
        pytest.skip(f"{name} has no mask: nothing is hidden")
    before = dict(COUNTS)
    for seed in seeds:
        record, got = play(rules, seed)
        COUNTS["matches"] += 1
        found = leaks(rules, record, got)
        assert not found, "\n".join(found[:5])
    print(f"\n{tally(name, before)} ({how})")


@pytest.mark.parametrize("name", ruleset_names())
def test_no_seat_payload_names_a_card_the_seat_may_not_see(name: str) -> None:
    scan(name, (58, 69), lambda rules, seed: play_and_collect(rules, seed, decisions=150),
         "API, 150 decisions a match")


@pytest.mark.slow
@pytest.mark.parametrize("name", ruleset_names())
def test_no_leak_over_many_whole_matches(name: str) -> None:
    scan(name, range(100, 106), lambda rules, seed: play_and_collect(rules, seed, decisions=2000),
         "API, whole matches")


def play_in_process(rules: Any, seed: int) -> Played:
    """A fixed-seed random match in memory, and what the service's own functions would send each
    seat: every event (``redacted``, as /events, /stream and decisions do), and at every decision
    point its view, layout and legal list (``MatchService.seat_view``)."""
    from kifu.domain.core.driver import drive
    from kifu.domain.core.record import encode_record
    from kifu.service.matches import MatchService

    presets = rules.content.presets()
    rng = random.Random(seed)
    match = Match.create(rules, match_id=f"scan-{seed}", seed=seed, players=("ann", "bob"),
                         decks=[rules.content.load_deck(rng.choice(presets)),
                                rules.content.load_deck(rng.choice(presets))])
    got: dict[int, list[tuple[int, str, Any]]] = {1: [], 2: []}

    def shown(seat: int, envelopes: list[Any]) -> None:
        for s in (1, 2):
            view = MatchService.seat_view(match, s, position=True)
            got[s].append((match.seq, "view", msgspec.to_builtins(view)))

    drive(match, {s: rules.content.bots["random"](seed * 2 + s) for s in (1, 2)}, shown=shown, limit=3000)
    from kifu.domain.core.visibility import redacted

    initial = rules.decider.initial_state(match.header)
    for s in (1, 2):
        for env in redacted(rules, initial, match.envelopes, s):
            got[s].append((env.seq, "events", msgspec.to_builtins(env)))
    return encode_record(match.header, match.envelopes), got


IN_PROCESS_SEEDS = {"worlfard": 12, "reigeki": 6}


@pytest.mark.slow
@pytest.mark.parametrize("name", ruleset_names())
def test_no_event_or_view_names_a_hidden_card_over_fixed_seed_matches(name: str) -> None:
    scan(name, range(58, 58 + IN_PROCESS_SEEDS.get(name, 4)), play_in_process, "in process, every decision point")
