"""Positions for the WORLFARD rule tests: a real match after setup, then the pieces a test needs.

``Position`` starts from a match created with the two rule-test decks and driven through the
order choice and both mulligans, then moves named cards of a seat out of its deck (or hand) into
the zone the test wants, so every card stays in exactly one zone. ``build()`` wraps the state in
a ``Match`` that continues the real record, and commands are submitted to it as in play.

The rule-test decks hold only the starter set's plain units (no skills, no spells): each test
sees the one rule it names, not a card's text. Seat 1 plays PLAIN_FLAME (fire and wind), seat 2
PLAIN_TIDE (water and earth); seat 1 goes first. The presets, which use the skill-bearing sample
set, are played by the property tests.

No Short Spell is in these decks, so each reaction window (W-12.3, W-12.5) closes when both
players pass: ``passes`` does that, and ``kinds`` leaves the window bookkeeping out.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from msgspec.structs import replace

from kifu.domain.core.draft import Draft
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Illegal
from kifu.domain.core.match import Match
from kifu.domain.core.rng import Rng
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard import commands as c
from kifu.domain.worlfard.decks import DeckList, validate
from kifu.domain.worlfard.evolve import evolve
from kifu.domain.worlfard.state import Combat, State, Tower, Unit
from kifu.domain.worlfard.vocabulary import Phase, PhaseName, Status, StatusName, other

RULESET = find_ruleset("worlfard")

PLAIN_FLAME = validate(DeckList(name="plain-flame", hearts=("紅蓮の剣士", "ディプテラ", "翠嵐の弓手"), cards=tuple(
    name for name, n in (("火蜥蜴サラマン", 3), ("紅蓮の剣士", 3), ("炎獄の番犬", 3), ("焔の巨兵", 3),
                         ("ディプテラ", 3), ("疾風の鷹", 3), ("翠嵐の弓手", 3), ("嵐竜ゲイル", 3),
                         ("双属の精霊", 3), ("風土の旅人", 3),
                         ("曙光の妖精", 3), ("影の暗殺者", 3), ("大地の戦士", 2), ("闇夜の蝙蝠", 2))
    for _ in range(n))))
PLAIN_TIDE = validate(DeckList(name="plain-tide", hearts=("蒼氷の魔導師", "岩窟のゴーレム", "潮騒の槍兵"), cards=tuple(
    name for name, n in (("水妖ウンディーネ", 3), ("潮騒の槍兵", 3), ("深海の大亀", 3), ("蒼氷の魔導師", 3),
                         ("岩窟のゴーレム", 3), ("大地の戦士", 3), ("ドラムトーテム", 3), ("山嶺の巨獣", 3),
                         ("双属の精霊", 3), ("風土の旅人", 3), ("聖堂の守り手", 3), ("曙光の妖精", 3),
                         ("冥府の亡霊", 2), ("火蜥蜴サラマン", 2))
    for _ in range(n))))
DECKS = (PLAIN_FLAME, PLAIN_TIDE)

# events that only run the reaction windows and the combat's steps (W-12.3, W-12.5, W-13)
WINDOW_EVENTS = frozenset({"WindowOpened", "Passed", "ChainResolving", "WindowClosed", "CombatStep"})

__all__ = ["RULESET", "DECKS", "PLAIN_FLAME", "PLAIN_TIDE", "Phase", "Status", "Combat", "Position", "started",
           "illegal", "kinds", "of", "one", "draft_on", "attack", "defend", "passes", "shown", "c"]


def started(seed: int = 1, decks: tuple[DeckList, DeckList] = DECKS, first: int = 1,
            redraw: tuple[bool, bool] = (False, False)) -> Match:
    """A match at the first player's 1st Main: order chosen so ``first`` goes first, mulligans decided
    (``redraw`` is indexed by seat)."""
    match = Match.create(RULESET, match_id=f"rules-{seed}", seed=seed, decks=list(decks),
                         players=("p1", "p2"))
    chooser = match.deciding
    assert chooser is not None
    match.submit(chooser, c.ChooseOrder(go_first=chooser == first))
    for seat in (first, other(first)):
        match.submit(seat, c.Mulligan(redraw=redraw[seat - 1]))
    return match


class Position:
    """A state built for one test; every method returns what it placed (card ids) or ``self``."""

    def __init__(self, match: Match | None = None, **started_args: Any) -> None:
        self.base = match if match is not None else started(**started_args)
        self.state: State = self.base.state

    # -- low level ------------------------------------------------------------------------------
    def side(self, seat: int, **fields: Any) -> Position:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **fields)
        self.state = replace(self.state, sides=tuple(sides))
        return self

    def set(self, **fields: Any) -> Position:
        self.state = replace(self.state, **fields)
        return self

    def take(self, seat: int, name: str) -> int:
        """A card of ``seat`` named ``name``, taken out of its deck (else its hand)."""
        side = self.state.side(seat)
        for zone in ("deck", "hand"):
            cards: tuple[int, ...] = getattr(side, zone)
            for card in cards:
                if self.state.name(card) == name:
                    self.side(seat, **{zone: tuple(x for x in cards if x != card)})
                    return card
        raise LookupError(f"seat {seat} has no {name} left in deck or hand")

    # -- turn -----------------------------------------------------------------------------------
    def at(self, phase: PhaseName, seat: int = 1, turn: int | None = None) -> Position:
        """It is ``seat``'s turn (default: its second turn, so battle is allowed), in ``phase``."""
        if turn is None:
            turn = 3 if seat == self.state.first_seat else 4
        return self.set(phase=phase, turn=turn, turn_seat=seat)

    # -- zones ----------------------------------------------------------------------------------
    def hand(self, seat: int, *names: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names)
        self.side(seat, hand=self.state.side(seat).hand + cards)
        return cards

    def clear_hand(self, seat: int) -> Position:
        side = self.state.side(seat)
        return self.side(seat, hand=(), deck=side.deck + side.hand)

    def soul(self, seat: int, *names: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names)
        self.side(seat, soul=self.state.side(seat).soul + cards)
        return cards

    def unit(self, seat: int, line: int, name: str, *, damage: int = 0, broken: bool = False,
             status: StatusName | None = None) -> int:
        card = self.take(seat, name)
        stage = list(self.state.side(seat).stage)
        assert stage[line - 1] is None, f"seat {seat} line {line} is taken"
        stage[line - 1] = Unit(card=card, damage=damage, broken=broken, status=status)
        self.side(seat, stage=tuple(stage))
        return card

    def tower(self, seat: int, line: int, *names: str, broken: bool = False) -> tuple[int, ...]:
        """A tower pile, bottom card first."""
        cards = tuple(self.take(seat, n) for n in names)
        towers = list(self.state.side(seat).towers)
        towers[line - 1] = Tower(cards=towers[line - 1].cards + cards, broken=broken)
        self.side(seat, towers=tuple(towers))
        return cards

    def pile(self, seat: int, line: int, height: int, broken: bool = False) -> tuple[int, ...]:
        """A tower of ``height`` cards taken from the bottom of the deck (for costs, where names do not matter)."""
        deck = self.state.side(seat).deck
        assert len(deck) >= height
        cards = deck[len(deck) - height:]
        self.side(seat, deck=deck[:len(deck) - height])
        towers = list(self.state.side(seat).towers)
        towers[line - 1] = Tower(cards=towers[line - 1].cards + cards, broken=broken)
        self.side(seat, towers=tuple(towers))
        return cards

    def hearts(self, seat: int, broken: Iterable[int] = ()) -> Position:
        """Break the hearts at these indexes (0 = top); the others are ready."""
        out = set(broken)
        hearts = tuple(replace(h, broken=i in out) for i, h in enumerate(self.state.side(seat).hearts))
        return self.side(seat, hearts=hearts)

    def empty_deck(self, seat: int) -> Position:
        side = self.state.side(seat)
        return self.side(seat, deck=(), grave=side.grave + side.deck)

    def life(self, seat: int, life: int) -> Position:
        return self.side(seat, life=life)

    def combat(self, **fields: Any) -> Position:
        return self.set(combat=Combat(**fields))

    # -- result ---------------------------------------------------------------------------------
    def build(self) -> Match:
        """A Match continuing the real record from this state."""
        return Match(RULESET, self.base.header, self.state, list(self.base.envelopes), self.base.head)


# -- assertions -----------------------------------------------------------------------------------
def illegal(match: Match, seat: int, command: Any, clause: str) -> Illegal:
    """``command`` is refused citing ``clause``, and the match is exactly as it was."""
    seq, state, head = match.seq, match.state, match.head
    with pytest.raises(Illegal) as caught:
        match.submit(seat, command)
    assert caught.value.clause == clause, f"expected {clause}, got {caught.value.clause}: {caught.value.reason}"
    assert (match.seq, match.head) == (seq, head)
    assert match.state == state
    return caught.value


def kinds(envelopes: list[Envelope[Any]], windows: bool = False) -> list[tuple[str, str | None]]:
    """(event type, clause) of each envelope, in order; the window bookkeeping only if asked."""
    return [(type(e.event).__name__, e.clause) for e in envelopes
            if windows or type(e.event).__name__ not in WINDOW_EVENTS]


def shown(envelopes: list[Envelope[Any]]) -> list[Envelope[Any]]:
    """The envelopes ``kinds`` lists: without the window bookkeeping."""
    return [e for e in envelopes if type(e.event).__name__ not in WINDOW_EVENTS]


def attack(match: Match, line: int, target: int) -> list[Envelope[Any]]:
    """The turn player attacks from ``line`` on enemy spot ``target`` (W-12.1, W-12.2); both players
    then pass in reaction window 1. The defense declaration is awaited."""
    seat = match.state.turn_seat
    envelopes = match.submit(seat, c.Attack(line=line))
    envelopes += match.submit(seat, c.Target(line=target))
    return envelopes + passes(match)


def defend(match: Match, command: Any) -> list[Envelope[Any]]:
    """The defending player declares ``command`` (W-12.4); both pass in reaction window 2, and the
    combat resolves. All the events from the declaration on."""
    return match.submit(other(match.state.turn_seat), command) + passes(match)


def passes(match: Match) -> list[Envelope[Any]]:
    """Both players pass in each open reaction window until none is open; the events that followed."""
    out: list[Envelope[Any]] = []
    while match.state.window is not None and match.outcome is None:
        out.extend(match.submit(match.state.window.seat, c.Pass()))
    return out


def of(envelopes: list[Envelope[Any]], event_type: type) -> list[Envelope[Any]]:
    return [e for e in envelopes if isinstance(e.event, event_type)]


def one(envelopes: list[Envelope[Any]], event_type: type) -> Envelope[Any]:
    found = of(envelopes, event_type)
    assert len(found) == 1, f"expected one {event_type.__name__}, got {kinds(envelopes)}"
    return found[0]


def draft_on(match: Match) -> Draft[State, Any]:
    """A draft continuing ``match``, for calling a rule function directly."""
    seq = match.seq + 1
    return Draft(match.state, seq, Rng.for_seq(match.header.seed, seq), evolve)
