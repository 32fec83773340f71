"""The masters game's vocabulary and every number the seed leaves open, each behind one name.

The seed (002) gives the deck size, life, opening hands and hand limit; the board, movement,
mana and ambush are the digest's proposals (M-Q1 .. M-Q13), each kept here or in one function
so that a different reading is one change.
"""
from __future__ import annotations

from typing import Literal

DECK_SIZE = 40                 # M-1.1: デッキの枚数は40枚
COPIES_MAX = 3                 # M-1.1 (Kifu): at most 3 copies of a name; the seed names no limit
START_LIFE = 10                # M-1.2: 各マスターの初期ライフは10点
HAND_FIRST = 5                 # M-1.6: 先攻はカードを5枚
HAND_SECOND = 6                # M-1.6: 後攻は6枚
HAND_LIMIT = 8                 # M-7.2: 最大枚数(8枚)
DOOM_TO_WIN = 3                # M-C9: the special-victory card's counters (invented)

# M-Q1: the board is BOARD_COLS × BOARD_ROWS; a territory is the TERRITORY_ROWS rows nearest
# to its owner (seat 1 rows 1-2, seat 2 rows 5-6); the master starts at the centre of its back row.
BOARD_COLS = 5
BOARD_ROWS = 6
TERRITORY_ROWS = 2

Phase = Literal["mulligan", "standby", "main1", "action", "main2", "end", "over"]
TURN_PHASES: tuple[Phase, ...] = ("standby", "main1", "action", "main2", "end")
MAIN_PHASES = ("main1", "main2")
SKILL_PHASE = "action"           # M-5.4: the one phase whose list names activated skills (combats are in it)
PHASE_CLAUSE = {"standby": "M-3", "main1": "M-4", "action": "M-5", "main2": "M-6", "end": "M-7"}
PHASE_NAMES = {"mulligan": "mulligan", "standby": "standby", "main1": "main 1", "action": "action",
               "main2": "main 2", "end": "end", "over": "over"}

MASTER = -1                     # a combat's defender when the attacked square holds a master (M-Q4)


def other(seat: int) -> int:
    return 3 - seat


# Card ids: seat * 100 + position in the registered deck (from 0) for a deck's first 100 cards,
# which is every deck a match may register (M-1.1: 40) and so every card of every record. Only a
# prepared position may hold more (the bench's long match); its cards from the 100th on carry the
# hundreds of their position above ``WIDE``: position 123 of seat 1 is 1,123. An id below ``WIDE``
# reads as before, so no record changes.
WIDE = 1_000


def card_id(seat: int, index: int) -> int:
    """The id of the card at ``index`` of ``seat``'s registered deck."""
    return seat * 100 + index if index < 100 else seat * 100 + index % 100 + index // 100 * WIDE


def card_seat(cid: int) -> int:
    """The seat whose deck card ``cid`` is from (``card_id``)."""
    return cid // 100 if cid < WIDE else cid % WIDE // 100


def card_index(cid: int) -> int:
    """The position of card ``cid`` in its owner's registered deck (``card_id`` undone)."""
    return cid % 100 if cid < WIDE else cid % 100 + cid // WIDE * 100
