"""Setup (M-1): the coin, the masters on the board, each deck shuffled by the opponent, opening
hands, and the mulligans with their bottom-of-deck penalty."""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal
from kifu.domain.core.header import Header

from . import events as ev
from .board import master_start, name
from .decks import as_deck
from .effects import MDraft
from .flow import begin_turn
from .state import Side, State
from .vocabulary import HAND_FIRST, HAND_SECOND, START_LIFE, card_id, other


def initial_state(header: Header) -> State:
    """The state before setup: card id = seat * 100 + position in the registered deck; each master
    at 10 life (M-1.2)."""
    decks = tuple(as_deck(d) for d in header.decks)
    one, two = (Side(deck=tuple(card_id(seat, i) for i in range(len(decks[seat - 1].cards))), life=START_LIFE)
                for seat in (1, 2))
    return State(names=(decks[0].cards, decks[1].cards), sides=(one, two))


def hand_size(state: State, seat: int) -> int:
    """M-1.6: the first player draws 5, the second 6."""
    return HAND_FIRST if seat == state.first else HAND_SECOND


@implements("M-1.3", "M-1.4", "M-1.5", "M-1.6")
def begin(header: object, state: State, draft: MDraft) -> None:
    first = 1 + draft.rng.below(2)
    draft.setup("M-1.3", ev.CoinTossed(first=first))
    for seat in (1, 2):
        draft.setup("M-1.4", ev.MasterPlaced(seat=seat, square=name(master_start(seat))), seat=seat)
    for seat in (1, 2):
        order = draft.rng.shuffled(draft.state.side(seat).deck)
        draft.setup("M-1.5", ev.DeckShuffled(seat=seat, by=other(seat), order=order), seat=seat)
    for seat in (first, other(first)):
        n = hand_size(draft.state, seat)
        draft.setup("M-1.6", ev.CardsDrawn(seat=seat, cards=draft.state.side(seat).deck[:n]), seat=seat)


def mulligan_seat(state: State) -> int:
    """M-1.7 (Kifu order): the first player finishes its mulligans and bottom cards, then the second."""
    first = state.side(state.first)
    return state.first if not first.kept or first.bottom_due else other(state.first)


def _check(state: State, seat: int) -> None:
    if state.phase != "mulligan":
        raise Illegal("M-1.7", "mulligans are taken before the game starts")
    if seat != mulligan_seat(state):
        raise Illegal("M-1.7", f"seat {mulligan_seat(state)} decides its mulligans first")


@implements("M-1.5", "M-1.7")
def mulligan(draft: MDraft, seat: int) -> None:
    state = draft.state
    _check(state, seat)
    if state.side(seat).kept:
        raise Illegal("M-1.7", "the hand is kept: put cards on the bottom of the deck now")
    cause = draft.decision(seat, ev.MulliganTaken(seat=seat), clause="M-1.7")
    draft.rule("M-1.7", cause, ev.HandReturned(seat=seat, cards=draft.state.side(seat).hand), seat=seat)
    order = draft.rng.shuffled(draft.state.side(seat).deck)
    draft.rule("M-1.5", cause, ev.DeckShuffled(seat=seat, by=other(seat), order=order), seat=seat)
    n = hand_size(draft.state, seat)
    draft.rule("M-1.7", cause, ev.CardsDrawn(seat=seat, cards=order[:n]), seat=seat)


@implements("M-1.7")
def keep(draft: MDraft, seat: int) -> None:
    state = draft.state
    _check(state, seat)
    if state.side(seat).kept:
        raise Illegal("M-1.7", "the hand is already kept")
    cause = draft.decision(seat, ev.HandKept(seat=seat, mulligans=state.side(seat).mulligans), clause="M-1.7")
    _maybe_start(draft, cause)


@implements("M-1.7")
def bottom(draft: MDraft, seat: int, card: int) -> None:
    state = draft.state
    _check(state, seat)
    side = state.side(seat)
    if not side.kept or not side.bottom_due:
        raise Illegal("M-1.7", "no card is due on the bottom of the deck")
    if card not in side.hand:
        raise Illegal("M-1.7", f"card {card} is not in your hand")
    cause = draft.decision(seat, ev.CardBottomed(seat=seat, card=card), clause="M-1.7")
    _maybe_start(draft, cause)


def _maybe_start(draft: MDraft, cause: int) -> None:
    state = draft.state
    if all(s.kept and not s.bottom_due for s in state.sides):
        begin_turn(draft, 1, state.first, cause)
