"""Everything that happens in a WORLFARD match, as one tagged union of small frozen structs.

Decision events record what a player chose; rule events record each automatic consequence.
Each carries the values its ruling used, so ``kifu why`` can show them.
"""
from __future__ import annotations

from typing import Union

import msgspec

from kifu.domain.core.roles import Amount, CardId, Place, SeatNo, SeqRef, TargetRef

from .state import Choice, Effect, Trigger, Window
from .vocabulary import PhaseName, StatusName


# gc=False: frozen trees of numbers and strings, never in a cycle, so never traversed (see Envelope)
class Ev(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True, gc=False):
    """Every event: tagged by class name, fields at their defaults left out of the record.

    Subclasses repeat ``frozen`` for the type checker (msgspec inherits it)."""


# -- setup ------------------------------------------------------------------------------------
class DeckShuffled(Ev, frozen=True):
    seat: SeatNo
    order: tuple[CardId, ...]


class HeartsSet(Ev, frozen=True):
    seat: SeatNo
    hearts: tuple[CardId, ...]        # top first; only the top is face-up


class CoinTossed(Ev, frozen=True):
    winner: SeatNo                    # W-Q16: seeded stand-in for rock-paper-scissors


class OrderChosen(Ev, frozen=True):
    seat: SeatNo
    go_first: bool


class CardsDrawn(Ev, frozen=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


class MulliganTaken(Ev, frozen=True):
    seat: SeatNo


class MulliganDeclined(Ev, frozen=True):
    seat: SeatNo


class HandReturned(Ev, frozen=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


class GameBegan(Ev, frozen=True):
    first: SeatNo
    life: Amount


# -- turn structure ---------------------------------------------------------------------------
class TurnBegan(Ev, frozen=True):
    turn: int
    seat: SeatNo


class PhaseBegan(Ev, frozen=True):
    phase: PhaseName


class Recovered(Ev, frozen=True):
    seat: SeatNo
    towers: tuple[int, ...] = ()
    units: tuple[CardId, ...] = ()
    tables: tuple[int, ...] = ()


class DamageRemoved(Ev, frozen=True):
    seat: SeatNo
    lines: tuple[int, ...]


class HeartRecovered(Ev, frozen=True):
    seat: SeatNo
    index: int


class FirstTurnSkips(Ev, frozen=True):
    seat: SeatNo                      # W-5.1: no draw and no heart recovery


class CardDrawn(Ev, frozen=True):
    seat: SeatNo
    card: CardId


class DeckOut(Ev, frozen=True):
    seat: SeatNo


class PhaseLeft(Ev, frozen=True):
    seat: SeatNo
    to: str


class SleepRemoved(Ev, frozen=True):
    seat: SeatNo
    lines: tuple[int, ...]


# -- main phase -------------------------------------------------------------------------------
class TowerSet(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    line: Place
    height: Amount                    # HT after setup
    broken: bool = False           # inherited state (W-7.1)


class SummonDeclared(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    line: Place
    towers: tuple[int, ...] = ()
    souls: tuple[CardId, ...] = ()
    heart: bool = False
    heart_soul: int | None = None


class CostPaid(Ev, frozen=True):
    seat: SeatNo
    cost: int
    generated: Amount
    towers: tuple[int, ...] = ()   # lines of the towers broken
    heights: tuple[int, ...] = ()  # their HT when broken
    souls: tuple[CardId, ...] = ()    # soul cards sent to the graveyard


class KeeperBroken(Ev, frozen=True):
    seat: SeatNo
    line: Place


class UnitSummoned(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    line: Place
    asleep: bool = True
    src: str = "hand"              # hand | heart


class UnitMoved(Ev, frozen=True):
    seat: SeatNo
    line: Place
    to: Place


class UnitBroken(Ev, frozen=True):
    seat: SeatNo
    line: Place


# -- combat -----------------------------------------------------------------------------------
class AttackDeclared(Ev, frozen=True):
    seat: SeatNo
    line: Place
    card: CardId


class TargetDeclared(Ev, frozen=True):
    seat: SeatNo
    line: Place
    distance: int
    agi: int


class BlockDeclared(Ev, frozen=True):
    seat: SeatNo
    line: Place
    distance: int
    agi: int


class EvadeDeclared(Ev, frozen=True):
    seat: SeatNo
    line: Place
    agi: int
    attacker_agi: int


class NoDefenseDeclared(Ev, frozen=True):
    seat: SeatNo


class DefenseFixed(Ev, frozen=True):
    """W-12.4: what the combat is, final from now on (W-12.7)."""

    line: Place | None = None
    card: CardId | None = None
    on_player: bool = False
    decision: SeqRef = 0           # seq of the defense declaration: the damage traces back to it


class CombatDamage(Ev, frozen=True):
    """Damage to a unit: the dealer's STR, the receiver's DEF and the result (W-12.6)."""

    seat: SeatNo
    line: Place
    card: CardId
    amount: Amount
    STR: int = msgspec.field(default=0, name="str")
    DEF: int = msgspec.field(default=0, name="def")


class PlayerAttacked(Ev, frozen=True):
    seat: SeatNo
    STR: int = msgspec.field(default=0, name="str")


class HeartsBroken(Ev, frozen=True):
    seat: SeatNo
    indexes: tuple[Amount, ...]       # W-11.2 / W-Q6: from the bottom up


class LifeLost(Ev, frozen=True):
    seat: SeatNo
    amount: Amount
    life: Amount                      # life after


class UnitDestroyed(Ev, frozen=True):
    seat: SeatNo
    line: Place
    card: CardId
    damage: int = 0
    VIT: int = msgspec.field(default=0, name="vit")
    by: str = "damage"             # damage | effect


class UnitVanished(Ev, frozen=True):
    seat: SeatNo
    line: Place
    card: CardId


class CombatEnded(Ev, frozen=True):
    reason: str


# -- spells, skills, effects (W-10, W-13, W-14) ----------------------------------------------
class SpellCast(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    line: Place                      # the table spot
    cost: int                      # after the element effect (W-6.5)
    towers: tuple[int, ...] = ()
    souls: tuple[CardId, ...] = ()
    targets: tuple[TargetRef, ...] = ()
    heart: bool = False
    heart_soul: int | None = None
    free: bool = False             # instant cast (W-10.5)


class SpellPlaced(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    line: Place
    targets: tuple[TargetRef, ...] = ()
    waiting: bool = False          # in a reaction chain (W-Q7)
    cast: SeqRef = 0               # seq of the cast


class SpellResolved(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    line: Place


class SpellFizzled(Ev, frozen=True):
    """W-10.4: its targets can no longer be chosen correctly; it does nothing."""

    seat: SeatNo
    card: CardId
    line: Place
    reason: str


class SpellStays(Ev, frozen=True):
    """W-10.3: a Long Spell stays on its table spot and keeps applying."""

    seat: SeatNo
    card: CardId
    line: Place
    since: int


class SpellBroken(Ev, frozen=True):
    seat: SeatNo
    line: Place


class CardMoved(Ev, frozen=True):
    """A card moves between zones; to hand/deck/soul/grave/seal always the owner's (W-3.5)."""

    card: CardId
    src: str                       # hand | deck | soul | grave | seal | stage | table | heart
    dst: str
    seat: SeatNo                      # whose zone it leaves
    line: Place = 0                  # for stage and table


class HeartCast(Ev, frozen=True):
    """W-11.4: the face-up top heart is cast and the same-element soul is paid; the card leaves the
    hearts with the UnitSummoned or SpellPlaced that follows (one zone at a time)."""

    seat: SeatNo
    card: CardId
    soul: CardId                      # the same-element soul paid on top of the cost


class HeartRevealed(Ev, frozen=True):
    seat: SeatNo
    card: CardId


class SkillActivated(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    skill: int
    towers: tuple[int, ...] = ()
    souls: tuple[CardId, ...] = ()
    targets: tuple[TargetRef, ...] = ()


class SkillTriggered(Ev, frozen=True):
    trigger: Trigger
    when: str


class ChoiceAwaited(Ev, frozen=True):
    choice: Choice


class TargetsChosen(Ev, frozen=True):
    seat: SeatNo
    targets: tuple[TargetRef, ...]


class SkillDeclined(Ev, frozen=True):
    seat: SeatNo


class TriggerResolves(Ev, frozen=True):
    """The oldest waiting trigger resolves now, with these targets (W-13.2)."""

    trigger: Trigger
    targets: tuple[TargetRef, ...] = ()


class SkillResolved(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    skill: int
    targets: tuple[TargetRef, ...] = ()


class SkillFizzled(Ev, frozen=True):
    seat: SeatNo
    card: CardId
    skill: int
    reason: str
    queued: bool = False           # it was the oldest waiting trigger


class EffectAdded(Ev, frozen=True):
    effect: Effect


class EffectsEnded(Ev, frozen=True):
    ids: tuple[SeqRef, ...]          # the effects (by the seq that created each), not cards
    reason: str


class StatusGiven(Ev, frozen=True):
    seat: SeatNo
    line: Place
    status: StatusName
    replaced: StatusName | None = None


class StatusRemoved(Ev, frozen=True):
    seat: SeatNo
    line: Place
    status: StatusName


class RecoveryCancelled(Ev, frozen=True):
    """W-9.3: paralysis is removed instead of the unit recovering."""

    seat: SeatNo
    line: Place


class UnitDamaged(Ev, frozen=True):
    """Damage from a skill or spell; wave damage ignores DEF (W-14.5)."""

    seat: SeatNo
    line: Place
    card: CardId
    amount: Amount
    base: int = 0
    DEF: int = msgspec.field(default=0, name="def")
    wave: bool = False


class PlayerDamaged(Ev, frozen=True):
    seat: SeatNo
    amount: Amount
    wave: bool = False


class DamagePrevented(Ev, frozen=True):
    seat: SeatNo
    line: Place
    card: CardId
    reason: str


class DestroyPrevented(Ev, frozen=True):
    """W-1.2: a prohibition ("is not destroyed by spells") wins over the effect."""

    seat: SeatNo
    line: Place
    card: CardId
    reason: str


class LifeGained(Ev, frozen=True):
    seat: SeatNo
    amount: Amount
    life: Amount


class UnitRegenerated(Ev, frozen=True):
    seat: SeatNo
    line: Place


class UnitShifted(Ev, frozen=True):
    """A unit moved by an effect (not a unit action, so it does not break)."""

    seat: SeatNo
    line: Place
    to: Place


class ControlGained(Ev, frozen=True):
    """W-3.5: the controller changes; the owner never does."""

    seat: SeatNo                      # the new controller
    card: CardId
    src_line: Place
    line: Place


class UnitSummonedFree(Ev, frozen=True):
    """W-8.5 instant summon: no cost and no sleep."""

    seat: SeatNo
    card: CardId
    line: Place
    src: str                       # hand | soul


class WindowOpened(Ev, frozen=True):
    window: Window


class Passed(Ev, frozen=True):
    seat: SeatNo


class ChainResolving(Ev, frozen=True):
    chain: tuple[int, ...]


class WindowClosed(Ev, frozen=True):
    step: int


class CombatStep(Ev, frozen=True):
    step: str


class CardsMilled(Ev, frozen=True):
    seat: SeatNo
    cards: tuple[CardId, ...]


# -- end of the match -------------------------------------------------------------------------
class PlayerLost(Ev, frozen=True):
    seat: SeatNo
    reason: str


class MatchEnded(Ev, frozen=True):
    termination: str
    winner: SeatNo | None = None


Event = Union[
    DeckShuffled, HeartsSet, CoinTossed, OrderChosen, CardsDrawn, MulliganTaken, MulliganDeclined, HandReturned,
    GameBegan, TurnBegan, PhaseBegan, Recovered, DamageRemoved, HeartRecovered, FirstTurnSkips, CardDrawn, DeckOut,
    PhaseLeft, SleepRemoved, TowerSet, SummonDeclared, CostPaid, KeeperBroken, UnitSummoned, UnitMoved, UnitBroken,
    AttackDeclared, TargetDeclared, BlockDeclared, EvadeDeclared, NoDefenseDeclared, DefenseFixed, CombatDamage,
    PlayerAttacked, HeartsBroken, LifeLost, UnitDestroyed, UnitVanished, CombatEnded, PlayerLost, MatchEnded,
    SpellCast, SpellPlaced, SpellResolved, SpellFizzled, SpellStays, SpellBroken, CardMoved, HeartCast,
    HeartRevealed, SkillActivated, SkillTriggered, ChoiceAwaited, TargetsChosen, SkillDeclined, SkillResolved,
    SkillFizzled, TriggerResolves, EffectAdded, EffectsEnded, StatusGiven, StatusRemoved, RecoveryCancelled,
    UnitDamaged, PlayerDamaged, DamagePrevented, DestroyPrevented, LifeGained, UnitRegenerated, UnitShifted,
    ControlGained, UnitSummonedFree, WindowOpened, Passed, ChainResolving, WindowClosed, CombatStep, CardsMilled,
]
