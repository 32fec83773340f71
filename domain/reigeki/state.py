"""The reigeki match state: two sides, each with its areas (R-2): a 2×3 stage (R-2.2) and zones (R-2.1).

Places on a stage are 1..6: front row (前衛) 1 2 3, back row (後衛) 4 5 6 (left to right from the
owner's seat); the leader starts on 2, the front centre (R-5.2). Card ids are ``seat*100 + i``
(``i`` indexes ``Side.keys``); 0 is a hidden card.
"""
from __future__ import annotations

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.roles import CardId
from kifu.domain.core.ruleset import Outcome

Phase = str   # "setup" "mulligan" "step" "main" "attack" "guard" "spell" "effect1" "battle" "effect2" "end" "over"

FRONT = (1, 2, 3)
BACK = (4, 5, 6)
LEADER_PLACE = 2
PLACE_NAMES = {1: "前衛左", 2: "前衛中央", 3: "前衛右", 4: "後衛左", 5: "後衛中央", 6: "後衛右"}


# Every state struct is frozen and holds numbers, strings and tuples of other state structs: none
# can be in a reference cycle, so none is tracked by the cyclic collector (gc=False, as WORLFARD's
# and alteil's), which otherwise traversed the states a fold makes and drops, one or more per event.
@implements("R-3.2")
class Unit(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """A card standing in an area: a character (with the Lv3 under an LvEx) or the leader."""

    card: CardId
    under: CardId = 0            # the Lv3 beneath an LvEx
    leader: bool = False
    burst: bool = False          # sideways: acted
    entered: int = 0             # the turn it entered the stage (R-7.2: LvEx needs an older Lv3)
    under_entered: int = 0       # the turn the Lv3 beneath entered: it keeps it when the LvEx leaves (R-Q15)


class Mod(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """A power/graze change on one card on the stage; ``lasting`` survives the end phase (R-6.7)."""

    card: CardId
    power: int = 0
    graze: int = 0
    lasting: bool = False


@implements("R-2.1")
class Side(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    keys: tuple[str, ...] = ()                       # card key by index: id = seat*100 + index
    deck: tuple[CardId, ...] = ()                    # top first
    hand: tuple[CardId, ...] = ()
    discard: tuple[CardId, ...] = ()
    exdeck: tuple[CardId, ...] = ()
    exdiscard: tuple[CardId, ...] = ()
    reiryoku: tuple[CardId, ...] = ()                # 霊力: spells face down, 霊撃 face up
    damage: tuple[CardId, ...] = ()                  # in order of arrival
    flipped: tuple[CardId, ...] = ()                 # damage cards turned face down
    stage: tuple[Unit | None, ...] = (None,) * 6
    mulliganed: bool = False
    spell_turn: int = 0                              # the turn this seat last used a spell (R-Q4)
    lost: str = ""


class Battle(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """The attack in progress (R-8): who attacks whom, the guards given, whether it was nullified."""

    attacker: CardId
    attacker_place: int
    target: CardId
    target_place: int
    guards: int = 0
    nullified: bool = False
    cause: int = 0               # seq of the last event that set the attack's power (declaration, guard)


class Result(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    termination: str
    winner: int | None = None
    clause: str = ""


class State(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    sides: tuple[Side, Side] = (Side(), Side())
    first: int = 0
    active: int = 0
    turn: int = 0
    phase: Phase = "setup"
    moved: tuple[CardId, ...] = ()                   # cards moved in this step phase (R-Q6)
    battle: Battle | None = None
    mods: tuple[Mod, ...] = ()
    result: Result | None = None

    def side(self, seat: int) -> Side:
        return self.sides[seat - 1]


def initial_state(header: object) -> State:
    """The state before setup: every reigeki match starts from the same empty one."""
    return State()


def outcome(state: State) -> Outcome | None:
    r = state.result
    return None if r is None else Outcome(termination=r.termination, winner=r.winner, clause=r.clause)


def judged_result(state: State, outcome: Outcome) -> State:
    """A judge's result (game loss, draw) written as the match's result."""
    return msgspec.structs.replace(state, result=Result(termination=outcome.termination, winner=outcome.winner,
                                                        clause=outcome.clause))


def other(seat: int) -> int:
    return 3 - seat


def owner(card: int) -> int:
    return card // 100
