"""Positions for the reigeki rule tests: a real setup, then named cards moved where a test wants them.

``Pos`` starts from the state after a real setup (hakurei for seat 1, scarlet for seat 2, both
mulligans decided) and takes cards by key out of their deck or Ex deck into a zone, so every card
stays in exactly one zone. ``match()`` starts a Match from that prepared position (R-5), and
commands are then submitted to it as in play.
"""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from kifu.domain.core.errors import Illegal
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.reigeki import commands as c
from kifu.domain.reigeki import events as e
from kifu.domain.reigeki.decide import card_of
from kifu.domain.reigeki.state import State, Unit

RULES = find_ruleset("reigeki")
DECKS = [RULES.content.load_deck("hakurei"), RULES.content.load_deck("scarlet")]

__all__ = ["RULES", "DECKS", "Pos", "attack", "c", "e", "kinds", "of", "one", "illegal", "started"]


def started(seed: int = 1, decks: list[Any] | None = None) -> Match:
    return Match.create(RULES, match_id=f"t{seed}", seed=seed, decks=decks or DECKS, players=("a", "b"))


class Pos:
    def __init__(self, seed: int = 1, active: int = 1, turn: int = 3, phase: str = "main",
                 decks: list[Any] | None = None) -> None:
        self.decks = decks or DECKS
        m = started(seed, self.decks)
        s: State = m.state
        sides = []
        for side in s.sides:     # opening hands back into the decks: tests place exactly what they need
            sides.append(replace(side, deck=side.hand + side.deck, hand=(), mulliganed=True))
        self.state = replace(s, sides=(sides[0], sides[1]), first=1, active=active, turn=turn, phase=phase)

    def _side(self, seat: int, **changes: Any) -> None:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **changes)
        self.state = replace(self.state, sides=(sides[0], sides[1]))

    def take(self, seat: int, key: str) -> int:
        side = self.state.side(seat)
        for zone in ("deck", "exdeck"):
            cards = getattr(side, zone)
            for card in cards:
                if card_of(self.state, card).key == key:
                    rest = list(cards)
                    rest.remove(card)
                    self._side(seat, **{zone: tuple(rest)})
                    return card
        raise LookupError(f"no {key} left in seat {seat}'s decks")

    def put(self, seat: int, zone: str, key: str) -> int:
        card = self.take(seat, key)
        self._side(seat, **{zone: getattr(self.state.side(seat), zone) + (card,)})
        return card

    def hand(self, seat: int, key: str) -> int:
        return self.put(seat, "hand", key)

    def reiryoku(self, seat: int, key: str) -> int:
        return self.put(seat, "reiryoku", key)

    def damage(self, seat: int, key: str = "") -> int:
        """A card into the damage zone (any character from the deck unless ``key`` is given)."""
        if not key:
            key = next(card_of(self.state, d).key for d in self.state.side(seat).deck
                       if card_of(self.state, d).type == "character")
        return self.put(seat, "damage", key)

    def top(self, seat: int, key: str) -> int:
        """Put a card of ``key`` on top of the deck."""
        card = self.take(seat, key)
        self._side(seat, deck=(card,) + self.state.side(seat).deck)
        return card

    def stage(self, seat: int, place: int, key: str, burst: bool = False, entered: int = 1, under: str = "",
              under_entered: int = 0) -> int:
        card = self.take(seat, key)
        below = self.take(seat, under) if under else 0
        stage = list(self.state.side(seat).stage)
        stage[place - 1] = Unit(card=card, under=below, burst=burst, entered=entered,
                                under_entered=under_entered or (entered if under else 0))
        self._side(seat, stage=tuple(stage))
        return card

    def move_leader(self, seat: int, place: int) -> None:
        stage = list(self.state.side(seat).stage)
        leader = stage[1]
        stage[1] = None
        stage[place - 1] = leader
        self._side(seat, stage=tuple(stage))

    def deck_only(self, seat: int, n: int) -> None:
        """Leave only the top ``n`` cards in the deck (the rest to the discard)."""
        side = self.state.side(seat)
        self._side(seat, deck=side.deck[:n], discard=side.discard + side.deck[n:])

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def side(self, seat: int, **changes: Any) -> None:
        self._side(seat, **changes)

    def match(self) -> Match:
        return Match.create(RULES, match_id="scenario", seed=7, decks=self.decks, players=("a", "b"),
                            start=self.state)


def kinds(envelopes: list[Any]) -> list[str]:
    return [type(env.event).__name__ for env in envelopes]


def of(envelopes: list[Any], kind: type) -> list[Any]:
    return [env for env in envelopes if type(env.event) is kind]


def one(envelopes: list[Any], kind: type) -> Any:
    found = of(envelopes, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {kinds(envelopes)}"
    return found[0]


def illegal(m: Match, seat: int, command: Any, clause: str) -> Illegal:
    before = m.state
    try:
        m.submit(seat, command)
    except Illegal as exc:
        assert exc.clause == clause, f"refused citing {exc.clause} ({exc.reason}), expected {clause}"
        assert m.state == before
        return exc
    raise AssertionError(f"{command!r} was accepted; expected a refusal citing {clause}")


def attack(m: Match, attacker: int, target: int, seat: int = 1) -> list[Any]:
    """Declare an attack and let the defender give no guard and no spell; all the events."""
    out = list(m.submit(seat, c.Attack(attacker=attacker, target=target)))
    while m.outcome is None and m.state.phase in ("guard", "spell"):
        out += m.submit(3 - seat, c.Proceed())
    return out
