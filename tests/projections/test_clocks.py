"""Decision times from the record's ``received`` stamps, seat clocks and the round timer."""
from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kifu.domain.core.bot import RandomBot, Seen
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.projections.clocks import (
    DecisionTime,
    SeatClock,
    clock_text,
    decision_times,
    extensions,
    match_clock,
    round_clock,
    seat_clocks,
)

START = "2026-11-28T10:00:00.000Z"


def header(date: str | None = START) -> Header:
    return Header(match_id="m", ruleset="stand-in", rules_version="1", card_set="-", seed=1,
                  players=("a", "b"), decks=(), date=date)


def decision(seq: int, seat: int, received: str | None) -> Envelope[Any]:
    return Envelope(seq=seq, kind="decision", event={"x": seq}, seat=seat, received=received)


def rule(seq: int) -> Envelope[Any]:
    return Envelope(seq=seq, kind="rule", event={"x": seq})


class TimeExtension(msgspec.Struct, frozen=True):     # the judge's payload, as kifu.domain.core.judging names it
    judge: str
    seat: int | None
    minutes: float


def record() -> list[Envelope[Any]]:
    return [rule(1),
            decision(2, 1, "2026-11-28T10:00:04.500Z"),     # 4.5 s after the match was created
            rule(3),
            decision(4, 2, "2026-11-28T10:00:14.500Z"),     # 10 s
            decision(5, 1, "2026-11-28T10:00:15.000Z"),     # 0.5 s
            decision(6, 1, "2026-11-28T10:01:15.000Z"),     # 60 s
            decision(7, 2, "2026-11-28T10:01:17.250Z")]     # 2.25 s


def test_each_decision_is_timed_from_the_previous_decisions_stamp_or_the_header() -> None:
    assert decision_times(header(), record()) == [
        DecisionTime(2, 1, 4.5), DecisionTime(4, 2, 10.0), DecisionTime(5, 1, 0.5),
        DecisionTime(6, 1, 60.0), DecisionTime(7, 2, 2.25)]


def test_an_unstamped_decision_and_the_one_after_it_have_no_time() -> None:
    envs = record()
    envs[3] = decision(4, 2, None)
    times = decision_times(header(date=None), envs)
    assert [t.seconds for t in times] == [None, None, None, 60.0, 2.25]


def test_seat_clocks_total_median_longest_per_seat_and_up_to_a_seq() -> None:
    clocks = seat_clocks(header(), record())
    assert clocks == {1: SeatClock(1, 3, 65.0, 4.5, 60.0), 2: SeatClock(2, 2, 12.25, 6.125, 10.0)}
    assert seat_clocks(header(), record(), upto=4) == {1: SeatClock(1, 1, 4.5, 4.5, 4.5),
                                                       2: SeatClock(2, 1, 10.0, 10.0, 10.0)}
    assert seat_clocks(header(), []) == {1: SeatClock(1, 0, 0.0, 0.0, 0.0), 2: SeatClock(2, 0, 0.0, 0.0, 0.0)}


def test_the_round_timer_counts_down_from_the_start_plus_the_judges_extensions() -> None:
    envs = [*record(), Envelope(seq=8, kind="rule", event=TimeExtension(judge="J", seat=2, minutes=3)),
            Envelope(seq=9, kind="rule", event=TimeExtension(judge="J", seat=None, minutes=2))]
    assert extensions(envs) == {2: 3.0, None: 2.0}
    clock = round_clock(START, 50, "2026-11-28T10:49:00.000Z", envs)
    assert (clock.extension, clock.elapsed, clock.remaining, clock.over) == (5.0, 2940.0, 360.0, False)
    late = round_clock(START, 50, "2026-11-28T10:56:00.000Z", envs)
    assert late.remaining == -60.0 and late.over
    assert match_clock(header(), envs, 50, "2026-11-28T10:10:00Z") == round_clock(START, 50, "2026-11-28T10:10:00Z",
                                                                                 envs)
    assert match_clock(header(date=None), envs, 50, START) is None
    with pytest.raises(ValueError, match="not an ISO 8601"):
        round_clock("yesterday", 50, START)


def test_clock_text() -> None:
    assert [clock_text(x) for x in (None, 4.25, 65, 3725, -42)] == ["–", "4.2s", "1:05", "1:02:05", "-42.0s"]


def test_a_played_match_has_a_time_for_every_decision_it_stamped() -> None:
    rules = find_ruleset("worlfard")
    presets = rules.content.presets()
    match = Match.create(rules, match_id="00000000-0000-4000-8000-000000000001", seed=4,
                         decks=[rules.content.load_deck(p) for p in presets[:2]], players=("a", "b"), date=START)
    bots = {1: RandomBot(1), 2: RandomBot(2)}
    for n in range(40):
        if match.outcome is not None:
            break
        seat = min(match.awaiting)
        stamp = f"2026-11-28T10:{n // 60:02d}:{n % 60:02d}.000Z"
        match.submit(seat, bots[seat].choose(Seen(seat, match.legal(seat))), received=stamp)
    times = decision_times(match.header, match.envelopes)
    assert times and times[0].seconds == 0.0 and all(t.seconds == 1.0 for t in times[1:])
    assert [t.seq for t in times] == [e.seq for e in match.envelopes if e.kind == "decision"]
    clocks = seat_clocks(match.header, match.envelopes)
    assert sum(c.decisions for c in clocks.values()) == len(times)


def test_the_viewers_data_has_each_decisions_time_and_the_seat_clocks_at_every_frame() -> None:
    from kifu.projections.viewdata import ViewSource

    rules = find_ruleset("worlfard")
    presets = rules.content.presets()
    match = Match.create(rules, match_id="00000000-0000-4000-8000-000000000002", seed=5,
                         decks=[rules.content.load_deck(p) for p in presets[:2]], players=("a", "b"), date=START)
    bots = {1: RandomBot(1), 2: RandomBot(2)}
    for n in range(12):
        seat = min(match.awaiting)
        match.submit(seat, bots[seat].choose(Seen(seat, match.legal(seat))), received=f"2026-11-28T10:00:{2 * n:02d}Z")
    source = ViewSource(rules, match.header, list(match.envelopes), 2)
    events = source.events()
    timed = [e for e in events if "took" in e]
    assert [e["seq"] for e in timed] == [e.seq for e in match.envelopes if e.kind == "decision"]
    assert all(e["kind"] == "decision" for e in timed) and [e["took"] for e in timed[1:]] == [2.0] * 11
    meta = source.meta()["clocks"]
    assert meta["1"]["decisions"] + meta["2"]["decisions"] == 12
    assert meta == {k: msgspec.to_builtins(v) for k, v in
                    {str(s): c for s, c in seat_clocks(match.header, match.envelopes).items()}.items()}
    first = timed[0]["seq"]
    at_first = source.frame(first)["clocks"]
    assert sum(c["decisions"] for c in at_first.values()) == 1
    assert source.frame(0)["clocks"] == {"1": msgspec.to_builtins(SeatClock(1, 0, 0.0, 0.0, 0.0)),
                                         "2": msgspec.to_builtins(SeatClock(2, 0, 0.0, 0.0, 0.0))}


def test_kifu_replay_shows_the_clock_line(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from kifu.cli.main import cli
    from kifu.domain.core.record import encode_record

    rules = find_ruleset("worlfard")
    presets = rules.content.presets()
    match = Match.create(rules, match_id="00000000-0000-4000-8000-000000000003", seed=6,
                         decks=[rules.content.load_deck(p) for p in presets[:2]], players=("a", "b"), date=START)
    bots = {1: RandomBot(1), 2: RandomBot(2)}
    for n in range(6):
        seat = min(match.awaiting)
        match.submit(seat, bots[seat].choose(Seen(seat, match.legal(seat))), received=f"2026-11-28T10:0{n}:00.000Z")
    path = tmp_path / "m.kifu.jsonl"
    path.write_bytes(encode_record(match.header, match.envelopes))
    last = [e.seq for e in match.envelopes if e.kind == "decision"][-1]
    result = CliRunner().invoke(cli, ["replay", str(path), "--at", str(last)])
    assert result.exit_code == 0, result.output
    clocks = seat_clocks(match.header, match.envelopes)
    line = result.output.strip().splitlines()[-1]
    assert line.startswith("clock: took 1:00 · seat 1 ") and f"seat 1 {clock_text(clocks[1].total)}" in line
    assert f"seat 2 {clock_text(clocks[2].total)} (median {clock_text(clocks[2].median)})" in line
