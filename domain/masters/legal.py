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

from collections.abc import Sequence
from functools import cache, partial
from operator import attrgetter
from typing import Any, cast

from kifu.domain.core.options import Options, Runs

from . import commands as c
from .board import SQUARES, around, name, paths, steps, territory
from .cards import UNKNOWN, CardDef, Skill
from .decide import awaiting
from .state import Piece, State, card_table
from .vocabulary import SKILL_PHASE

PASS = c.Pass()


class _Named(dict[int, str]):
    """Square -> its name (board.name), each worked out once."""

    def __missing__(self, sq: int) -> str:
        known = self[sq] = name(sq)
        return known


_NAMES = _Named()
# commands are frozen values: the ones listed over and over are built once
_STEPS = {sq: tuple((n, c.MoveMaster(to=_NAMES[n])) for n in around(sq)) for sq in SQUARES}   # by master square


def _steps(master: int) -> tuple[tuple[int, c.MoveMaster], ...]:
    """The master's steps (M-Q4): each square around it with the command that moves there."""
    found = _STEPS.get(master)
    return found if found is not None else tuple((n, c.MoveMaster(to=_NAMES[n])) for n in around(master))
_CHARGES: dict[int, c.ChargePiece] = {}


def _charge(card: int) -> c.ChargePiece:
    cmd = _CHARGES.get(card)
    if cmd is None:
        if len(_CHARGES) >= 4096:
            _CHARGES.clear()
        cmd = _CHARGES[card] = c.ChargePiece(card=card)
    return cmd


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
_Match = tuple[Any, dict[int, _Facts], frozenset[int]]
_MATCH: list[_Match] = [((), {}, frozenset())]   # (names, card id -> facts, ids with an activated skill) last asked


def _facts_of(d: CardDef) -> _Facts:
    f = _FACTS.get(id(d))
    if f is None or f.d is not d:
        f = _FACTS[id(d)] = _Facts(d)
    return f


def _match(names: Any) -> _Match:
    last = _MATCH[0]
    if last[0] is names:
        return last
    table = {cid: _facts_of(d) for cid, d in card_table(names).items()}
    last = _MATCH[0] = (names, table, frozenset(cid for cid, f in table.items() if f.act is not None))
    return last


_NO_FACTS = _Facts(UNKNOWN)
_CARD = attrgetter("card")
_SQUARE = attrgetter("square")
_NOBODY: list[list[Any]] = [[], [], []]        # no seat has a piece with an activated skill (never changed)


class _Board:
    """What a ``pieces`` tuple alone decides: each seat's pieces with an activated skill, the
    squares each kind of target may name, the squares the pieces stand on."""

    __slots__ = ("names", "pieces", "facts", "actors", "_own", "acts")

    def __init__(self, names: Any, pieces: tuple[Piece, ...]) -> None:
        self.names, self.pieces = names, pieces
        self._own: dict[tuple[int, str], list[str]] | None = None
        _, facts, ids = _match(names)
        self.facts = facts                           # the match's card facts
        if ids.isdisjoint(map(_CARD, pieces)):
            self.actors = _NOBODY
        else:
            actors: list[list[tuple[Piece, Skill, bool]]] = [[], [], []]
            for p in pieces:
                if p.card in ids and 1 <= p.seat <= 2:
                    f = facts[p.card]
                    actors[p.seat].append((p, cast(Skill, f.act), f.avoid))   # (ids: cards with an activated skill)
            self.actors = actors
        # per seat: (mana, combat, activations) last listed
        self.acts: list[tuple[object, object, list[c.Command]] | None] = [None, None, None]

    def squares(self) -> set[int]:
        return set(map(_SQUARE, self.pieces))

    def targets(self, seat: int, kind: str) -> list[str]:
        """effects.target_ok's answer for each piece (it does not depend on the skill's source)."""
        if kind == "none" or kind == "self":
            return [""]
        own = self._own
        if own is None:
            own = self._own = {}
        found = own.get((seat, kind))
        if found is None:
            pieces = self.pieces
            if kind == "own_piece":
                found = [_NAMES[p.square] for p in pieces if p.seat == seat]
            elif kind == "enemy_piece":
                found = [_NAMES[p.square] for p in pieces if p.seat != seat]
            else:
                found = [_NAMES[p.square] for p in pieces]
            own[(seat, kind)] = found
        return found


_LAST: list[_Board] = [_Board(((), ()), ())]


def legal(state: State, seat: int) -> list[c.Command]:
    found = options(state, seat)
    return found if type(found) is list else list(found)


def options(state: State, seat: int) -> Sequence[c.Command]:
    """``legal`` in its order: a list, or ``Options`` when there are summons or moves to list (the
    long runs: counted here, built when read)."""
    p = state.priority
    if p is None or p.holder != seat or state.pending or state.phase == "mulligan" or state.outcome is not None:
        return _waiting(state, seat)
    # ``seat`` holds priority with nothing pending: it is awaited, and has_priority(state, seat)
    board = _LAST[0]
    if board.pieces is not state.pieces or board.names is not state.names:
        board = _LAST[0] = _Board(state.names, state.pieces)
    if seat != state.active:             # the other master: a pass or an activation (may_activate)
        if not board.actors[seat] or state.phase != SKILL_PHASE:
            return [PASS]
        last = board.acts[seat]          # _activations' own memo, read here first
        if last is not None and last[0] is state.sides[seat - 1].mana and last[1] is state.combat:
            return [PASS, *last[2]]
        return [PASS, *_activations(board, state, seat)]
    phase = state.phase
    combat = state.combat
    out: list[c.Command] = [PASS]
    runs: Runs = []
    if combat is None and (phase == "main1" or phase == "main2" or phase == "action"):
        quiet = not state.stack
        if phase == "action":
            if not state.moved_in_action:
                _hand(out, runs, board, state, seat, False)             # can_ambush
            if quiet:                                                   # may_move_piece
                _moves(out, runs, board, state, seat)
                return Options.of_runs(out, runs) if runs else out
        elif quiet:                                                     # sorcery_time: summon, cast
            _hand(out, runs, board, state, seat, True)
            one, two = state.sides
            side = state.sides[seat - 1]
            if not side.master_moved:                                   # can_move_master
                occ = board.squares()
                out += [cmd for sq, cmd in _steps(side.master) if sq not in occ and sq != one.master
                        and sq != two.master]
        else:
            _hand(out, runs, board, state, seat, False)                 # can_ambush, with a stack
    elif combat is None and not state.stack and (phase == "standby" or phase == "end") \
            and not state.sides[seat - 1].charged:                      # can_charge_piece
        facts = board.facts
        out += [_charge(card) for card in state.sides[seat - 1].hand if facts.get(card, _NO_FACTS).piece]
    if board.actors[seat] and phase == SKILL_PHASE:                    # can_activate
        out += _activations(board, state, seat)
    return Options.of_runs(out, runs) if runs else out


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
        return last[2]
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


def _hand(out: list[c.Command], runs: Runs, board: _Board, state: State, seat: int, normal: bool) -> None:
    """Summons and casts (``normal``: may_summon, may_cast) or 【伏兵】 summons (may_ambush), card by
    card in hand order; each card's summons a run over the squares."""
    facts = board.facts
    mana = -1                                           # untapped mana, counted when first needed
    squares: list[str] | None = None                    # where a piece may be summoned, worked out once
    for card in state.sides[seat - 1].hand:
        f = facts.get(card, _NO_FACTS)
        if f.piece:
            if not normal and not f.ambush:
                continue
            if mana < 0:
                mana = state.untapped_mana(seat)
            if f.cost <= mana:
                if squares is None:
                    squares = _summon_squares(board, state, seat, not normal)
                if squares:
                    runs.append((len(out), len(squares), partial(_summon, card, squares)))
        elif normal and f.cast is not None:
            if mana < 0:
                mana = state.untapped_mana(seat)
            if f.cost <= mana:
                out += [c.Cast(card=card, target=t) for t in board.targets(seat, f.cast.target)]


def _summon(card: int, squares: list[str], i: int) -> c.Summon:
    return c.Summon(card=card, square=squares[i])


def _summon_squares(board: _Board, state: State, seat: int, ambush: bool) -> list[str]:
    """permissions.summon_squares, named: the candidates in order, less the occupied."""
    occ = board.squares()
    one, two = state.sides
    return [where for sq, where in _candidates(seat, None if ambush else state.sides[seat - 1].master)
            if sq not in occ and sq != one.master and sq != two.master]


@cache
def _candidates(seat: int, master: int | None) -> tuple[tuple[int, str], ...]:
    """The seat's territory, and (``master`` not None) the squares around its master, in order, named."""
    squares = set(territory(seat))
    if master is not None:
        squares.update(around(master))
    return tuple((sq, _NAMES[sq]) for sq in sorted(squares))


def _moves(out: list[c.Command], runs: Runs, board: _Board, state: State, seat: int) -> None:
    """Piece by piece: its moves (may_move_piece, combat.can_move), a run over its paths, then its
    activations."""
    facts = board.facts
    occ = state.occupied()
    for p in state.pieces:
        if p.seat != seat:
            continue
        f = facts.get(p.card, _NO_FACTS)
        if f.mov > 0 and not p.tapped and not (p.fresh and not f.quick):
            count = _count_paths(p.square, f.mov, occ, seat)
            if count:
                runs.append((len(out), count, partial(_move, p.card, p.square, f.mov, occ, seat, [])))
        if f.act is not None:
            _activate(out, board, state, seat, p, f.act, f.avoid)


def _move(cid: int, start: int, mov: int, occ: dict[int, int], seat: int, known: list[Any], i: int) -> c.Move:
    """The i-th of the piece's moves; its paths worked out on the first one read (``known``)."""
    if not known:
        known.append(_paths(start, mov, occ, seat))
    return c.Move(piece=cid, path=known[0][i])


def _count_paths(start: int, mov: int, occupied: dict[int, int], seat: int) -> int:
    """``len(_paths(...))`` without building them: the empty squares reached, and each enemy
    square next to a square reached in fewer than ``mov`` steps (the start included), once per such
    square."""
    reach = {start}
    frontier = [start]
    attacks = 0
    for _ in range(mov):
        nxt = []
        for sq in frontier:
            for n in steps(sq):
                owner = occupied.get(n)
                if owner is None:
                    if n not in reach:
                        reach.add(n)
                        nxt.append(n)
                elif owner != seat:
                    attacks += 1
        frontier = nxt
    return len(reach) - 1 + attacks


def _paths(start: int, mov: int, occupied: dict[int, int], seat: int) -> list[tuple[str, ...]]:
    """board.paths with each square named, in its order."""
    return paths(start, mov, occupied, seat, _NAMES)
