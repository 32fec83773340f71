"""Alteil's words and numbers, in one place: gods, squares, the phases and the interpretation flags.

Every constant that carries a reading of the seed names its clause; the flags that the digest asks
to keep switchable (A-Q1 preparation for both players, A-Q8 hand limit for both) live here.
"""
from __future__ import annotations

from typing import Final

from kifu.domain.core.clauses import declare

GODS: Final = ("Lifes", "Lotia", "Gouen", "Falkau")          # リフェス ローティア ゴウエン ファルカウ
declare("A-2.2", data=GODS)
GOD_JA: Final = {"Lifes": "リフェス", "Lotia": "ローティア", "Gouen": "ゴウエン", "Falkau": "ファルカウ"}

DECK_SIZE: Final = 51          # 51枚ちょうど
COPIES_MAX: Final = 3          # 同一番号カードはデッキに3枚まで
HAND_START: Final = 6          # 開始手札: 6枚
HAND_LIMIT: Final = 7          # 上限は7枚
SQUARES: Final = 6             # 3*2マス; 6枚
COLUMNS: Final = 3
FRONT: Final = (1, 2, 3)       # squares 1-3 are the front row,
BACK: Final = (4, 5, 6)        #       squares 4-6 the back row
DEATHS_TO_LOSE: Final = 7      # 相手のユニットが7体以上死亡する
SECOND_PLAYER_SOUL: Final = 1  # 後攻は1

BOTH_PREPARE: Final = True     # A-Q1 PROPOSAL: both players untap, draw and gain soul every turn
LIMIT_BOTH: Final = True       # A-Q8 PROPOSAL: both players discard down to 7 at every end phase

# the steps of a match (State.step)
MULLIGAN: Final = "mulligan"
OPENING: Final = "opening"          # opening influence, chosen sealed by both seats
PREPARATION: Final = "preparation"
INFLUENCE: Final = "influence"
SET: Final = "set"
START: Final = "start"
ACTION: Final = "action"
END: Final = "end"
OVER: Final = "over"

# sub-steps (State.sub)
WINDOW: Final = "window"       # A-Q3 grimoire window (action) / A-5.4 START grimoires (start)
AFTER: Final = "after"         # both seats have passed the window
TIE: Final = "tie"             # a tie choice is awaited
ACT: Final = "act"             # a unit's action is awaited
SOUL: Final = "soul"           # discard for soul
LIMIT: Final = "limit"         # hand limit
CLEANUP: Final = "cleanup"

HIDDEN: Final = 0


def other(seat: int) -> int:
    return 3 - seat


# Card ids: seat*1000 + position in the registered deck list (1-based), never 0, for the first 999
# cards of a deck, which is every deck a match may register and so every card of every record.
# Only a prepared position may hold more (the bench's long match); its cards from the 1,000th on
# carry the thousands of their position above ``WIDE``: position 1,234 of seat 1 is 11,234. An id
# below ``WIDE`` reads as before, so no record changes.
WIDE = 10_000


def card_id(seat: int, position: int) -> int:
    """The id of the card at ``position`` (1-based) of ``seat``'s registered deck list."""
    return seat * 1000 + position if position < 1000 else seat * 1000 + position % 1000 + position // 1000 * WIDE


def position_of(card: int) -> int:
    """The 1-based position of ``card`` in its owner's registered deck list (``card_id`` undone)."""
    return card % 1000 if card < WIDE else card % 1000 + card // WIDE * 1000


def owner(card: int) -> int:
    """The seat whose deck ``card`` is from (``card_id``)."""
    return card // 1000 if card < WIDE else card % WIDE // 1000


def row_of(square: int) -> str:
    return "front" if square in FRONT else "back"


def square_name(square: int) -> str:
    return f"{row_of(square)}-{(square - 1) % COLUMNS + 1}"
