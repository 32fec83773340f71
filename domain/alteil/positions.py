"""Prepared positions, built card by card: for the rule tests and the corpus's ruling scenarios.

``Position`` starts from two copies of ``TEST_DECK`` in registered order (nothing shuffled,
nothing drawn) and moves named cards out of the deck into the zone wanted, so every card stays
in exactly one zone. ``match()`` starts a real Match from that position; the core records it as
one prepared-position event, and play goes on through ``decide`` as in any match.
"""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset

from .cards import by_number
from .decks import DeckList, validate
from .state import Side, State, Unit
from .vocabulary import ACT, ACTION, SET, WINDOW, owner

# every card of the set twice, seven plain ones a third time: 51 cards
TEST_DECK = validate(DeckList(name="test-all", cards=tuple(
    by_number()[n].name for n in (*range(1, 23), *range(1, 23), 1, 5, 9, 13, 8, 10, 11))))

class Position:
    def __init__(self, squares: bool = True) -> None:
        names = TEST_DECK.cards

        def deck(seat: int) -> tuple[int, ...]:
            return tuple(seat * 1000 + i + 1 for i in range(len(names)))

        self.labels: dict[str, int] = {}        # a scenario's names for the cards it placed
        self.state = State(names=(names, names), sides=(Side(deck=deck(1)), Side(deck=deck(2))), turn=1,
                           turn_seat=1, first_seat=1, step=SET, actor=1)
        if squares:
            for seat in (1, 2):
                self.squares(seat, "聖なる祈り", "火球", "闇の囁き", "水鏡の破砕", "恵みの雨", "加速の呪文")

    # -- moving cards -----------------------------------------------------------------------
    def take(self, seat: int, name: str) -> int:
        side = self.state.side(seat)
        for card in side.deck:
            if self.state.name(card) == name:
                self._side(seat, deck=tuple(x for x in side.deck if x != card))
                return card
        raise LookupError(f"no {name} left in seat {seat}'s deck")

    def _side(self, seat: int, **fields: Any) -> Position:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **fields)
        self.state = replace(self.state, sides=(sides[0], sides[1]))
        return self

    def squares(self, seat: int, *names: str) -> tuple[int, ...]:
        """Set the six battlefield cards (those set before go back to the deck's bottom)."""
        side = self.state.side(seat)
        self._side(seat, deck=side.deck + tuple(x for x in side.squares if x), squares=())
        cards = tuple(self.take(seat, n) for n in names)
        self._side(seat, squares=cards, destroyed=(False,) * 6)
        return cards

    def destroy(self, seat: int, *squares: int) -> Position:
        side = self.state.side(seat)
        sq, gone = list(side.squares), list(side.destroyed)
        hand = side.hand
        for s in squares:
            hand += (sq[s - 1],)
            sq[s - 1] = 0
            gone[s - 1] = True
        return self._side(seat, squares=tuple(sq), destroyed=tuple(gone), hand=hand)

    def hand(self, seat: int, *names: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names)
        self._side(seat, hand=self.state.side(seat).hand + cards)
        return cards

    def unit(self, seat: int, name: str, square: int, **fields: Any) -> int:
        card = self.take(seat, name)
        self._side(seat, units=self.state.side(seat).units + (Unit(card=card, square=square, **fields),))
        return card

    def influence(self, seat: int, *names: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names)
        self._side(seat, influence=self.state.side(seat).influence + cards)
        return cards

    def soul(self, seat: int, n: int) -> tuple[int, ...]:
        side = self.state.side(seat)
        self._side(seat, deck=side.deck[n:], soul=side.soul + side.deck[:n])
        return side.deck[:n]

    def zone(self, seat: int, zone: str, *names: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names)
        self._side(seat, **{zone: getattr(self.state.side(seat), zone) + cards})
        return cards

    def deck(self, seat: int, keep: int) -> Position:
        """Leave only ``keep`` cards in the deck (the rest to 戦禍)."""
        side = self.state.side(seat)
        return self._side(seat, deck=side.deck[:keep], senka=side.senka + side.deck[keep:])

    def at(self, **flow: Any) -> Position:
        self.state = replace(self.state, **flow)
        return self

    def acting(self, card: int) -> Position:
        """The action phase, ``card`` about to act."""
        return self.at(step=ACTION, sub=ACT, acting=card, actor=owner(card))

    def window(self, seat: int, step: str = ACTION) -> Position:
        return self.at(step=step, sub=WINDOW, actor=seat)

    def match(self, seed: int = 1, match_id: str = "", players: tuple[str, str] = ("p1", "p2")) -> Match:
        return Match.create(find_ruleset("alteil"), match_id=match_id or f"test-{seed}", seed=seed,
                            decks=[TEST_DECK, TEST_DECK], players=players, start=self.state)


