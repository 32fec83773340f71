"""The fold: one small function per event, no checks (the decider checked)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from kifu.domain.core.commit import ChoiceSealed

from . import events as ev
from .cards import card as printed
from .state import Card, Side, State
from .table import unmarked, with_card

replace = msgspec.structs.replace


def _card(state: State, card: Card) -> State:
    cards = with_card(state.cards, card)
    return replace(state, cards=cards)


def _side(state: State, side: Side) -> State:
    sides = (side, state.sides[1]) if side.seat == 1 else (state.sides[0], side)
    return replace(state, sides=sides)


def _without(ids: tuple[int, ...], cid: int) -> tuple[int, ...]:
    """A row or the lit group without a card: copied only when the card is in it."""
    return tuple([x for x in ids if x != cid]) if cid in ids else ids


def _leave_rows(state: State, cid: int) -> State:
    s = state.sides[state.cards[cid - 1].owner - 1]
    if cid in s.front or cid in s.back or cid in s.magic:
        s = replace(s, front=_without(s.front, cid), back=_without(s.back, cid), magic=_without(s.magic, cid))
        state = _side(state, s)
    return state


def _enter_row(state: State, cid: int, row: str) -> State:
    state = _leave_rows(state, cid)
    c = state.card(cid)
    s = state.side(c.owner)
    s = replace(s, **{row: getattr(s, row) + (cid,)})
    return _side(state, s)


_SELECTIONS = frozenset(("first", "select", "skill"))   # the phases in which the seats select


def _phase(state: State, e: ev.PhaseBegun) -> State:
    phase = state.phase
    if e.phase in _SELECTIONS:   # a new selection; or the last one is summoned
        phase = e.phase
        a, b = state.sides
        state = replace(state, sides=(_unselected(a), _unselected(b)))
    if e.phase == "select" and e.turn != state.turn:
        # a new turn: the acted/stunned marks of the last one are cleared
        state = replace(state, cards=unmarked(state.cards))
    return replace(state, turn=e.turn, phase=phase, group=())


def _unselected(side: Side) -> Side:
    return replace(side, picks=(), reveals=(), spent=0, done=False, sealed=False, act=None)


def _sealed(state: State, e: ChoiceSealed) -> State:
    return _side(state, replace(state.sides[e.seat - 1], sealed=True))


def _picked(state: State, e: ev.Picked) -> State:
    s = state.side(e.seat)
    cost = printed(state.card(e.card).name).cost if e.card else 0     # 0: a pick hidden from this seat
    return _side(state, replace(s, picks=s.picks + (e,), spent=s.spent + cost, sealed=False))


def _reveal_chosen(state: State, e: ev.RevealChosen) -> State:
    s = state.side(e.seat)
    return _side(state, replace(s, reveals=s.reveals + (e,), sealed=False))


def _select_done(state: State, e: ev.SelectDone) -> State:
    return _side(state, replace(state.side(e.seat), done=True, sealed=False))


def _summoned(state: State, e: ev.Summoned) -> State:
    c = state.card(e.card)
    state = _card(state, replace(c, zone=e.row, summoned=state.turn))
    return _enter_row(state, e.card, e.row)


def _equipped(state: State, e: ev.Equipped) -> State:
    state = _leave_rows(state, e.card)
    return _card(state, replace(state.card(e.card), zone="attached", attached_to=e.target, summoned=state.turn))


def _magic_set(state: State, e: ev.MagicSet) -> State:
    if not e.card:
        return state          # another seat's face-down magic, as a seat's redacted stream shows it
    c = state.card(e.card)
    state = _card(state, replace(c, zone="magic", face_down=e.face_down, live=not e.face_down, target=e.target,
                                 summoned=state.turn))
    return _enter_row(state, e.card, "magic")


def _flipped(state: State, e: ev.MagicFlipped) -> State:
    return _card(state, replace(state.card(e.card), face_down=False, live=True, target=e.target))


def _stat(state: State, e: ev.StatChanged) -> State:
    key = "def_" if e.stat == "def" else e.stat
    return _card(state, replace(state.card(e.card), **{key: e.after}))


def _moved(state: State, e: ev.Moved) -> State:
    state = _card(state, replace(state.card(e.card), zone=e.row))
    return _enter_row(state, e.card, e.row)


def _hp(state: State, e: ev.HpChanged) -> State:
    return _card(state, replace(state.card(e.card), hp=e.hp))


def _died(state: State, e: ev.Died) -> State:
    state = _leave_rows(state, e.card)
    if e.card in state.group:
        state = replace(state, group=tuple(c for c in state.group if c != e.card))
    return _card(state, replace(state.card(e.card), zone="grave", hp=0))


def _revived(state: State, e: ev.Revived) -> State:
    state = _card(state, replace(state.card(e.card), zone=e.row, hp=e.hp, summoned=state.turn, acted=False))
    return _enter_row(state, e.card, e.row)


def _stunned(state: State, e: ev.Stunned) -> State:
    return _card(state, replace(state.card(e.card), stunned=True))


def _spent(state: State, e: ev.CardSpent) -> State:
    state = _leave_rows(state, e.card)
    return _card(state, replace(state.card(e.card), zone="grave", live=False, face_down=False))


def _lit(state: State, e: ev.GroupLit) -> State:
    a, b = state.sides
    sides = (replace(a, act=None, sealed=False), replace(b, act=None, sealed=False))
    return replace(state, group=e.cards, sides=sides)


def _acted(state: State, e: ev.Acted) -> State:
    state = _side(state, replace(state.sides[e.seat - 1], act=e, sealed=False))
    return _cannot(state, e)


def _cannot(state: State, e: ev.Acted | ev.CannotAct) -> State:
    state = _card(state, replace(state.cards[e.card - 1], acted=True))
    return replace(state, group=_without(state.group, e.card))


def _lost(state: State, e: ev.Lost) -> State:
    return _side(state, replace(state.side(e.seat), lost=e.reason))


def _ended(state: State, e: ev.MatchEnded) -> State:
    return replace(state, ended=e, phase="over")


def _noop(state: State, e: Any) -> State:
    return state


# the fold table, one case per event type: public, so the core folds through it directly
# (``SpeedUps.evolve_cases``) and a test can name it
HANDLERS: dict[type, Callable[[State, Any], State]] = {
    ev.PhaseBegun: _phase, ChoiceSealed: _sealed, ev.Picked: _picked, ev.RevealChosen: _reveal_chosen,
    ev.SelectDone: _select_done, ev.Summoned: _summoned, ev.Equipped: _equipped, ev.MagicSet: _magic_set,
    ev.MagicFlipped: _flipped, ev.MagicResolved: _noop, ev.MagicFizzled: _noop, ev.OrderFixed: _noop,
    ev.StatChanged: _stat, ev.Moved: _moved, ev.HpChanged: _hp, ev.Died: _died, ev.Revived: _revived,
    ev.Stunned: _stunned, ev.CardSpent: _spent, ev.GroupLit: _lit, ev.Acted: _acted, ev.CannotAct: _cannot,
    ev.Lost: _lost, ev.MatchEnded: _ended,
}


def evolve(state: State, event: Any) -> State:
    return HANDLERS[type(event)](state, event)
