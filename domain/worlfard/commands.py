"""The decisions a WORLFARD player can submit: untrusted input, one tagged union, one decoder.

``repr`` pastes back into Python, so a judge can copy a command from the replayer into a test.
"""
from __future__ import annotations

from typing import Literal, Union

import msgspec


class Cmd(msgspec.Struct, frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True):
    """A seat's decision as submitted: read from clients and files, so unknown fields are refused; tagged by class name.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class ChooseOrder(Cmd, frozen=True, kw_only=True):
    """W-4.3: the coin winner goes first (True) or second (False)."""

    go_first: bool


class Mulligan(Cmd, frozen=True, kw_only=True):
    """W-4.4: return the hand, shuffle, draw 6 again (True) or keep (False). Once each."""

    redraw: bool


class SetTower(Cmd, frozen=True, kw_only=True):
    """W-7.1: put a hand card on an own tower spot (once per turn, main phase)."""

    card: int
    line: int


class Summon(Cmd, frozen=True, kw_only=True):
    """W-8.1: cast a unit from hand to an empty stage spot, paying with whole towers and souls.

    ``heart``: cast the face-up top heart instead (W-11.4), paying ``heart_soul`` on top."""

    card: int
    line: int
    towers: tuple[int, ...] = ()
    souls: tuple[int, ...] = ()
    heart: bool = False
    heart_soul: int | None = None


class Cast(Cmd, frozen=True, kw_only=True):
    """W-10.1: cast a spell to an empty own table spot; targets are chosen now (W-10.4).

    Targets: a unit or a soul/graveyard card by card id, a tower as seat*10+line, a player by seat."""

    card: int
    line: int
    towers: tuple[int, ...] = ()
    souls: tuple[int, ...] = ()
    targets: tuple[int, ...] = ()
    heart: bool = False
    heart_soul: int | None = None


class Activate(Cmd, frozen=True, kw_only=True):
    """W-2.5: use activated (!) skill number ``skill`` of ``card`` in your main phase."""

    card: int
    skill: int
    towers: tuple[int, ...] = ()
    souls: tuple[int, ...] = ()
    targets: tuple[int, ...] = ()


class Pass(Cmd, frozen=True, kw_only=True):
    """W-13.1: give up the right to cast a Short Spell in this reaction window."""


class Choose(Cmd, frozen=True, kw_only=True):
    """Answer a waiting skill: its target (or, for an optional skill without target, use it)."""

    targets: tuple[int, ...] = ()


class Decline(Cmd, frozen=True, kw_only=True):
    """Do not use an optional (できる) skill (W-2.5)."""


class Move(Cmd, frozen=True, kw_only=True):
    """W-8.2: move a ready unit to an adjacent empty stage spot (main phase); it breaks."""

    line: int
    to: int


class Attack(Cmd, frozen=True, kw_only=True):
    """W-12.1: declare the unit on ``line`` as attacker."""

    line: int


class Target(Cmd, frozen=True, kw_only=True):
    """W-12.2: declare the enemy stage spot the attacker goes for."""

    line: int


class Block(Cmd, frozen=True, kw_only=True):
    """W-12.4(a): block with the unit on ``line``."""

    line: int


class Evade(Cmd, frozen=True, kw_only=True):
    """W-12.4(b): the unit on the target spot evades; the attack goes to the player."""


class NoDefense(Cmd, frozen=True, kw_only=True):
    """W-12.4(c): declare nothing."""


Step = Literal["battle", "main2", "end"]


class Proceed(Cmd, frozen=True, kw_only=True):
    """W-5.2/W-5.3: leave the current phase for ``to``."""

    to: Step


Command = Union[
    ChooseOrder, Mulligan, SetTower, Summon, Cast, Activate, Move, Attack, Target, Block, Evade, NoDefense, Pass,
    Choose, Decline, Proceed,
]
