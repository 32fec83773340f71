"""The state of a WORLFARD match (W-3 areas; W-15 broken/ready): immutable structs, shared
between successive states."""
from __future__ import annotations

from typing import Literal

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.roles import Amount, CardId, OptionRef, Place, SeatNo, SeqRef, TargetRef
from kifu.domain.core.ruleset import Outcome

from .vocabulary import LINES, START_LIFE, WIDE, Phase, PhaseName, StatusName

HIDDEN = 0  # the card id a seat sees in place of a card it may not see


# Every state struct is frozen and holds numbers, strings and tuples of other state structs:
# none can be in a reference cycle, so none is tracked by the cyclic collector (gc=False), which
# otherwise traversed every state a match's draft and caches kept alive.
@implements("W-9", "W-15")
class Unit(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A unit on a stage spot: which card, its damage, whether it is broken, its status (W-9)."""

    card: int
    damage: int = 0
    broken: bool = False
    status: StatusName | None = None


@implements("W-Q7")
class TableSpell(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A spell on a table spot: an SS waiting in a chain (W-Q7) or a Long Spell that stays."""

    card: int
    targets: tuple[TargetRef, ...] = ()
    broken: bool = False
    since: int = 0                 # seq it began to apply (orders set-base effects, W-14.3)
    waiting: bool = False          # cast in a reaction chain, not resolved yet
    cast: int = 0                  # seq of the decision that cast it: what its resolution traces to


class Effect(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A stored effect on a unit (card id), a tower (seat*10+line) or a player (seat).

    ``until``: "stage" lasts while the unit stays (W-14.1); "turn" to the end of this turn;
    "combat" to the end of the combat; "turn:N" to the end of turn N.
    """

    id: SeqRef                     # the seq that created it: later sets win (W-14.3)
    target: TargetRef
    op: str                        # add | set | grant | negate
    stat: str | None = None
    value: Amount = 0
    skill: str | None = None
    until: str = "stage"
    source: CardId = 0


class Trigger(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A triggered skill waiting to resolve, in order of occurrence (W-13.2, W-Q8)."""

    seat: SeatNo                   # its controller
    card: CardId                   # the source card
    skill: int                     # index of the skill on the card
    line: Place = 0                # where the source stood when it fired
    other: CardId = 0              # the combat opponent's card, for "相手の戦闘ユニット"
    spell_line: Place = 0          # an instantly cast spell resolving from this table spot


class Choice(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A decision the rules wait for mid-resolution: targets for a triggered skill, or may/may not."""

    seat: SeatNo
    trigger: Trigger
    options: tuple[OptionRef, ...] = ()    # a card, a card*10+line, a seat or a seat*10+line
    optional: bool = False


class Window(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A reaction window (W-13): who has the right, how many passes in a row, the chain so far."""

    step: int                      # 1 after target declaration, 2 after defense declaration
    seat: SeatNo                   # the player with the right to cast or pass
    passes: int = 0
    chain: tuple[int, ...] = ()    # seat*10+line of each waiting SS, oldest first
    resolving: bool = False


@implements("W-3.3", "W-15")
class Tower(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """A tower pile, bottom first; its height HT is the number of cards (W-3.3)."""

    cards: tuple[int, ...] = ()
    broken: bool = False

    @property
    def height(self) -> int:
        return len(self.cards)

    @property
    def top(self) -> int | None:
        return self.cards[-1] if self.cards else None


class Heart(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    card: int
    broken: bool = False
    face_up: bool = False


Mulligan = Literal["pending", "taken", "kept"]
_EMPTY_STAGE: tuple[Unit | None, ...] = (None,) * LINES
_EMPTY_TABLE: tuple[TableSpell | None, ...] = (None,) * LINES
_EMPTY_TOWERS: tuple[Tower, ...] = (Tower(),) * LINES


@implements("W-3.1")
class Side(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """One player's areas (W-3.1). Decks and hands list the top card first."""

    life: int = START_LIFE
    deck: tuple[int, ...] = ()
    hand: tuple[int, ...] = ()
    hearts: tuple[Heart, ...] = ()
    soul: tuple[int, ...] = ()
    grave: tuple[int, ...] = ()
    seal: tuple[int, ...] = ()
    stage: tuple[Unit | None, ...] = _EMPTY_STAGE
    table: tuple[TableSpell | None, ...] = _EMPTY_TABLE
    towers: tuple[Tower, ...] = _EMPTY_TOWERS
    mulligan: Mulligan = "pending"
    lost: str | None = None


class Combat(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """One combat (W-12): its decisions are final once made (W-12.7)."""

    attacker: int                 # line of the attacking unit
    attacker_card: int
    target: int | None = None     # the declared enemy stage spot (line)
    defended: bool = False        # the defense declaration has been made
    defender: int | None = None   # line of the defending unit, if unit against unit
    defender_card: int | None = None
    on_player: bool = False
    step: str = "attack"          # attack → target → react1 → defend → react2 → damage → after
    decided: int = 0              # seq of the defense declaration (what the damage traces back to)


class State(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    names: tuple[tuple[str, ...], tuple[str, ...]]   # card name by seat, indexed by ``card_index``
    heart_names: tuple[tuple[str, ...], tuple[str, ...]]
    sides: tuple[Side, Side]
    phase: PhaseName = Phase.ORDER
    turn: int = 0
    turn_seat: int = 0
    first_seat: int = 0
    chooser: int = 0
    tower_set: bool = False
    combat: Combat | None = None
    outcome: Outcome | None = None
    effects: tuple[Effect, ...] = ()
    queue: tuple[Trigger, ...] = ()
    choice: Choice | None = None
    window: Window | None = None

    def side(self, seat: int) -> Side:
        return self.sides[seat - 1]

    def name(self, card: int) -> str:
        if card < WIDE:
            return self.names[card // 1000 - 1][card % 1000]
        return self.names[card % WIDE // 1000 - 1][card % 1000 + card // WIDE * 1000]   # (``card_id``)
