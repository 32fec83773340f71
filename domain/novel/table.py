"""The state's card tuple, changed one card at a time as a fold changes it.

The state keeps every card in one tuple (it encodes as one JSON array: the record's digests
depend on that shape) and ``evolve`` replaces one card per event; on the long benchmark record
that is a tuple of ~1,300 cards. Copying it through a fresh list touches every card's
reference count four times (into the list, into the tuple, out of the list, and out of the old
tuple when it dies). Keeping, per thread, the list the last tuple was made from, and changing
one item of it, halves that whenever the next change starts from that tuple — what a fold does.
The same record keeps, once a new turn has looked for them, the indices of the cards that carry
a turn's marks (acted, stunned), so the next new turn clears them without looking at every card.

Every result is a new tuple, equal to what copying would make: the list and the index set are
private to this module, and a tuple is never changed after it is made. A tuple other than the
last one made here (an older state, another match) is simply copied.

Reading a record folds thousands of events of which nobody sees the states in between: that
fold (``run.py``) changes a list of its own in place and makes no tuple per event at all.
"""
from __future__ import annotations

from msgspec.structs import replace

from kifu.domain.core.memo import PerThread

from .state import Card

Cards = tuple[Card, ...]


class _Made:
    __slots__ = ("made",)

    def __init__(self) -> None:
        self.made: tuple[Cards, list[Card], set[int] | None] | None = None


# .made: (the tuple last made here, its list, indices of its marked cards or None), per thread
_last = PerThread("novel.table_made", _Made)


def _marked(card: Card) -> bool:
    return card.acted or card.stunned


def _made(cards: Cards) -> tuple[list[Card], set[int] | None]:
    """The list ``cards`` was made from and its marked indices (None: not looked for yet)."""
    made = _last.get().made
    if made is not None and made[0] is cards:
        return made[1], made[2]
    return list(cards), None


def with_card(cards: Cards, card: Card) -> Cards:
    """``cards`` with the one of ``card``'s id replaced by ``card`` (ids are 1..)."""
    index = card.id - 1
    work, marks = _made(cards)
    work[index] = card
    if marks is not None:
        if _marked(card):
            marks.add(index)
        else:
            marks.discard(index)
    out = tuple(work)
    _last.get().made = (out, work, marks)
    return out


def unmarked(cards: Cards) -> Cards:
    """``cards`` with every acted or stunned card's marks cleared (a new turn, N-6)."""
    work, marks = _made(cards)
    if marks is None:
        marks = {i for i, c in enumerate(work) if _marked(c)}
    if not marks:
        _last.get().made = (cards, work, marks)
        return cards
    for index in marks:
        work[index] = replace(work[index], acted=False, stunned=False)
    marks.clear()
    out = tuple(work)
    _last.get().made = (out, work, marks)
    return out
