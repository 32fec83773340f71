"""Positions for the masters rule tests: a real match after setup, then the pieces a test needs.

``Pos`` starts from a match whose coin made seat 1 the first player, both hands kept; it then
moves named cards out of a seat's deck (or hand) to where the test wants them, so every card
stays in exactly one zone. ``do`` plays a command on a ``Match`` started from that prepared
position (a real record: seqs, clauses and causes), so tests read what a judge would.

Both seats play ``EVERY_CARD``: every card of the sample set, at least once.
"""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

import kifu.domain.masters.ruleset  # noqa: F401  (registers "masters")
from kifu.domain.core import priority as prio
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Illegal
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.masters import commands as c
from kifu.domain.masters.board import square
from kifu.domain.masters.cards import catalog
from kifu.domain.masters.decks import DeckList, validate
from kifu.domain.masters.state import Mana, Piece, State

RULESET = find_ruleset("masters")
_NAMES = sorted(catalog())
EVERY_CARD = validate(DeckList(name="every-card", cards=tuple(
    n for i, n in enumerate(_NAMES) for _ in range(2 if i < 18 else 1))))

__all__ = ["RULESET", "EVERY_CARD", "Pos", "started", "sq", "c", "kinds", "of", "illegal"]


def sq(name: str) -> int:
    """``"c3"`` -> the square int (column letter, row number)."""
    return square(int(name[1:]), "abcdefghij".index(name[0]) + 1)


def started(seed: int | None = None, first: int = 1) -> Match:
    """A match after setup whose coin made ``first`` the first player; no mulligan decided yet."""
    s = 0 if seed is None else seed
    while True:
        m = Match.create(RULESET, match_id=f"rules-{s}", seed=s, decks=[EVERY_CARD, EVERY_CARD],
                         players=("p1", "p2"))
        if m.state.first == first or seed is not None:
            return m
        s += 1


class Pos:
    def __init__(self, seed: int | None = None) -> None:
        m = started(seed)
        m.submit(1, c.Keep())
        m.submit(2, c.Keep())
        self.base = m
        self.state: State = m.state          # turn 1, seat 1's standby, draw-or-charge awaited
        self.match: Match | None = None
        self.events: list[Envelope[Any]] = []
        self._given: list[int] = []

    # -- building ----------------------------------------------------------------------------------
    def phase(self, phase: str, active: int = 1, holder: int | None = None) -> Pos:
        self.state = replace(self.state, phase=phase, active=active, pending="",  # type: ignore[arg-type]
                             priority=prio.opened(holder or active), turn=max(self.state.turn, 1))
        return self

    def _take(self, seat: int, name: str) -> int:
        side = self.state.side(seat)
        taken = {p.card for p in self.state.pieces} | set(self._given)
        for zone in ("deck", "hand"):
            for cid in getattr(side, zone):
                if self.state.name(cid) == name and cid not in taken:
                    self._given.append(cid)
                    self._side(seat, **{zone: tuple(x for x in getattr(side, zone) if x != cid)})
                    return cid
        raise AssertionError(f"no {name} left in seat {seat}'s deck or hand")

    def _side(self, seat: int, **fields: Any) -> None:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **fields)
        self.state = replace(self.state, sides=tuple(sides))

    def side(self, seat: int, **fields: Any) -> Pos:
        self._side(seat, **fields)
        return self

    def piece(self, seat: int, name: str, where: str, **fields: Any) -> int:
        cid = self._take(seat, name)
        self.state = replace(self.state, pieces=self.state.pieces + (Piece(card=cid, seat=seat, square=sq(where),
                                                                           **fields),))
        return cid

    def hand(self, seat: int, name: str) -> int:
        cid = self._take(seat, name)
        self._side(seat, hand=self.state.side(seat).hand + (cid,))
        return cid

    def mana(self, seat: int, n: int) -> Pos:
        side = self.state.side(seat)
        cards = side.deck[-n:] if n else ()
        self._side(seat, deck=side.deck[:len(side.deck) - n], mana=side.mana + tuple(Mana(card=x) for x in cards))
        return self

    def master(self, seat: int, where: str) -> Pos:
        self._side(seat, master=sq(where))
        return self

    # -- playing -----------------------------------------------------------------------------------
    def build(self) -> Match:
        if self.match is None:
            self.match = Match.create(RULESET, match_id="scenario", seed=7, decks=[EVERY_CARD, EVERY_CARD],
                                      players=("p1", "p2"), start=self.state)
        return self.match

    def do(self, seat: int, command: Any) -> list[Envelope[Any]]:
        m = self.build()
        envs = m.submit(seat, command)
        self.events.extend(envs)
        self.state = m.state
        return envs

    def passes(self, n: int = 2) -> list[Envelope[Any]]:
        out = []
        for _ in range(n):
            holder = self.state.priority.holder  # type: ignore[union-attr]
            out.extend(self.do(holder, c.Pass()))
        return out

    def legal(self, seat: int) -> list[Any]:
        return RULESET.decider.legal(self.build().state if self.match else self.state, seat)


def kinds(envs: list[Envelope[Any]]) -> list[str]:
    return [type(e.event).__name__ for e in envs]


def of(envs: list[Envelope[Any]], kind: type) -> list[Envelope[Any]]:
    return [e for e in envs if isinstance(e.event, kind)]


def illegal(pos: Pos, seat: int, command: Any, clause: str) -> Illegal:
    """The command is rejected naming ``clause`` and changes nothing."""
    m = pos.build()
    before = (m.state, m.seq)
    try:
        m.submit(seat, command)
    except Illegal as exc:
        assert exc.clause == clause, f"rejected under {exc.clause} ({exc.reason}), expected {clause}"
        assert (m.state, m.seq) == before
        return exc
    raise AssertionError(f"{command!r} was accepted; expected Illegal({clause})")
