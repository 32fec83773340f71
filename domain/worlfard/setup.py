"""Game start (W-4): shuffles, hearts, the coin, the order choice, opening hands and mulligans."""
from __future__ import annotations

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal
from kifu.domain.core.header import Header

from . import events as ev
from .decks import DeckList
from .draft import WDraft
from .state import Side, State
from .turns import begin_turn
from .vocabulary import HAND_SIZE, START_LIFE, Phase, card_id, other


def initial_state(header: Header) -> State:
    """The state before setup: each deck in registered order, card id = seat*1000 + position (``card_id``)."""
    decks: tuple[DeckList, ...] = tuple(_as_deck(d) for d in header.decks)
    names = (decks[0].cards, decks[1].cards)
    one, two = (Side(deck=tuple(card_id(seat, i) for i in range(len(names[seat - 1])))) for seat in (1, 2))
    return State(names=names, heart_names=(decks[0].hearts, decks[1].hearts), sides=(one, two))


def _as_deck(raw: object) -> DeckList:
    return raw if isinstance(raw, DeckList) else msgspec.convert(raw, DeckList)


@implements("W-4.2", "W-4.3", "W-11.1")
def begin(header: object, state: State, draft: WDraft) -> None:
    """W-4.2: shuffle, set the 3 hearts face-down in random order (top face-up, W-11.1); W-4.3 the coin.

    (A header with a prepared ``start`` position is begun by the core instead, citing W-4.)"""
    for seat in (1, 2):
        side = draft.state.side(seat)
        order = draft.rng.shuffled(side.deck)
        draft.setup("W-4.2", ev.DeckShuffled(seat=seat, order=order), seat=seat)
        wanted = list(draft.state.heart_names[seat - 1])
        hearts = []
        for card in order:  # the first copy of each heart name in shuffled order
            name = draft.state.name(card)
            if name in wanted:
                wanted.remove(name)
                hearts.append(card)
        draft.setup("W-4.2", ev.HeartsSet(seat=seat, hearts=draft.rng.shuffled(hearts)), seat=seat)
    draft.setup("W-4.3", ev.CoinTossed(winner=1 + draft.rng.below(2)))


@implements("W-4.3", "W-4.4", "W-Q16")
def choose_order(draft: WDraft, seat: int, go_first: bool) -> None:
    if draft.state.phase != Phase.ORDER:
        raise Illegal("W-4.3", "the playing order has already been chosen")
    chosen = draft.decision(seat, ev.OrderChosen(seat=seat, go_first=go_first), clause="W-4.3")
    for s in (draft.state.first_seat, other(draft.state.first_seat)):
        draft.rule("W-4.4", chosen, ev.CardsDrawn(seat=s, cards=draft.state.side(s).deck[:HAND_SIZE]), seat=s)


@implements("W-4.4", "W-Q16")
def mulligan(draft: WDraft, seat: int, redraw: bool) -> None:
    """W-4.4 with W-Q16: the first player decides first, then the second; once each."""
    state = draft.state
    if state.phase != Phase.MULLIGAN or state.side(seat).mulligan != "pending":
        raise Illegal("W-4.4", f"seat {seat} has no mulligan decision to make")
    if not redraw:
        cause = draft.decision(seat, ev.MulliganDeclined(seat=seat), clause="W-4.4")
    else:
        cause = draft.decision(seat, ev.MulliganTaken(seat=seat), clause="W-4.4")
        hand = draft.state.side(seat).hand
        draft.rule("W-4.4", cause, ev.HandReturned(seat=seat, cards=hand), seat=seat)
        order = draft.rng.shuffled(draft.state.side(seat).deck)
        draft.rule("W-4.4", cause, ev.DeckShuffled(seat=seat, order=order), seat=seat)
        draft.rule("W-4.4", cause, ev.CardsDrawn(seat=seat, cards=order[:HAND_SIZE]), seat=seat)
    if all(draft.state.side(s).mulligan != "pending" for s in (1, 2)):
        began = draft.rule("W-4.5", cause, ev.GameBegan(first=draft.state.first_seat, life=START_LIFE))
        begin_turn(draft, 1, draft.state.first_seat, began)
