"""The decisions a reigeki player takes (one tagged union, ``Command``)."""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import CardId, Place, SeatNo


class Cmd(msgspec.Struct, frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True):
    """A seat's decision as submitted: read from clients and files, so unknown fields are refused; tagged by class name.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class Mulligan(Cmd, frozen=True, kw_only=True):
    """R-5.4: return the whole hand and draw 5 again (``redraw``), or keep it."""

    redraw: bool = False


class Move(Cmd, frozen=True, kw_only=True):
    """R-6.4: move one character or the leader one area in the step phase."""

    source: Place
    to: Place


class Play(Cmd, frozen=True, kw_only=True):
    """R-7.1 / R-7.2: put a character from hand into an area (an LvEx onto its Lv3)."""

    card: CardId
    place: Place


class Cast(Cmd, frozen=True, kw_only=True):
    """R-7.3: use a spell from the 霊力 zone, discarding ``pay`` (the other 霊力 cards) and
    optionally turning the face-up damage card ``flip`` face down; ``target_seat``/``target`` name
    the character a targeted skill acts on, ``to`` where a move skill takes it."""

    card: CardId
    pay: tuple[CardId, ...] = ()
    flip: CardId = 0
    target_seat: SeatNo = 0
    target: Place = 0
    to: Place = 0


class Attack(Cmd, frozen=True, kw_only=True):
    """R-8.2: burst a reloaded character and attack an opposing character or the leader."""

    attacker: Place
    target: Place


class Guard(Cmd, frozen=True, kw_only=True):
    """R-8.3: discard a hand card as a guard (a 霊撃 nullifies the attack)."""

    card: CardId


class GuardWith(Cmd, frozen=True, kw_only=True):
    """R-8.3 / R-Q14: burst a reloaded ガードx character to count as x guards."""

    place: Place


class Discard(Cmd, frozen=True, kw_only=True):
    """R-6.7: discard a card from a hand of more than 8 in the end phase."""

    card: CardId


class Proceed(Cmd, frozen=True, kw_only=True):
    """End the current step or phase (step, main, battle; no more guards; no spell)."""


Command = Union[Mulligan, Move, Play, Cast, Attack, Guard, GuardWith, Discard, Proceed]
