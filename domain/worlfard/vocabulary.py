"""WORLFARD's vocabulary: seats, lines, phases, elements, statuses — named as the game names them."""
from __future__ import annotations

from typing import Final, Literal, NewType, cast

from kifu.domain.core.clauses import declare, implements

Seat = Literal[1, 2]
CardId = NewType("CardId", int)   # seat * 1000 + position in the registered deck list (``card_id``)
Line = int                        # 1 .. LINES, absolute board columns (W-Q19)

LINES = 5            # W-Q1 proposal: five lines per player
declare("W-Q1", data=LINES, name="LINES")
START_LIFE = 12      # W-4.5
HAND_SIZE = 6        # W-4.4
HEART_COUNT = 3      # W-4.1
TOWER_MAX = 5        # W-3.3
DECK_MIN, DECK_MAX, COPIES_MAX = 40, 60, 3   # W-4.1
# W-Q15: no hand limit and no turn limit (a match ends by W-1.1 only); decision timeouts belong
# to the service, not to the rules.


# Phases and statuses are the plain strings the record writes, named by constants: on Python 3.11
# reading an Enum member (``Phase.MAIN1``) costs ~80 ns through EnumType's ``__getattr__`` hook,
# and the rules read them in every step of every decision (4% of self-play); a constant costs a
# plain class lookup. The Literal types keep the decoding and the type checks as strict.
PhaseName = Literal["order", "mulligan", "start", "main1", "battle", "main2", "end", "over"]


class Phase:
    """The phases of the match (W-5), and the two before it begins."""

    ORDER: Final = "order"          # W-4.3: the coin winner chooses first or second
    MULLIGAN: Final = "mulligan"    # W-4.4
    START: Final = "start"
    MAIN1: Final = "main1"
    BATTLE: Final = "battle"
    MAIN2: Final = "main2"
    END: Final = "end"
    OVER: Final = "over"


Element = Literal["火", "水", "風", "地", "光", "闇"]
ELEMENTS: tuple[str, ...] = ("火", "水", "風", "地", "光", "闇")
CardType = Literal["UT", "MS", "SS", "LS"]


StatusName = Literal["睡眠", "毒", "麻痺", "呪い", "激昂"]


@implements("W-9")
class Status:
    """W-9 statuses ([CON=…]); a unit has at most one."""

    SLEEP: Final = "睡眠"
    POISON: Final = "毒"
    PARALYSIS: Final = "麻痺"
    CURSE: Final = "呪い"
    RAGE: Final = "激昂"


def other(seat: int) -> Seat:
    return 2 if seat == 1 else 1


# Card ids: seat * 1000 + position for the first 1,000 cards of a deck, which is every deck a
# match may register (W-4.1 caps them far below) and so every card of every record. Only a
# prepared position may hold more (the bench's long match, 100,000 events and more); its cards from
# the 1,000th on carry the thousands of their position above ``WIDE``: position 1,234 of seat 1 is
# 11,234. An id below ``WIDE`` reads as before, so no record changes.
WIDE = 10_000


def card_id(seat: int, index: int) -> int:
    """The id of the card at ``index`` of ``seat``'s registered deck list."""
    return seat * 1000 + index if index < 1000 else seat * 1000 + index % 1000 + index // 1000 * WIDE


def card_index(card: int) -> int:
    """The position of ``card`` in its owner's registered deck list (``card_id`` undone)."""
    return card % 1000 if card < WIDE else card % 1000 + card // WIDE * 1000


@implements("W-3.5")
def owner_of(card: int) -> Seat:
    """W-3.5: the owner never changes; it is encoded in the card id."""
    return cast(Seat, card // 1000 if card < WIDE else card % WIDE // 1000)
