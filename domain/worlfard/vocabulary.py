"""WORLFARD's vocabulary: seats, lines, phases, elements, statuses — named as the game names them."""
from __future__ import annotations

from enum import Enum
from typing import Literal, NewType

Seat = Literal[1, 2]
CardId = NewType("CardId", int)   # seat * 1000 + position in the registered deck list
Line = int                        # 1 .. LINES, absolute board columns (W-Q19)

LINES = 5            # W-Q1 proposal: five lines per player
START_LIFE = 12      # W-4.5
HAND_SIZE = 6        # W-4.4
HEART_COUNT = 3      # W-4.1
TOWER_MAX = 5        # W-3.3
DECK_MIN, DECK_MAX, COPIES_MAX = 40, 60, 3   # W-4.1
# W-Q15: no hand limit and no turn limit (a match ends by W-1.1 only); decision timeouts belong
# to the service, not to the rules.


class Phase(str, Enum):
    ORDER = "order"          # W-4.3: the coin winner chooses first or second
    MULLIGAN = "mulligan"    # W-4.4
    START = "start"
    MAIN1 = "main1"
    BATTLE = "battle"
    MAIN2 = "main2"
    END = "end"
    OVER = "over"


Element = Literal["火", "水", "風", "地", "光", "闇"]
ELEMENTS: tuple[str, ...] = ("火", "水", "風", "地", "光", "闇")
CardType = Literal["UT", "MS", "SS", "LS"]


class Status(str, Enum):
    """W-9 statuses ([CON=…]); a unit has at most one."""

    SLEEP = "睡眠"
    POISON = "毒"
    PARALYSIS = "麻痺"
    CURSE = "呪い"
    RAGE = "激昂"


def other(seat: int) -> Seat:
    return 2 if seat == 1 else 1  # type: ignore[return-value]


def owner_of(card: int) -> Seat:
    """W-3.5: the owner never changes; it is encoded in the card id."""
    return card // 1000  # type: ignore[return-value]
