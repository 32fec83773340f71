"""MTR Appendix C standings against an example computed by hand (the arithmetic is written out
below ``ROUNDS``): a 5-player event of 3 Swiss rounds, best of three, its pairings and results
given directly as the stream's events (not made by the pairing algorithm)."""
from __future__ import annotations

from fractions import Fraction

import pytest

from kifu.domain.core.errors import Illegal
from kifu.domain.tournament import decide, fold
from kifu.domain.tournament.events import (
    DecklistCorrected,
    Event,
    EventCreated,
    GameStarted,
    Pair,
    PlayerRegistered,
    Register,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    Table,
)
from kifu.domain.tournament.standings import MtrAppendixC, results, standings
from kifu.domain.tournament.state import State

PLAYERS = ("ann", "bob", "cat", "dan", "eve")


def _event(best_of: int = 3, rounds: int = 3) -> list[Event]:
    out: list[Event] = [EventCreated(name="hand", ruleset="reigeki", rounds=rounds, best_of=best_of)]
    out += [PlayerRegistered(player=p, deck_name="d", commitment=f"c-{p}", deck={"name": p}) for p in PLAYERS]
    return out


def _round(number: int, *tables: tuple[str, str | None, int, int, int]) -> list[Event]:
    out: list[Event] = [RoundPaired(round=number, tables=tuple(
        Table(table=i, seat1=a, seat2=b) for i, (a, b, *_rest) in enumerate(tables, start=1)))]
    for i, (a, b, w1, w2, d) in enumerate(tables, start=1):
        if b is not None:
            out.append(GameStarted(round=number, table=i, game=1, match_id=f"m{number}{i}", seat1=a,
                                   commitments=("x", "y")))
            out.append(ResultRecorded(round=number, table=i, wins=(w1, w2), draws=d))
    return out


ROUNDS = [
    _round(1, ("ann", "bob", 2, 0, 0), ("cat", "dan", 2, 1, 0), ("eve", None, 0, 0, 0)),
    _round(2, ("ann", "cat", 2, 1, 0), ("eve", "bob", 1, 1, 1), ("dan", None, 0, 0, 0)),
    _round(3, ("ann", "eve", 0, 2, 0), ("cat", "bob", 2, 0, 0), ("dan", None, 0, 0, 0)),
]
# Round 3 gives dan a second bye only to exercise the arithmetic; the pairing algorithm would not.
#
# Records (W-L-D, match points, games):
#   ann: W (2-0 bob), W (2-1 cat), L (0-2 eve)   = 6 points; games won 4, lost 3: GP 12 / (3×7) = 0.5714
#   bob: L (0-2 ann), D (1-1-1 eve), L (0-2 cat) = 1 point;  MW% 1/9 = 0.1111 → 0.33;
#        GP (3×1 + 1) = 4 / (3×7) = 0.1905 → 0.33
#   cat: W (2-1 dan), L (1-2 ann), W (2-0 bob)   = 6 points; GP (5×3) = 15 / (3×8) = 0.625
#   dan: L (1-2 cat), bye, bye                   = 6 points; GP (1 + 2 + 2 games won)×3 = 15 / (3×7) = 0.7143
#   eve: bye, D (1-1-1 bob), W (2-0 ann)         = 7 points; GP (2 + 1 + 2)×3 + 1 = 16 / (3×7) = 0.7619
# MW%: ann 6/9 = 0.6667, bob 0.33 (floor of 0.1111), cat 0.6667, dan 6/9 = 0.6667, eve 7/9 = 0.7778
# OMW% (byes left out):
#   ann: (bob 0.33 + cat 0.6667 + eve 0.7778) / 3 = 1.7745 / 3 = 0.5915
#   bob: (ann 0.6667 + eve 0.7778 + cat 0.6667) / 3 = 0.7037
#   cat: (dan 0.6667 + ann 0.6667 + bob 0.33) / 3 = 0.5544
#   dan: (cat 0.6667) / 1 = 0.6667
#   eve: (bob 0.33 + ann 0.6667) / 2 = 0.4983
# GW% floors: bob 0.1905 → 0.33
# OGW%: ann: (bob 0.33 + cat 0.625 + eve 0.7619) / 3 = 0.5723
# Order: eve 7; then ann, cat, dan on 6: OMW% dan 0.6667 > ann 0.5915 > cat 0.5544; bob 1 last.


def _state() -> State:
    return fold([*_event(), *(e for r in ROUNDS for e in r)])


def test_mtr_c_points_and_tiebreakers_match_the_hand_computation() -> None:
    s = standings(_state())
    assert s.spec == "mtr-c" and "MTR Appendix C" in s.spec_title
    order = [(r.player, r.points) for r in s.rows]
    assert order == [("eve", 7), ("dan", 6), ("ann", 6), ("cat", 6), ("bob", 1)]
    by = {r.player: {b.name: b.value for b in r.tiebreakers} for r in s.rows}
    third = Fraction(33, 100)
    assert by["ann"]["OMW%"] == round(float((third + Fraction(2, 3) + Fraction(7, 9)) / 3), 4) == 0.5915
    assert by["bob"]["OMW%"] == round(float((Fraction(2, 3) + Fraction(7, 9) + Fraction(2, 3)) / 3), 4) == 0.7037
    assert by["cat"]["OMW%"] == 0.5544
    assert by["dan"]["OMW%"] == 0.6667          # the byes are no opponents
    assert by["eve"]["OMW%"] == 0.4983
    assert by["ann"]["GW%"] == round(12 / 21, 4) == 0.5714
    assert by["bob"]["GW%"] == 0.33             # 4 / 21 = 0.1905, floored
    assert by["eve"]["GW%"] == round(16 / 21, 4) == 0.7619
    assert by["dan"]["GW%"] == round(15 / 21, 4) == 0.7143   # each bye a 2-0
    assert by["ann"]["OGW%"] == round((0.33 + 15 / 24 + 16 / 21) / 3, 4) == 0.5723


def test_mtr_c_shows_each_tiebreaker_with_its_arithmetic() -> None:
    rows = {r.player: r for r in standings(_state()).rows}
    ann = {b.name: b.arithmetic for b in rows["ann"].tiebreakers}
    assert ann["OMW%"] == "OMW% = (0.3300 + 0.6667 + 0.7778) / 3 = 0.5915"
    assert ann["GW%"] == "GW% = 12 / (3 × 7) = 0.5714"
    assert "→ 0.33 floor" in {b.name: b.arithmetic for b in rows["bob"].tiebreakers}["GW%"]
    assert rows["dan"].points_arithmetic == "6 = 3 × 2 won (incl. 2 bye)"
    assert rows["eve"].points_arithmetic == "7 = 3 × 2 won + 1 × 1 drawn (incl. 1 bye)"


def test_standings_after_a_round_count_only_that_far() -> None:
    s = standings(_state(), upto=1)
    assert s.after_round == 1
    assert {r.player: r.points for r in s.rows} == {"ann": 3, "cat": 3, "eve": 3, "bob": 0, "dan": 0}


def test_a_correction_changes_the_standings_and_keeps_its_reason() -> None:
    state = fold([*_event(), *ROUNDS[0], ResultCorrected(round=1, table=1, wins=(0, 2), judge="jo",
                                                          reason="scoresheet swapped")])
    table = state.table(1, 1)
    assert table is not None and table.corrected == "scoresheet swapped" and table.winner() == "bob"
    assert {r.player: r.points for r in standings(state).rows}["bob"] == 3


def test_a_late_entry_has_a_match_loss_for_each_missed_round() -> None:
    state = fold([*_event(), *ROUNDS[0]])
    events = decide(state, Register(player="fay", deck_name="d", deck={"name": "fay"}))
    assert isinstance(events[0], PlayerRegistered) and events[0].missed == 1
    later = fold(events, state)
    rows = results(later)["fay"]
    assert [(r.kind, r.result) for r in rows] == [("missed", "L")]
    assert MtrAppendixC.mw(rows) == Fraction(33, 100)


def test_the_lists_lock_when_round_1_is_paired() -> None:
    state = fold(_event(rounds=3))
    again = decide(state, Register(player="ann", deck_name="e", deck={"name": "other"}))
    assert isinstance(again[0], PlayerRegistered) and again[0].commitment != "c-ann"   # before round 1: replaced
    paired = fold(decide(state, Pair()), state)
    with pytest.raises(Illegal) as refused:
        decide(paired, Register(player="ann", deck_name="e", deck={"name": "other"}))
    assert refused.value.clause == "E-decklist-lock"
    corrected = decide(paired, Register(player="ann", deck_name="e", deck={"name": "other"}, judge="jo",
                                        reason="typo in the registered list"))
    assert isinstance(corrected[0], DecklistCorrected) and corrected[0].reason == "typo in the registered list"
