"""``legal``: every decision a seat may take now, from the same permissions ``decide`` checks
(permissions.py), in an order the random bot's draw depends on.

Most decisions are taken by the seat holding priority with nothing pending, and most of those by
the seat whose turn it is not, which may only pass or activate. What its pieces may do is a
function of the pieces alone (and the match's cards): which of them have an activated skill,
where they stand, whom a skill may target. That is worked out once per ``pieces`` tuple (a
``_Board``, keyed by identity: the fold replaces the tuple whenever a piece changes and shares it
otherwise, so a run of passes, phases and hand or mana changes keeps it). Mana, the combat, the
hand and the masters' squares are read per call. The card facts ``legal`` asks (kind, cost,
keywords, skill) are read once per definition.

``tests/properties/test_masters_legal_from_scratch.py`` holds this listing equal, at every
decision of random matches, to one that asks every ``may_*`` permission afresh.
"""
from __future__ import annotations

from typing import Any

from . import commands as c
from .board import around, name, steps, territory
from .cards import UNKNOWN, CardDef, Skill
from .decide import awaiting
from .state import Piece, State, card_table
from .vocabulary import MAIN_PHASES

PASS = c.Pass()


class _Named(dict):  # type: ignore[type-arg]
    """Square -> its name (board.name), each worked out once."""

    def __missing__(self, sq: int) -> str:
        known = self[sq] = name(sq)
        return known


_NAMES = _Named()


class _Facts:
    """What ``legal`` asks of a card definition, worked out once per definition."""

    __slots__ = ("d", "piece", "cost", "ambush", "quick", "mov", "cast", "act", "avoid")

    def __init__(self, d: CardDef) -> None:
        self.d = d
        self.piece = d.kind == "piece"
        self.cost = d.cost
        self.ambush = d.keyword("ambush") is not None
        self.quick = d.keyword("quick") is not None
        self.mov = d.mov
        skill = d.skill
        self.cast: Skill | None = skill           # a spell's skill, when the card is not a piece
        act = skill if skill is not None and skill.when == "activated" else None
        self.act: Skill | None = act               # an activated skill (M-5.4)
        self.avoid = act is not None and any(op.op == "avoid" for op in act.ops)


_FACTS: dict[int, _Facts] = {}         # id(definition) -> its facts (each holds its definition)
_MATCH_FACTS: list[tuple[Any, dict[int, _Facts]]] = [((), {})]   # (names, card id -> facts) last asked


def _facts_of(d: CardDef) -> _Facts:
    f = _FACTS.get(id(d))
    if f is None or f.d is not d:
        f = _FACTS[id(d)] = _Facts(d)
    return f


def _card_facts(names: Any) -> dict[int, _Facts]:
    last = _MATCH_FACTS[0]
    if last[0] is names:
        return last[1]
    table = {cid: _facts_of(d) for cid, d in card_table(names).items()}
    _MATCH_FACTS[0] = (names, table)
    return table


_NO_FACTS = _Facts(UNKNOWN)


class _Board:
    """What a ``pieces`` tuple alone decides: each seat's pieces with an activated skill, the
    squares each kind of target may name, the occupied squares (masters aside)."""

    __slots__ = ("names", "pieces", "actors", "own", "every", "squares", "acts")

    def __init__(self, names: Any, pieces: tuple[Piece, ...]) -> None:
        self.names, self.pieces = names, pieces
        facts = _card_facts(names)
        actors: list[list[tuple[Piece, Skill, bool]]] = [[], [], []]
        own: list[list[str]] = [[], [], []]
        every: list[str] = []
        for p in pieces:
            f = facts.get(p.card, _NO_FACTS)
            where = _NAMES[p.square]
            every.append(where)
            if 1 <= p.seat <= 2:
                own[p.seat].append(where)
                if f.act is not None:
                    actors[p.seat].append((p, f.act, f.avoid))
        self.actors, self.own, self.every = actors, own, every
        self.squares = {p.square for p in pieces}
        self.acts: list[Any] = [None, None, None]    # per seat: (mana, combat, activations) last listed

    def targets(self, seat: int, kind: str) -> list[str]:
        """effects.target_ok's answer for each piece (it does not depend on the skill's source)."""
        if kind == "none" or kind == "self":
            return [""]
        if kind == "own_piece":
            return self.own[seat] if 1 <= seat <= 2 else [w for p, w in zip(self.pieces, self.every) if p.seat == seat]
        if kind == "enemy_piece":
            return [w for p, w in zip(self.pieces, self.every) if p.seat != seat]
        return self.every


_LAST: list[_Board] = [_Board(((), ()), ())]


def _board(state: State) -> _Board:
    board = _LAST[0]
    if board.pieces is not state.pieces or board.names is not state.names:
        board = _LAST[0] = _Board(state.names, state.pieces)
    return board


def legal(state: State, seat: int) -> list[c.Command]:
    p = state.priority
    if p is None or p.holder != seat or state.pending or state.phase == "mulligan" or state.outcome is not None:
        return _waiting(state, seat)
    # ``seat`` holds priority with nothing pending: it is awaited, and has_priority(state, seat)
    board = _LAST[0]
    if board.pieces is not state.pieces or board.names is not state.names:
        board = _LAST[0] = _Board(state.names, state.pieces)
    if seat != state.active:             # the other master: a pass or an activation (may_activate)
        if not board.actors[seat]:
            return [PASS]
        return [PASS, *_activations(board, state, seat)]
    phase = state.phase
    combat = state.combat
    quiet = combat is None and not state.stack
    side = state.sides[seat - 1]
    out: list[c.Command] = [PASS]
    if quiet and phase in MAIN_PHASES:                                  # sorcery_time: summon, cast
        _hand(out, board, state, seat, "normal")
        if not side.master_moved:                                       # can_move_master
            occ = board.squares
            masters = (state.sides[0].master, state.sides[1].master)
            out += [c.MoveMaster(to=_NAMES[sq]) for sq in around(side.master) if sq not in occ and sq not in masters]
    elif combat is None and (phase in MAIN_PHASES or (phase == "action" and not state.moved_in_action)):
        _hand(out, board, state, seat, "ambush")                        # can_ambush
    elif quiet and (phase == "standby" or phase == "end") and not side.charged:
        _hand(out, board, state, seat, "charge")                        # can_charge_piece
    if quiet and phase == "action":                                     # may_move_piece
        _moves(out, board, state, seat)
    elif board.actors[seat]:
        out += _activations(board, state, seat)
    return out


def _waiting(state: State, seat: int) -> list[c.Command]:
    """Everything but priority held with nothing pending: mulligans, draw-or-charge, discards."""
    if seat not in awaiting(state):
        return []
    side = state.side(seat)
    if state.phase == "mulligan":
        if side.kept:
            return [c.Bottom(card=card) for card in side.hand]
        return [c.Keep(), c.Mulligan()]
    if state.pending == "draw":
        return [c.Draw(), c.Charge()] if side.deck else [c.Draw()]
    if state.pending == "discard":
        return [c.Discard(card=card) for card in side.hand]
    return [PASS]       # a pending step of no other kind: no priority is held (has_priority), so only a pass


def _activations(board: _Board, state: State, seat: int) -> list[c.Command]:
    """The seat's activations (may_activate), piece by piece; the same while the pieces, the seat's
    mana and the combat stay."""
    mana, combat = state.sides[seat - 1].mana, state.combat
    last = board.acts[seat]
    if last is not None and last[0] is mana and last[1] is combat:
        return last[2]  # type: ignore[no-any-return]
    out: list[c.Command] = []
    for p, skill, avoid in board.actors[seat]:
        _activate(out, board, state, seat, p, skill, avoid)
    board.acts[seat] = (mana, combat, out)
    return out


def _activate(out: list[c.Command], board: _Board, state: State, seat: int, p: Piece, skill: Skill,
              avoid: bool) -> None:
    if skill.tap and p.tapped:
        return
    if skill.mana > 0 and skill.mana > state.untapped_mana(seat):
        return
    if avoid and (state.combat is None or state.combat.defender != p.card):
        return
    cid = p.card
    out += [c.Activate(card=cid, target=t) for t in board.targets(seat, skill.target)]


def _hand(out: list[c.Command], board: _Board, state: State, seat: int, mode: str) -> None:
    """Summons and casts (``normal``: may_summon, may_cast), 【伏兵】 summons (``ambush``:
    may_ambush), face-up charges (``charge``: may_charge_piece), card by card in hand order."""
    facts = _card_facts(state.names)
    normal = mode == "normal"
    mana = -1                                           # untapped mana, counted when first needed
    squares: list[str] | None = None                    # where a piece may be summoned, worked out once
    for card in state.sides[seat - 1].hand:
        f = facts.get(card, _NO_FACTS)
        if f.piece:
            if mode == "charge":
                out.append(c.ChargePiece(card=card))
                continue
            if not normal and not f.ambush:
                continue
            if mana < 0:
                mana = state.untapped_mana(seat)
            if f.cost <= mana:
                if squares is None:
                    squares = _summon_squares(board, state, seat, not normal)
                out += [c.Summon(card=card, square=sq) for sq in squares]
        elif normal and f.cast is not None:
            if mana < 0:
                mana = state.untapped_mana(seat)
            if f.cost <= mana:
                out += [c.Cast(card=card, target=t) for t in board.targets(seat, f.cast.target)]


def _summon_squares(board: _Board, state: State, seat: int, ambush: bool) -> list[str]:
    """permissions.summon_squares, named."""
    occ = board.squares
    masters = (state.sides[0].master, state.sides[1].master)
    squares = set(territory(seat))
    if not ambush:
        squares.update(around(state.sides[seat - 1].master))
    return [_NAMES[sq] for sq in sorted(squares) if sq not in occ and sq not in masters]


def _moves(out: list[c.Command], board: _Board, state: State, seat: int) -> None:
    """Piece by piece: its moves (may_move_piece, combat.can_move) then its activations."""
    facts = _card_facts(state.names)
    occ = state.occupied()
    for p in state.pieces:
        if p.seat != seat:
            continue
        f = facts.get(p.card, _NO_FACTS)
        if f.mov > 0 and not p.tapped and not (p.fresh and not f.quick):
            cid = p.card
            out += [c.Move(piece=cid, path=path) for path in _paths(p.square, f.mov, occ, seat)]
        if f.act is not None:
            _activate(out, board, state, seat, p, f.act, f.avoid)


def _paths(start: int, mov: int, occupied: dict[int, int], seat: int) -> list[tuple[str, ...]]:
    """board.paths with each square named, in its order."""
    reach: dict[int, tuple[str, ...]] = {start: ()}
    frontier = [start]
    for _ in range(mov):
        nxt = []
        for sq in frontier:
            for n in steps(sq):
                if n not in reach and n not in occupied:
                    reach[n] = reach[sq] + (_NAMES[n],)
                    nxt.append(n)
        frontier = nxt
    out = [path for path in reach.values() if path]
    for sq, path in reach.items():
        if len(path) < mov:
            for n in steps(sq):
                owner = occupied.get(n)
                if owner is not None and owner != seat:
                    out.append(path + (_NAMES[n],))
    return out
