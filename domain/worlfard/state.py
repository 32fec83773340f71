"""The state of a WORLFARD match: immutable structs, shared between successive states."""
from __future__ import annotations

from typing import Literal

import msgspec

from domain.core.ruleset import Outcome

from .vocabulary import LINES, START_LIFE, Phase, Status

HIDDEN = 0  # the card id a seat sees in place of a card it may not see


class Unit(msgspec.Struct, frozen=True, omit_defaults=True):
    """A unit on a stage spot: which card, its damage, whether it is broken, its status (W-9)."""

    card: int
    damage: int = 0
    broken: bool = False
    status: Status | None = None


class Tower(msgspec.Struct, frozen=True, omit_defaults=True):
    """A tower pile, bottom first; its height HT is the number of cards (W-3.3)."""

    cards: tuple[int, ...] = ()
    broken: bool = False

    @property
    def height(self) -> int:
        return len(self.cards)

    @property
    def top(self) -> int | None:
        return self.cards[-1] if self.cards else None


class Heart(msgspec.Struct, frozen=True, omit_defaults=True):
    card: int
    broken: bool = False
    face_up: bool = False


Mulligan = Literal["pending", "taken", "kept"]
_EMPTY_STAGE: tuple[Unit | None, ...] = (None,) * LINES
_EMPTY_TABLE: tuple[int | None, ...] = (None,) * LINES
_EMPTY_TOWERS: tuple[Tower, ...] = (Tower(),) * LINES


class Side(msgspec.Struct, frozen=True, omit_defaults=True):
    """One player's areas (W-3.1). Decks and hands list the top card first."""

    life: int = START_LIFE
    deck: tuple[int, ...] = ()
    hand: tuple[int, ...] = ()
    hearts: tuple[Heart, ...] = ()
    soul: tuple[int, ...] = ()
    grave: tuple[int, ...] = ()
    seal: tuple[int, ...] = ()
    stage: tuple[Unit | None, ...] = _EMPTY_STAGE
    table: tuple[int | None, ...] = _EMPTY_TABLE
    towers: tuple[Tower, ...] = _EMPTY_TOWERS
    mulligan: Mulligan = "pending"
    lost: str | None = None


class Combat(msgspec.Struct, frozen=True, omit_defaults=True):
    """One combat (W-12): its decisions are final once made (W-12.7)."""

    attacker: int                 # line of the attacking unit
    attacker_card: int
    target: int | None = None     # the declared enemy stage spot (line)
    defended: bool = False        # the defense declaration has been made
    defender: int | None = None   # line of the defending unit, if unit against unit
    defender_card: int | None = None
    on_player: bool = False


class State(msgspec.Struct, frozen=True, omit_defaults=True):
    names: tuple[tuple[str, ...], tuple[str, ...]]   # card name by seat, indexed by id % 1000
    heart_names: tuple[tuple[str, ...], tuple[str, ...]]
    sides: tuple[Side, Side]
    phase: Phase = Phase.ORDER
    turn: int = 0
    turn_seat: int = 0
    first_seat: int = 0
    chooser: int = 0
    tower_set: bool = False
    combat: Combat | None = None
    outcome: Outcome | None = None

    def side(self, seat: int) -> Side:
        return self.sides[seat - 1]

    def name(self, card: int) -> str:
        return self.names[card // 1000 - 1][card % 1000]
