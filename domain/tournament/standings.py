"""Standings: match points and named tiebreakers, each shown with its arithmetic.

A spec is a named way of ranking (``SPECS``); ``mtr-c`` is Magic: The Gathering's Tournament
Rules, Appendix C, as implemented here:

- match points: 3 for a match won, 1 for a draw, 0 for a loss; a bye is a match won 2–0 (3
  match points, 6 game points); a round missed before a late entry is a match lost (0 points,
  no games);
- MW% (a player's match-win percentage): match points / (3 × rounds played), at least 0.33;
- OMW%: the average of the player's opponents' MW%, rounds with a bye left out (a bye is no
  opponent); a player with no opponent yet has OMW% 0.33 (the floor);
- GW%: game points / (3 × games played), game points 3 per game won and 1 per game drawn, at
  least 0.33;
- OGW%: the average of the opponents' GW%, byes left out.
Order: match points, then OMW%, GW%, OGW%; what is still equal is ordered by name (an MTR event
would break it at random). Only Swiss rounds count; top-cut matches do not change standings.
Another spec (Pokémon's resistance, say) is another ``Spec`` in ``SPECS``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal, Protocol

import msgspec

from .state import State

FLOOR = Fraction(33, 100)
Kind = Literal["match", "bye", "missed"]


class RoundResult(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    kind: Kind
    opponent: str | None = None
    result: Literal["W", "L", "D"]
    games_won: int = 0
    games_lost: int = 0
    games_drawn: int = 0

    @property
    def points(self) -> int:
        return {"W": 3, "D": 1, "L": 0}[self.result]


class Tiebreak(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    value: float            # rounded to 4 places; the order uses the exact fraction
    arithmetic: str


class Row(msgspec.Struct, frozen=True, kw_only=True):
    rank: int
    player: str
    points: int
    record: str              # won-lost-drawn
    points_arithmetic: str
    tiebreakers: tuple[Tiebreak, ...]
    dropped: bool = False


class Standings(msgspec.Struct, frozen=True, kw_only=True):
    event: str
    spec: str                # the spec's name
    spec_title: str
    after_round: int
    rows: tuple[Row, ...]


def results(state: State, upto: int | None = None) -> dict[str, list[RoundResult]]:
    """Each player's Swiss results of the rounds up to ``upto`` whose tables are recorded."""
    out: dict[str, list[RoundResult]] = {name: [] for name in state.players}
    for name, p in state.players.items():
        for r in range(1, p.missed + 1):
            if upto is None or r <= upto:
                out[name].append(RoundResult(round=r, kind="missed", result="L"))
    for rnd in state.rounds:
        if rnd.stage != "swiss" or (upto is not None and rnd.number > upto):
            continue
        for t in rnd.tables:
            if t.seat2 is None:
                out[t.seat1].append(RoundResult(round=rnd.number, kind="bye", result="W", games_won=2))
                continue
            if t.wins is None:
                continue
            w1, w2 = t.wins
            r1: Literal["W", "L", "D"] = "W" if w1 > w2 else "L" if w1 < w2 else "D"
            r2: Literal["W", "L", "D"] = "W" if w2 > w1 else "L" if w2 < w1 else "D"
            out[t.seat1].append(RoundResult(round=rnd.number, kind="match", opponent=t.seat2, result=r1,
                                            games_won=w1, games_lost=w2, games_drawn=t.draws))
            out[t.seat2].append(RoundResult(round=rnd.number, kind="match", opponent=t.seat1, result=r2,
                                            games_won=w2, games_lost=w1, games_drawn=t.draws))
    for rows in out.values():
        rows.sort(key=lambda r: r.round)
    return out


class Spec(Protocol):
    name: str
    title: str

    def rank(self, table: dict[str, list[RoundResult]], dropped: set[str]) -> list[Row]: ...


def _fmt(value: Fraction) -> str:
    return f"{float(value):.4f}"


def _floored(value: Fraction) -> Fraction:
    return max(value, FLOOR)


class MtrAppendixC:
    name = "mtr-c"
    title = "MTR Appendix C (match points; OMW%, GW%, OGW%; 0.33 floor; byes left out of opponents)"

    @staticmethod
    def mw(rows: Sequence[RoundResult]) -> Fraction:
        if not rows:
            return FLOOR
        return _floored(Fraction(sum(r.points for r in rows), 3 * len(rows)))

    @staticmethod
    def gw(rows: Sequence[RoundResult]) -> Fraction:
        played = sum(r.games_won + r.games_lost + r.games_drawn for r in rows)
        if not played:
            return FLOOR
        return _floored(Fraction(sum(3 * r.games_won + r.games_drawn for r in rows), 3 * played))

    def rank(self, table: dict[str, list[RoundResult]], dropped: set[str]) -> list[Row]:
        mw = {p: self.mw(rows) for p, rows in table.items()}
        gw = {p: self.gw(rows) for p, rows in table.items()}
        keyed = []
        for player, rows in table.items():
            points = sum(r.points for r in rows)
            opponents = [r.opponent for r in rows if r.kind == "match" and r.opponent is not None]
            omw, omw_text = _average("OMW%", opponents, mw)
            ogw, ogw_text = _average("OGW%", opponents, gw)
            game_points = sum(3 * r.games_won + r.games_drawn for r in rows)
            games = sum(r.games_won + r.games_lost + r.games_drawn for r in rows)
            raw_gw = Fraction(game_points, 3 * games) if games else None
            gw_text = (f"GW% = {game_points} / (3 × {games}) = {_fmt(raw_gw)}"
                       + (" → 0.33 floor" if raw_gw < FLOOR else "")) if raw_gw is not None else \
                "GW% = no games → 0.33 floor"
            won = sum(r.result == "W" for r in rows)
            lost = sum(r.result == "L" for r in rows)
            drawn = sum(r.result == "D" for r in rows)
            byes = sum(r.kind == "bye" for r in rows)
            parts = [f"3 × {won} won"] + ([f"1 × {drawn} drawn"] if drawn else [])
            points_text = f"{points} = " + " + ".join(parts) + (f" (incl. {byes} bye)" if byes else "")
            breaks = (Tiebreak(name="OMW%", value=round(float(omw), 4), arithmetic=omw_text),
                      Tiebreak(name="GW%", value=round(float(gw[player]), 4), arithmetic=gw_text),
                      Tiebreak(name="OGW%", value=round(float(ogw), 4), arithmetic=ogw_text))
            keyed.append(((-points, -omw, -gw[player], -ogw, player), player, points, f"{won}-{lost}-{drawn}",
                          points_text, breaks))
        keyed.sort(key=lambda k: k[0])
        return [Row(rank=i, player=player, points=points, record=record, points_arithmetic=text, tiebreakers=breaks,
                    dropped=player in dropped)
                for i, (_, player, points, record, text, breaks) in enumerate(keyed, start=1)]


def _average(name: str, opponents: list[str], pct: dict[str, Fraction]) -> tuple[Fraction, str]:
    if not opponents:
        return FLOOR, f"{name} = no opponents (byes left out) → 0.33 floor"
    values = [pct[o] for o in opponents]
    total = sum(values, Fraction(0))
    mean = total / len(values)
    terms = " + ".join(_fmt(v) for v in values)
    return mean, f"{name} = ({terms}) / {len(values)} = {_fmt(mean)}"


SPECS: dict[str, Callable[[], Spec]] = {"mtr-c": MtrAppendixC}


def standings(state: State, upto: int | None = None) -> Standings:
    """The standings after Swiss round ``upto`` (default: every recorded round)."""
    assert state.created is not None
    spec = SPECS[state.created.spec]()
    swiss = [r.number for r in state.rounds if r.stage == "swiss" and (upto is None or r.number <= upto)]
    after = max(swiss, default=0)
    dropped = {p.name for p in state.players.values() if p.dropped_after is not None}
    rows = spec.rank(results(state, upto), dropped)
    return Standings(event=state.created.name, spec=spec.name, spec_title=spec.title, after_round=after,
                     rows=tuple(rows))


def points_of(state: State, upto: int | None = None) -> dict[str, int]:
    return {p: sum(r.points for r in rows) for p, rows in results(state, upto).items()}
