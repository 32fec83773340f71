"""The decisions a WORLFARD player can submit: untrusted input, one tagged union, one decoder.

``repr`` pastes back into Python, so a judge can copy a command from the replayer into a test.
"""
from __future__ import annotations

from typing import Literal, Union

import msgspec

_opts = dict(frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True, kw_only=True)


class ChooseOrder(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-4.3: the coin winner goes first (True) or second (False)."""

    go_first: bool


class Mulligan(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-4.4: return the hand, shuffle, draw 6 again (True) or keep (False). Once each."""

    redraw: bool


class SetTower(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-7.1: put a hand card on an own tower spot (once per turn, main phase)."""

    card: int
    line: int


class Summon(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-8.1: cast a unit from hand to an empty stage spot, paying with whole towers and souls."""

    card: int
    line: int
    towers: tuple[int, ...] = ()
    souls: tuple[int, ...] = ()


class Move(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-8.2: move a ready unit to an adjacent empty stage spot (main phase); it breaks."""

    line: int
    to: int


class Attack(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-12.1: declare the unit on ``line`` as attacker."""

    line: int


class Target(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-12.2: declare the enemy stage spot the attacker goes for."""

    line: int


class Block(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-12.4(a): block with the unit on ``line``."""

    line: int


class Evade(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-12.4(b): the unit on the target spot evades; the attack goes to the player."""


class NoDefense(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-12.4(c): declare nothing."""


Step = Literal["battle", "main2", "end"]


class Proceed(msgspec.Struct, **_opts):  # type: ignore[misc]
    """W-5.2/W-5.3: leave the current phase for ``to``."""

    to: Step


Command = Union[ChooseOrder, Mulligan, SetTower, Summon, Move, Attack, Target, Block, Evade, NoDefense, Proceed]
