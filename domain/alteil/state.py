"""The state of an alteil match (A-3 areas): two sides (deck, hand, soul pile, battlefield, units, influence,
戦禍, cemetery) and where the turn stands. Frozen Structs; ``evolve`` builds new ones.

Card ids are seat*1000 + position in the registered deck list (1-based, ``vocabulary.card_id``); 0
is a hidden card.
A deck's top is index 0; the soul pile's top is its last card.
"""
from __future__ import annotations

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.ruleset import Outcome

from .cards import CardData, catalog
from .vocabulary import MULLIGAN, SQUARES, WIDE, owner, position_of


# Every state struct is frozen and holds numbers, strings and tuples of other state structs (a run's
# fold puts lists of card ids in for a while: ``piles``): none can be in a reference cycle, so none is
# tracked by the cyclic collector (gc=False, as WORLFARD's), which otherwise traversed the states a
# fold makes and drops, one or more per event.
class Unit(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    card: int
    square: int                 # 1-3 front row, 4-6 back row
    damage: int = 0             # accumulates across turns (A-8.1, A-Q12)
    acted: bool = False         # 行動済み: has acted this action phase
    at: int = 0                 # modifiers until the end phase
    df: int = 0
    agi: int = 0


class Pending(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A NEXT skill used this turn, applied at the next turn's start phase (A-Q2)."""

    seat: int
    card: int
    turn: int


@implements("A-3.3")
class Side(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    deck: tuple[int, ...] = ()
    hand: tuple[int, ...] = ()
    soul: tuple[int, ...] = ()                      # face-down soul pile
    squares: tuple[int, ...] = ()                   # battlefield cards; 0 once destroyed
    destroyed: tuple[bool, ...] = (False,) * SQUARES
    units: tuple[Unit, ...] = ()
    influence: tuple[int, ...] = ()
    senka: tuple[int, ...] = ()                     # 戦禍
    cemetery: tuple[int, ...] = ()
    mulligan: str = "pending"                       # pending | kept | taken
    lost: str = ""

    def unit(self, card: int) -> Unit | None:
        for u in self.units:
            if u.card == card:
                return u
        return None

    def at_square(self, square: int) -> Unit | None:
        for u in self.units:
            if u.square == square:
                return u
        return None

    @property
    def life(self) -> int:
        """A-4.3: life is the number of battlefield squares left."""
        return sum(1 for d in self.destroyed if not d)


class State(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    names: tuple[tuple[str, ...], tuple[str, ...]]
    sides: tuple[Side, Side]
    turn: int = 0
    turn_seat: int = 0
    first_seat: int = 0
    step: str = MULLIGAN
    sub: str = ""
    actor: int = 1                    # the seat awaited (0: none, or both in a sealed step)
    sealed_by: tuple[int, ...] = ()   # seats whose opening influence is sealed
    opened: tuple[int, ...] = ()      # seats whose opening influence is revealed and placed
    gods_used: tuple[str, ...] = ()   # gods given influence this influence phase
    passes: int = 0                   # successive passes in the set phase (A-Q6)
    acting: int = 0                   # the unit whose action is awaited
    tie_agi: int | None = None        # the AGI of the tie being chosen, and whose choice is next
    tie_seat: int = 0
    pending: tuple[Pending, ...] = ()
    outcome: Outcome | None = None

    def side(self, seat: int) -> Side:
        return self.sides[seat - 1]

    def name(self, card: int) -> str:
        if card < WIDE:
            seat, i = card // 1000, card % 1000 - 1
        else:                                  # (``vocabulary.card_id``)
            seat, i = owner(card), position_of(card) - 1
        if not 1 <= seat <= len(self.names):   # HIDDEN, or no card of this match
            return ""
        names = self.names[seat - 1]
        return names[i] if 0 <= i < len(names) else ""

    def data(self, card: int) -> CardData | None:
        return catalog().get(self.name(card))

    def unit(self, card: int) -> tuple[int, Unit] | None:
        for seat in (1, 2):
            u = self.sides[seat - 1].unit(card)
            if u is not None:
                return seat, u
        return None
