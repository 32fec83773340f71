"""Pairings: Swiss rounds, then a single-elimination top cut seeded by the standings.

Swiss round R (``pair_swiss``), the algorithm docs/events.md describes:

1. The players to pair: registered, not dropped. Order: match points, highest first; within a
   score group a shuffle fixed by the event's name and the round (SHA-256 of
   ``name/round/player``), so pairings are random within a group yet reproducible from the stream.
2. An odd count: the bye goes to the lowest-ranked player (by the standings, tiebreakers
   included) who has not had one, as long as the rest can still be paired.
3. Top down: the first unpaired player meets the next one in the order they have not met yet;
   when that leaves the rest unpairable, the next candidate (depth-first, backtracking). A
   score group with an odd count so pairs its last player down. If no pairing without a
   rematch exists (a tiny event late on), rematches are allowed, fewest first.
4. Seats: the player who has been seat 1 (goes first) fewer times in earlier rounds is seat 1;
   equal, the higher-placed. Tables are numbered from the top; the bye is listed last.

Rounds when ``auto``: ceil(log2(players)), at least 1: the fewest rounds that leave at most one
undefeated player (9–16 players: 4 rounds).

Top cut of N (``pair_top``): the first N of the standings after the last Swiss round (dropped
players left out), bracketed so that seeds 1 and 2 can meet only in the final (top 4: 1–4 and
2–3; top 8: 1–8, 4–5, 3–6, 2–7); each later round pairs the winners of tables 1 and 2, 3 and 4,
…; the better seed is seat 1.
"""
from __future__ import annotations

import hashlib
import math

from .events import Table
from .standings import results, standings
from .state import State

SEARCH_BUDGET = 200_000      # depth-first steps before rematches are allowed


def rounds_for(players: int) -> int:
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1


def _shuffle_key(event: str, round_number: int, player: str) -> str:
    return hashlib.sha256(f"{event}/{round_number}/{player}".encode()).hexdigest()


def met(state: State) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {p: set() for p in state.players}
    for r in state.rounds:
        for t in r.tables:
            if t.seat2 is not None:
                out[t.seat1].add(t.seat2)
                out[t.seat2].add(t.seat1)
    return out


def had_bye(state: State) -> set[str]:
    return {t.seat1 for r in state.rounds for t in r.tables if t.seat2 is None}


def firsts(state: State) -> dict[str, int]:
    """How often each player was seat 1 (went first) in earlier games."""
    out = dict.fromkeys(state.players, 0)
    for r in state.rounds:
        for t in r.tables:
            for g in t.games:
                out[g.seat1] = out.get(g.seat1, 0) + 1
    return out


def pair_swiss(state: State, round_number: int) -> tuple[Table, ...]:
    assert state.created is not None
    name = state.created.name
    players = state.active(round_number)
    points = {p: sum(r.points for r in rows) for p, rows in results(state).items()}
    order = sorted(players, key=lambda p: (-points[p], _shuffle_key(name, round_number, p)))
    ranked = [row.player for row in standings(state).rows if row.player in set(players)]
    opponents = met(state)
    byes = had_bye(state)
    bye: str | None = None
    pairs: list[tuple[str, str]] | None = None
    for allow in (0, 1, 2, 3):
        if len(order) % 2:
            candidates = [p for p in reversed(ranked) if p not in byes] or list(reversed(ranked))
            for candidate in candidates:
                rest = [p for p in order if p != candidate]
                pairs = _pair(rest, opponents, allow)
                if pairs is not None:
                    bye = candidate
                    break
        else:
            pairs = _pair(order, opponents, allow)
        if pairs is not None:
            break
    assert pairs is not None   # with every rematch allowed, any even list pairs
    seat1 = firsts(state)
    place = {p: i for i, p in enumerate(order)}
    tables = []
    for number, (a, b) in enumerate(pairs, start=1):
        first, second = (a, b) if (seat1.get(a, 0), place[a]) <= (seat1.get(b, 0), place[b]) else (b, a)
        tables.append(Table(table=number, seat1=first, seat2=second))
    if bye is not None:
        tables.append(Table(table=len(tables) + 1, seat1=bye))
    return tuple(tables)


def _pair(order: list[str], opponents: dict[str, set[str]], allow: int) -> list[tuple[str, str]] | None:
    """Top-down depth-first pairing of ``order`` with at most ``allow`` rematches."""
    steps = 0

    def go(rest: list[str], rematches: int) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not rest:
            return []
        steps += 1
        if steps > SEARCH_BUDGET:
            return None
        first, others = rest[0], rest[1:]
        for i, other in enumerate(others):
            again = other in opponents.get(first, set())
            if again and rematches >= allow:
                continue
            tail = go(others[:i] + others[i + 1:], rematches + again)
            if tail is not None:
                return [(first, other), *tail]
        return None

    return go(order, 0)


def bracket(size: int) -> list[int]:
    """Seed order of a single-elimination bracket: 4 -> [1, 4, 2, 3], 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    seeds = [1]
    while len(seeds) < size:
        n = len(seeds) * 2
        seeds = [s for seed in seeds for s in (seed, n + 1 - seed)]
    return seeds


def cut(state: State) -> list[str]:
    """The top-cut players, best seed first."""
    assert state.created is not None
    swiss_done = max((r.number for r in state.rounds if r.stage == "swiss"), default=0)
    rows = [row.player for row in standings(state, swiss_done).rows if not row.dropped]
    return rows[:state.created.top_cut]


def pair_top(state: State, round_number: int) -> tuple[Table, ...]:
    seeds = cut(state)
    seed_of = {p: i for i, p in enumerate(seeds, start=1)}
    top = [r for r in state.rounds if r.stage == "top"]
    if not top:
        order = [seeds[s - 1] for s in bracket(len(seeds))]
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    else:
        winners = [t.winner() for t in top[-1].tables]
        pairs = [(str(winners[i]), str(winners[i + 1])) for i in range(0, len(winners), 2)]
    tables = []
    for number, (a, b) in enumerate(pairs, start=1):
        first, second = (a, b) if seed_of[a] < seed_of[b] else (b, a)
        tables.append(Table(table=number, seat1=first, seat2=second))
    return tuple(tables)
