"""The state of a novel match: every card instance with its current statistics, and per side its
rows (N-3.1: front and back rows, the magic zone), its pending selection and whether it has
sealed its choice this round. Card ids are 1.. over both decks (seat 1's first)."""
from __future__ import annotations

import msgspec

from kifu.domain.core.clauses import implements

from .events import Acted, MatchEnded, Picked, RevealChosen

ROW_SLOTS = 3        # N-Q2: 3 slots per character row
MAGIC_SLOTS = 3      # N-Q2: 3 magic slots
BUDGET = 6           # N-5.1, N-5.2.1: up to 6 cost per phase
TURN_LIMIT = 100     # N-4.3, N-Q10

ZONES = ("deck", "front", "back", "magic", "grave", "attached")


# Every state struct is frozen and holds numbers, strings and tuples of frozen structs: none can be
# in a reference cycle, so none is tracked by the cyclic collector (gc=False, as WORLFARD's), which
# otherwise counted every card a fold or a decision replaces and traversed every state kept alive.
class Card(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    id: int
    owner: int
    name: str
    zone: str = "deck"           # deck | front | back | magic | grave | attached
    hp: int = 0
    max_hp: int = 0
    atk: int = 0
    def_: int = 0
    agi: int = 0
    rng: int = 0
    attached_to: int = 0         # equipment: the character it is under (kept in the graveyard, N-6.2)
    summoned: int = -1           # the turn it entered the field (N-6.1)
    acted: bool = False
    stunned: bool = False
    face_down: bool = False      # magic set face down (N-3.2)
    live: bool = False           # magic that resolves in this turn's magic phase
    target: int = 0              # magic: the target chosen at select (N-5.2.1)

    def stat(self, name: str) -> int:
        return int(getattr(self, "def_" if name == "def" else name))


@implements("N-3.1")
class Side(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    seat: int
    front: tuple[int, ...] = ()
    back: tuple[int, ...] = ()
    magic: tuple[int, ...] = ()
    picks: tuple[Picked, ...] = ()
    reveals: tuple[RevealChosen, ...] = ()
    spent: int = 0
    done: bool = False
    sealed: bool = False          # has sealed its choice of this round (ChoiceSealed seen)
    act: Acted | None = None      # its revealed choice for the lit AGI group
    lost: str = ""


class State(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    turn: int = 0
    phase: str = "setup"          # setup | first | select | skill | over
    cards: tuple[Card, ...] = ()
    sides: tuple[Side, Side] = (Side(seat=1), Side(seat=2))
    group: tuple[int, ...] = ()   # the lit AGI group (N-6.5)
    ended: MatchEnded | None = None

    def card(self, cid: int) -> Card:
        return self.cards[cid - 1]

    def side(self, seat: int) -> Side:
        return self.sides[seat - 1]

    def field(self, seat: int) -> tuple[int, ...]:
        s = self.sides[seat - 1]
        return s.front + s.back

    def deck(self, seat: int) -> list[Card]:
        return [c for c in self.cards if c.owner == seat and c.zone == "deck"]
