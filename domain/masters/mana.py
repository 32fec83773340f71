"""A side's mana row, tapped and untapped as a fold changes it, without reading every card.

A seat's mana only grows (a charge appends an untapped card), is paid from the front (M-Q6 taps
the first untapped cards) and is untapped whole at its turn's start (M-3.1): so its tapped cards
are, in every match, the first ``k`` of the row. Knowing ``k`` turns a payment into one splice
at ``k`` and an untap into untapping ``k`` cards, where finding them reads every card — and the
benchmark's long record has rows of 100 and more.

``k`` is kept per thread and per seat with the one row it was worked out for (checked by
identity, so it is never another row's): the row each of these functions made last. Any other
row (an older state, another match, a prepared position) is read whole once, as before; a row
whose tapped cards are not its first ones (a test's hand-made state) takes the plain path. Each
function returns a row equal to what the plain path makes: ``tests/masters/test_fold_run.py``.

A run of events (``evolve.evolve_run``) holds each row as a ``LooseRow`` instead: a list private to
the run, carrying its own ``k``, that ``paid`` and ``charged`` change in place (no row of 100 copied
per payment), and ``untapped`` too (so a handler asks ``any_tapped`` first, where a tuple row's
new tuple would tell).
"""
from __future__ import annotations

from typing import final

from msgspec.structs import replace

from kifu.domain.core.memo import PerThread

from .state import Mana

Row = tuple[Mana, ...]
_MIXED = -1        # the row's tapped cards are not its first ones


@final   # (so ``type(row) is LooseRow`` tells a type checker both ways which one ``row`` is)
class LooseRow(list[Mana]):
    """A mana row while a run of events is folded: private to that run, with its tapped count."""
    __slots__ = ("k",)
    k: int      # how many of its first cards are tapped, where no later one is (else ``_MIXED``)


Rows = Row | LooseRow


class _Known:
    __slots__ = ("rows",)

    def __init__(self) -> None:
        self.rows: dict[int, tuple[Row, int]] = {}    # seat -> (the row made last for it, its k)


_known = PerThread("masters.mana_tapped", _Known)


def _scan(row: Rows) -> int:
    """How many of ``row``'s first cards are tapped, where no later one is (else ``_MIXED``)."""
    k = 0
    for m in row:
        if not m.tapped:
            break
        k += 1
    for m in row[k:]:
        if m.tapped:
            return _MIXED
    return k


def _tapped(seat: int, row: Row) -> int:
    known = _known.get().rows.get(seat)
    return known[1] if known is not None and known[0] is row else _scan(row)


def _made(seat: int, row: Row, k: int) -> Row:
    _known.get().rows[seat] = (row, k)
    return row


def paid(seat: int, row: Rows, amount: int) -> Rows:
    """``amount`` untapped cards of the row tapped, the first ones (M-Q6, ``evolve._pay``)."""
    if not amount:
        return row
    if type(row) is LooseRow:
        k = row.k
        if k != _MIXED and k + amount <= len(row):      # (as below, in place)
            end = k + amount
            row[k:end] = [replace(m, tapped=True) for m in row[k:end]]
            row.k = end
        else:
            _pay_loose(row, amount)
        return row
    k = _tapped(seat, row)
    if k != _MIXED and k + amount <= len(row):
        end = k + amount
        return _made(seat, row[:k] + tuple([replace(m, tapped=True) for m in row[k:end]]) + row[end:], end)
    out = []
    for m in row:
        if amount and not m.tapped:
            m = replace(m, tapped=True)
            amount -= 1
        out.append(m)
    return tuple(out)


def _pay_loose(row: LooseRow, amount: int) -> None:
    """A run's row paid card by card (its tapped cards not its first ones, or too few untapped)."""
    for i, m in enumerate(row):
        if amount and not m.tapped:
            row[i] = replace(m, tapped=True)
            amount -= 1
    row.k = _scan(row)


def untapped(seat: int, row: Rows) -> Rows:
    """Every card of the row untapped (M-3.1); the row itself when none is tapped."""
    if type(row) is LooseRow:
        k = row.k
        if k != _MIXED:
            row[:k] = [replace(m, tapped=False) for m in row[:k]]
        else:
            row[:] = [replace(m, tapped=False) if m.tapped else m for m in row]
        row.k = 0
        return row
    k = _tapped(seat, row)
    if k == 0:
        return row
    if k != _MIXED:
        return _made(seat, tuple([replace(m, tapped=False) for m in row[:k]]) + row[k:], 0)
    return _made(seat, tuple([replace(m, tapped=False) if m.tapped else m for m in row]), 0)


def charged(seat: int, row: Rows, card: Mana) -> Rows:
    """The row with ``card`` put at its end (its ``k`` carried on where known: not worth a read)."""
    if type(row) is LooseRow:
        row.append(card)
        if card.tapped:
            row.k = _scan(row)
        return row
    out = row + (card,)
    known = _known.get().rows.get(seat)
    return _made(seat, out, known[1]) if known is not None and known[0] is row and not card.tapped else out


def any_tapped(seat: int, row: Rows) -> bool:
    """Whether ``untapped`` has a card to untap (it makes a new tuple row then: the same ``LooseRow``)."""
    return (row.k if type(row) is LooseRow else _tapped(seat, row)) != 0


def loose(seat: int, row: Row) -> LooseRow:
    """``row`` as a run's list, with its tapped count."""
    out = LooseRow(row)
    out.k = _tapped(seat, row)
    return out


def frozen(seat: int, row: Rows) -> Row:
    """A run's row made a tuple again (its count kept for the fold that goes on from it)."""
    if type(row) is not LooseRow:
        return row
    out = tuple(row)
    return _made(seat, out, row.k) if row.k != _MIXED else out
