"""Swiss pairings and the top cut, on the pure rules: score groups, no rematches, byes, seats."""
from __future__ import annotations

import random

import pytest

from kifu.domain.core.errors import Illegal
from kifu.domain.tournament import decide, fold
from kifu.domain.tournament.events import Create, Drop, Pair, Record, Register, ResultRecorded, RoundPaired, StartGame
from kifu.domain.tournament.standings import points_of
from kifu.domain.tournament.state import State
from kifu.domain.tournament.swiss import bracket, rounds_for


def _event(players: int, rounds: int = 0, top_cut: int = 0) -> State:
    state = fold(decide(State(), Create(name="swiss", ruleset="reigeki", rounds=rounds, top_cut=top_cut)))
    for i in range(1, players + 1):
        state = fold(decide(state, Register(player=f"p{i:02}", deck_name="d", deck={"n": i})), state)
    return state


def _play_round(state: State, rng: random.Random) -> State:
    paired = decide(state, Pair())
    state = fold(paired, state)
    rnd = state.rounds[-1]
    for t in rnd.tables:
        if t.seat2 is None:
            continue
        state = fold(decide(state, StartGame(round=rnd.number, table=t.table, match_id=f"{rnd.number}-{t.table}")),
                     state)
        winner = rng.choice([t.seat1, t.seat2])
        state = fold(decide(state, Record(round=rnd.number, table=t.table, winners=(winner,),
                                          games=(f"{rnd.number}-{t.table}",))), state)
    return state


@pytest.mark.parametrize("players", [16, 15, 9])
def test_swiss_rounds_pair_score_groups_without_rematches(players: int) -> None:
    rng = random.Random(players)
    state = _event(players)
    assert rounds_for(players) == 4
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for _ in range(4):
        before = points_of(state)
        state = _play_round(state, rng)
        tables = state.rounds[-1].tables
        seated = [p for t in tables for p in (t.seat1, t.seat2) if p is not None]
        assert sorted(seated) == sorted(state.players)            # everyone once
        for t in tables:
            if t.seat2 is None:
                byes.append(t.seat1)
                lowest = min(before[p] for p in state.players if p not in byes[:-1])
                assert before[t.seat1] == lowest                   # the bye: lowest score without one
                continue
            pair = frozenset((t.seat1, t.seat2))
            assert pair not in met                                 # no rematch
            met.add(pair)
            assert abs(before[t.seat1] - before[t.seat2]) <= 3     # score groups, a pair-down at most
    assert len(byes) == len(set(byes)) == (4 if players % 2 else 0)
    with pytest.raises(Illegal) as over:
        decide(state, Pair())
    assert over.value.clause == "E-pair"


def test_seats_balance_who_goes_first() -> None:
    state = _event(16)
    rng = random.Random(7)
    for _ in range(4):
        state = _play_round(state, rng)
    firsts: dict[str, int] = {}
    for r in state.rounds:
        for t in r.tables:
            for g in t.games:
                firsts[g.seat1] = firsts.get(g.seat1, 0) + 1
    assert all(1 <= firsts.get(p, 0) <= 3 for p in state.players), firsts


def test_a_round_waits_for_every_result() -> None:
    state = _event(4)
    state = fold(decide(state, Pair()), state)
    with pytest.raises(Illegal, match="round 1 is not over"):
        decide(state, Pair())


def test_a_dropped_player_is_not_paired_again() -> None:
    state = _play_round(_event(8, rounds=3), random.Random(1))
    state = fold(decide(state, Drop(player="p01")), state)
    state = _play_round(state, random.Random(2))
    assert all("p01" not in (t.seat1, t.seat2) for t in state.rounds[-1].tables)
    assert state.rounds[-1].tables[-1].seat2 is None      # 7 left: a bye


def test_the_top_cut_is_seeded_by_the_standings_and_bracketed() -> None:
    assert bracket(4) == [1, 4, 2, 3] and bracket(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    state = _event(16, rounds=4, top_cut=4)
    rng = random.Random(3)
    for _ in range(4):
        state = _play_round(state, rng)
    from kifu.domain.tournament.standings import standings
    seeds = [r.player for r in standings(state).rows][:4]
    events = decide(state, Pair())
    paired = events[0]
    assert isinstance(paired, RoundPaired) and paired.stage == "top"
    assert [(t.seat1, t.seat2) for t in paired.tables] == [(seeds[0], seeds[3]), (seeds[1], seeds[2])]
    assert type(events[1]).__name__ == "DecksPublished"     # the top cut's lists become public
    state = _play_round(state, rng)
    final = decide(state, Pair())[0]
    assert isinstance(final, RoundPaired) and len(final.tables) == 1
    winners = {t.winner() for t in state.rounds[-1].tables}
    assert {final.tables[0].seat1, final.tables[0].seat2} == winners


def test_best_of_three_needs_a_majority() -> None:
    state = fold(decide(State(), Create(name="bo3", ruleset="reigeki", rounds=1, best_of=3)))
    for p in ("a", "b"):
        state = fold(decide(state, Register(player=p, deck_name="d", deck={"n": p})), state)
    state = fold(decide(state, Pair()), state)
    for game in ("g1", "g2"):
        state = fold(decide(state, StartGame(round=1, table=1, match_id=game)), state)
    starts = [g for g in state.rounds[0].tables[0].games]
    assert [g.seat1 for g in starts] == ["a", "b"] or [g.seat1 for g in starts] == ["b", "a"]   # alternating
    with pytest.raises(Illegal, match="not decided"):
        decide(state, Record(round=1, table=1, winners=("a", "b"), games=("g1", "g2")))
    state = fold(decide(state, StartGame(round=1, table=1, match_id="g3")), state)
    done = decide(state, Record(round=1, table=1, winners=("a", "b", "a"), games=("g1", "g2", "g3")))
    first = state.rounds[0].tables[0].seat1
    assert done == [ResultRecorded(round=1, table=1, wins=(2, 1) if first == "a" else (1, 2), games=("g1", "g2", "g3"))]


def test_evolve_leaves_the_state_it_was_given_unchanged() -> None:
    import msgspec

    state = _play_round(_event(4, rounds=2), random.Random(5))
    before = msgspec.json.encode(state)
    later = _play_round(state, random.Random(6))
    later = fold(decide(later, Drop(player="p01")), later)
    assert msgspec.json.encode(state) == before and later.rounds[0].tables == state.rounds[0].tables
