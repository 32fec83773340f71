"""Everything that happens in a WORLFARD match, as one tagged union of small frozen structs.

Decision events record what a player chose; rule events record each automatic consequence.
Each carries the values its ruling used, so ``kifu why`` can show them.
"""
from __future__ import annotations

from typing import Union

import msgspec

from .state import State
from .vocabulary import Phase

_opts = dict(frozen=True, tag=True, omit_defaults=True, kw_only=True)


class Ev(msgspec.Struct, **_opts):  # type: ignore[misc]
    pass


# -- setup ------------------------------------------------------------------------------------
class PositionPrepared(Ev, frozen=True):
    """A prepared position (a scenario or a fork): the whole state, taken as it is."""

    state: "State"


class DeckShuffled(Ev, frozen=True):
    seat: int
    order: tuple[int, ...]


class HeartsSet(Ev, frozen=True):
    seat: int
    hearts: tuple[int, ...]        # top first; only the top is face-up


class CoinTossed(Ev, frozen=True):
    winner: int                    # W-Q16: seeded stand-in for rock-paper-scissors


class OrderChosen(Ev, frozen=True):
    seat: int
    go_first: bool


class CardsDrawn(Ev, frozen=True):
    seat: int
    cards: tuple[int, ...]


class MulliganTaken(Ev, frozen=True):
    seat: int


class MulliganDeclined(Ev, frozen=True):
    seat: int


class HandReturned(Ev, frozen=True):
    seat: int
    cards: tuple[int, ...]


class GameBegan(Ev, frozen=True):
    first: int
    life: int


# -- turn structure ---------------------------------------------------------------------------
class TurnBegan(Ev, frozen=True):
    turn: int
    seat: int


class PhaseBegan(Ev, frozen=True):
    phase: Phase


class Recovered(Ev, frozen=True):
    seat: int
    towers: tuple[int, ...] = ()
    units: tuple[int, ...] = ()


class DamageRemoved(Ev, frozen=True):
    seat: int
    lines: tuple[int, ...]


class HeartRecovered(Ev, frozen=True):
    seat: int
    index: int


class FirstTurnSkips(Ev, frozen=True):
    seat: int                      # W-5.1: no draw and no heart recovery


class CardDrawn(Ev, frozen=True):
    seat: int
    card: int


class DeckOut(Ev, frozen=True):
    seat: int


class PhaseLeft(Ev, frozen=True):
    seat: int
    to: str


class SleepRemoved(Ev, frozen=True):
    seat: int
    lines: tuple[int, ...]


# -- main phase -------------------------------------------------------------------------------
class TowerSet(Ev, frozen=True):
    seat: int
    card: int
    line: int
    height: int                    # HT after setup
    broken: bool = False           # inherited state (W-7.1)


class SummonDeclared(Ev, frozen=True):
    seat: int
    card: int
    line: int
    towers: tuple[int, ...] = ()
    souls: tuple[int, ...] = ()


class CostPaid(Ev, frozen=True):
    seat: int
    cost: int
    generated: int
    towers: tuple[int, ...] = ()   # lines of the towers broken
    heights: tuple[int, ...] = ()  # their HT when broken
    souls: tuple[int, ...] = ()    # soul cards sent to the graveyard


class KeeperBroken(Ev, frozen=True):
    seat: int
    line: int


class UnitSummoned(Ev, frozen=True):
    seat: int
    card: int
    line: int
    asleep: bool = True


class UnitMoved(Ev, frozen=True):
    seat: int
    line: int
    to: int


class UnitBroken(Ev, frozen=True):
    seat: int
    line: int


# -- combat -----------------------------------------------------------------------------------
class AttackDeclared(Ev, frozen=True):
    seat: int
    line: int
    card: int


class TargetDeclared(Ev, frozen=True):
    seat: int
    line: int
    distance: int
    agi: int


class BlockDeclared(Ev, frozen=True):
    seat: int
    line: int
    distance: int
    agi: int


class EvadeDeclared(Ev, frozen=True):
    seat: int
    line: int
    agi: int
    attacker_agi: int


class NoDefenseDeclared(Ev, frozen=True):
    seat: int


class DefenseFixed(Ev, frozen=True):
    """W-12.4: what the combat is, final from now on (W-12.7)."""

    line: int | None = None
    card: int | None = None
    on_player: bool = False


class CombatDamage(Ev, frozen=True):
    """Damage to a unit: the dealer's STR, the receiver's DEF and the result (W-12.6)."""

    seat: int
    line: int
    card: int
    amount: int
    STR: int = msgspec.field(default=0, name="str")
    DEF: int = msgspec.field(default=0, name="def")


class PlayerAttacked(Ev, frozen=True):
    seat: int
    STR: int = msgspec.field(default=0, name="str")


class HeartsBroken(Ev, frozen=True):
    seat: int
    indexes: tuple[int, ...]       # W-11.2 / W-Q6: from the bottom up


class LifeLost(Ev, frozen=True):
    seat: int
    amount: int
    life: int                      # life after


class UnitDestroyed(Ev, frozen=True):
    seat: int
    line: int
    card: int
    damage: int
    VIT: int = msgspec.field(default=0, name="vit")


class UnitVanished(Ev, frozen=True):
    seat: int
    line: int
    card: int


class CombatEnded(Ev, frozen=True):
    reason: str


# -- end of the match -------------------------------------------------------------------------
class PlayerLost(Ev, frozen=True):
    seat: int
    reason: str


class MatchEnded(Ev, frozen=True):
    termination: str
    winner: int | None = None


Event = Union[
    PositionPrepared, DeckShuffled, HeartsSet, CoinTossed, OrderChosen, CardsDrawn, MulliganTaken, MulliganDeclined,
    HandReturned, GameBegan, TurnBegan, PhaseBegan, Recovered, DamageRemoved, HeartRecovered,
    FirstTurnSkips, CardDrawn, DeckOut, PhaseLeft, SleepRemoved, TowerSet, SummonDeclared, CostPaid,
    KeeperBroken, UnitSummoned, UnitMoved, UnitBroken, AttackDeclared, TargetDeclared, BlockDeclared,
    EvadeDeclared, NoDefenseDeclared, DefenseFixed, CombatDamage, PlayerAttacked, HeartsBroken,
    LifeLost, UnitDestroyed, UnitVanished, CombatEnded, PlayerLost, MatchEnded,
]
