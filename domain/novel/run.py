"""The fold of a run of events on a scratch copy of the state changed in place (``evolve_run``).

Reading a record folds thousands of events of which nobody sees the states in between, so a run
need not make a frozen state per event: it copies the state once into a ``Scratch`` (the cards a
list, each side an object with the same fields as ``Side``), applies each event to it in place
with the case below that mirrors ``evolve``'s own, and makes the one frozen state at the end.
Events of the core's that change nothing (a reveal, the seed) are skipped; any other event without
a case here (a prepared position, a judge's act) is folded by the core's ``fold`` on the frozen
state, and the scratch copy taken again from what it makes.

Each case is ``evolve``'s, written for the scratch copy: tests/novel/test_fold_run.py folds random
and long records both ways, cut into runs anywhere, and requires the same state.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from kifu.domain.core.commit import ChoiceRevealed, ChoiceSealed, SeedRevealed

from . import events as ev
from .cards import card as printed
from .state import Card, Side, State

replace = msgspec.structs.replace
SIDE_FIELDS: tuple[str, ...] = Side.__struct_fields__
_SELECTIONS = frozenset(("first", "select", "skill"))   # the phases in which the seats select


class Seat:
    """A ``Side`` while a run is folded: the same fields, changed in place."""

    __slots__ = SIDE_FIELDS
    seat: int
    front: tuple[int, ...]
    back: tuple[int, ...]
    magic: tuple[int, ...]
    picks: tuple[ev.Picked, ...]
    reveals: tuple[ev.RevealChosen, ...]
    spent: int
    done: bool
    sealed: bool
    act: ev.Acted | None
    lost: str

    def __init__(self, side: Side) -> None:
        for name in SIDE_FIELDS:
            setattr(self, name, getattr(side, name))

    def frozen(self) -> Side:
        return Side(**{name: getattr(self, name) for name in SIDE_FIELDS})


class Scratch:
    """A ``State`` while a run is folded; ``marks`` are the indices of the acted or stunned cards
    (None until a new turn first looks for them, then kept up to date as cards change)."""

    __slots__ = ("state", "turn", "phase", "cards", "sides", "group", "ended", "marks")

    def __init__(self, state: State) -> None:
        self.state = state                  # what it was copied from: its other fields are kept
        self.turn = state.turn
        self.phase = state.phase
        self.cards: list[Card] = list(state.cards)
        self.sides = (Seat(state.sides[0]), Seat(state.sides[1]))
        self.group = state.group
        self.ended = state.ended
        self.marks: set[int] | None = None

    def frozen(self) -> State:
        return replace(self.state, turn=self.turn, phase=self.phase, cards=tuple(self.cards),
                       sides=(self.sides[0].frozen(), self.sides[1].frozen()), group=self.group, ended=self.ended)

    def put(self, card: Card) -> None:
        """Replace the card of ``card``'s id, keeping the marks up to date."""
        index = card.id - 1
        self.cards[index] = card
        marks = self.marks
        if marks is not None:
            if card.acted or card.stunned:
                marks.add(index)
            else:
                marks.discard(index)

    def leave_rows(self, cid: int) -> None:
        s = self.sides[self.cards[cid - 1].owner - 1]
        if cid in s.front or cid in s.back or cid in s.magic:
            s.front, s.back, s.magic = _without(s.front, cid), _without(s.back, cid), _without(s.magic, cid)

    def enter_row(self, cid: int, row: str) -> None:
        self.leave_rows(cid)
        s = self.sides[self.cards[cid - 1].owner - 1]
        setattr(s, row, getattr(s, row) + (cid,))


def _without(ids: tuple[int, ...], cid: int) -> tuple[int, ...]:
    return tuple([x for x in ids if x != cid]) if cid in ids else ids


# -- the cases, one per event type, each ``evolve``'s own on the scratch copy ------------------------
def _phase(run: Scratch, e: ev.PhaseBegun) -> None:
    if e.phase in _SELECTIONS:
        run.phase = e.phase
        for s in run.sides:
            s.picks, s.reveals, s.spent, s.done, s.sealed, s.act = (), (), 0, False, False, None
    if e.phase == "select" and e.turn != run.turn:
        cards = run.cards
        marks = run.marks
        if marks is None:
            marks = run.marks = {i for i, c in enumerate(cards) if c.acted or c.stunned}
        for index in marks:
            cards[index] = replace(cards[index], acted=False, stunned=False)
        marks.clear()
    run.turn = e.turn
    run.group = ()


def _sealed(run: Scratch, e: ChoiceSealed) -> None:
    run.sides[e.seat - 1].sealed = True


def _unchanged(run: Scratch, e: Any) -> None:
    return None


def _picked(run: Scratch, e: ev.Picked) -> None:
    s = run.sides[e.seat - 1]
    s.spent += printed(run.cards[e.card - 1].name).cost if e.card else 0
    s.picks += (e,)
    s.sealed = False


def _reveal_chosen(run: Scratch, e: ev.RevealChosen) -> None:
    s = run.sides[e.seat - 1]
    s.reveals += (e,)
    s.sealed = False


def _select_done(run: Scratch, e: ev.SelectDone) -> None:
    s = run.sides[e.seat - 1]
    s.done = True
    s.sealed = False


def _summoned(run: Scratch, e: ev.Summoned) -> None:
    run.put(replace(run.cards[e.card - 1], zone=e.row, summoned=run.turn))
    run.enter_row(e.card, e.row)


def _equipped(run: Scratch, e: ev.Equipped) -> None:
    run.leave_rows(e.card)
    run.put(replace(run.cards[e.card - 1], zone="attached", attached_to=e.target, summoned=run.turn))


def _magic_set(run: Scratch, e: ev.MagicSet) -> None:
    if not e.card:
        return          # another seat's face-down magic, as a seat's redacted stream shows it
    run.put(replace(run.cards[e.card - 1], zone="magic", face_down=e.face_down, live=not e.face_down,
                    target=e.target, summoned=run.turn))
    run.enter_row(e.card, "magic")


def _flipped(run: Scratch, e: ev.MagicFlipped) -> None:
    run.put(replace(run.cards[e.card - 1], face_down=False, live=True, target=e.target))


def _stat(run: Scratch, e: ev.StatChanged) -> None:
    card = run.cards[e.card - 1]
    change = _STAT_CHANGES.get(e.stat)
    run.put(change(card, e.after) if change is not None
            else replace(card, **{"def_" if e.stat == "def" else e.stat: e.after}))


# each stat's change written out: no keyword arguments built per event (a common event on a long record)
_STAT_CHANGES: dict[str, Callable[[Card, int], Card]] = {
    "max_hp": lambda c, v: replace(c, max_hp=v), "atk": lambda c, v: replace(c, atk=v),
    "def": lambda c, v: replace(c, def_=v), "agi": lambda c, v: replace(c, agi=v),
    "rng": lambda c, v: replace(c, rng=v),
}


def _moved(run: Scratch, e: ev.Moved) -> None:
    run.put(replace(run.cards[e.card - 1], zone=e.row))
    run.enter_row(e.card, e.row)


def _hp(run: Scratch, e: ev.HpChanged) -> None:
    run.put(replace(run.cards[e.card - 1], hp=e.hp))


def _died(run: Scratch, e: ev.Died) -> None:
    run.leave_rows(e.card)
    if e.card in run.group:
        run.group = tuple(c for c in run.group if c != e.card)
    run.put(replace(run.cards[e.card - 1], zone="grave", hp=0))


def _revived(run: Scratch, e: ev.Revived) -> None:
    run.put(replace(run.cards[e.card - 1], zone=e.row, hp=e.hp, summoned=run.turn, acted=False))
    run.enter_row(e.card, e.row)


def _stunned(run: Scratch, e: ev.Stunned) -> None:
    run.put(replace(run.cards[e.card - 1], stunned=True))


def _spent(run: Scratch, e: ev.CardSpent) -> None:
    run.leave_rows(e.card)
    run.put(replace(run.cards[e.card - 1], zone="grave", live=False, face_down=False))


def _lit(run: Scratch, e: ev.GroupLit) -> None:
    for s in run.sides:
        s.act = None
        s.sealed = False
    run.group = e.cards


def _acted(run: Scratch, e: ev.Acted) -> None:
    s = run.sides[e.seat - 1]
    s.act = e
    s.sealed = False
    _cannot(run, e)


def _cannot(run: Scratch, e: ev.Acted | ev.CannotAct) -> None:
    cid = e.card
    run.put(replace(run.cards[cid - 1], acted=True))
    group = run.group
    if cid in group:
        run.group = tuple([x for x in group if x != cid])


def _lost(run: Scratch, e: ev.Lost) -> None:
    run.sides[e.seat - 1].lost = e.reason


def _ended(run: Scratch, e: ev.MatchEnded) -> None:
    run.ended = e
    run.phase = "over"


CASES: dict[type, Callable[[Scratch, Any], None]] = {
    ev.PhaseBegun: _phase, ChoiceSealed: _sealed, ev.Picked: _picked, ev.RevealChosen: _reveal_chosen,
    ev.SelectDone: _select_done, ev.Summoned: _summoned, ev.Equipped: _equipped, ev.MagicSet: _magic_set,
    ev.MagicFlipped: _flipped, ev.MagicResolved: _unchanged, ev.MagicFizzled: _unchanged,
    ev.OrderFixed: _unchanged, ev.StatChanged: _stat, ev.Moved: _moved, ev.HpChanged: _hp, ev.Died: _died,
    ev.Revived: _revived, ev.Stunned: _stunned, ev.CardSpent: _spent, ev.GroupLit: _lit, ev.Acted: _acted,
    ev.CannotAct: _cannot, ev.Lost: _lost, ev.MatchEnded: _ended,
    ChoiceRevealed: _unchanged, SeedRevealed: _unchanged,     # the core's: a reveal and the seed change nothing
}


def evolve_run(state: State, events: Sequence[Any], fold: Callable[[State, Any], State]) -> State:
    """What ``fold`` makes of ``events`` one at a time, folded on one scratch copy of ``state``."""
    if not events:
        return state
    run = Scratch(state)
    case_of = CASES.get
    for event in events:
        case = case_of(type(event))
        if case is not None:
            case(run, event)
        else:            # a prepared position, a judge's act: the core's own fold on the frozen state
            run = Scratch(fold(run.frozen(), event))
    return run.frozen()
