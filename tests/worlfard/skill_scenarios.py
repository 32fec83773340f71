"""Positions for the WORLFARD skill, spell, reaction, heart, status and effect tests (issue 3).

``Pos`` starts from a real match: two deck lists built for the test (the cards it names, padded
to 40 with plain starter units), ``Match.create`` with the seed, the order choice (seat 1 goes
first) and both mulligans declined. It then empties both hands into the decks and moves named
cards of a seat out of its deck into the zone the test wants, so every card stays in exactly one
zone and every card id maps to its name through ``State.names``. ``build()`` starts a ``Match``
from that prepared position (``Match.create(start=…)``, recorded as one setup event); commands
are then submitted as in play, and ``folds`` checks that the record folds back to the same state.

Card ids: a unit, soul or graveyard card is its id; a tower target is seat*10+line; a hand card
put somewhere (instant summon, instant cast) is card*10+line.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from msgspec.structs import replace

from kifu.domain.core.draft import Draft, seal
from kifu.domain.core.envelope import Envelope, state_digest
from kifu.domain.core.errors import Illegal
from kifu.domain.core.match import Match
from kifu.domain.core.rng import Rng
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard import commands as c
from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.decks import DeckList, validate
from kifu.domain.worlfard.evolve import evolve
from kifu.domain.worlfard.field import profile, tower_height
from kifu.domain.worlfard.state import Effect, State, TableSpell, Tower, Unit
from kifu.domain.worlfard.vocabulary import START_LIFE, Phase, PhaseName, Status, StatusName, other

RULESET = find_ruleset("worlfard")

# plain starter units (no text) that pad a deck to 40; piles and spare souls are taken from them,
# dark, light and wind first, so the first cost towers have those elements
FILLER = ("闇夜の蝙蝠", "曙光の妖精", "疾風の鷹", "影の暗殺者", "聖堂の守り手", "翠嵐の弓手", "冥府の亡霊",
          "光翼の天使", "ディプテラ", "火蜥蜴サラマン", "水妖ウンディーネ", "大地の戦士", "紅蓮の剣士", "潮騒の槍兵",
          "岩窟のゴーレム", "蒼氷の魔導師", "炎獄の番犬", "深海の大亀")
HEARTS = ("火蜥蜴サラマン", "水妖ウンディーネ", "大地の戦士")
WINDOW_EVENTS = frozenset({"WindowOpened", "Passed", "ChainResolving", "WindowClosed", "CombatStep"})

__all__ = ["RULESET", "Pos", "Phase", "Status", "c", "ev", "illegal", "kinds", "names", "of", "one", "folds",
           "attack", "passes", "pass_", "inject", "stats", "ht", "Effect", "TableSpell", "other", "replace"]


def deck(name: str, wanted: Iterable[str], hearts: tuple[str, str, str]) -> DeckList:
    """The cards named (as often as named), one more of each heart, then filler up to 40."""
    counts = Counter(wanted)
    for h in hearts:   # a heart leaves the deck at setup: it comes on top of the copies asked for
        counts[h] += 1
    assert all(n <= 3 for n in counts.values()), counts
    cards = [n for n, k in counts.items() for _ in range(k)]
    for filler in FILLER:
        if len(cards) >= 40:
            break
        cards.extend([filler] * (3 - counts[filler]))
        counts[filler] = 3
    return validate(DeckList(name=name, hearts=hearts, cards=tuple(cards[:60])))


class Pos:
    """A position for one test; placing methods return the card ids they placed."""

    def __init__(self, p1: Iterable[str] = (), p2: Iterable[str] = (), *, hearts1: tuple[str, str, str] = HEARTS,
                 hearts2: tuple[str, str, str] = HEARTS, seed: int = 7) -> None:
        p1, p2 = tuple(p1), tuple(p2)
        self.decks = (deck("k1", p1, hearts1), deck("k2", p2, hearts2))
        self.reserved = {1: set(p1), 2: set(p2)}
        self.seed = seed
        match = Match.create(RULESET, match_id=f"skills-{seed}", seed=seed, decks=list(self.decks),
                             players=("p1", "p2"))
        chooser = match.deciding
        match.submit(chooser, c.ChooseOrder(go_first=chooser == 1))
        match.submit(1, c.Mulligan(redraw=False))
        match.submit(2, c.Mulligan(redraw=False))
        self.state: State = match.state
        for seat in (1, 2):   # empty hands, and the life a start-phase skill may have changed
            side = self.state.side(seat)
            self.side(seat, hand=(), deck=side.deck + side.hand, life=START_LIFE)
        self.at(Phase.MAIN1, 1)

    # -- low level ------------------------------------------------------------------------------
    def side(self, seat: int, **fields: Any) -> Pos:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **fields)
        self.state = replace(self.state, sides=tuple(sides))
        return self

    def set(self, **fields: Any) -> Pos:
        self.state = replace(self.state, **fields)
        return self

    def take(self, seat: int, name: str) -> int:
        """A card of ``seat`` named ``name``, out of its deck."""
        deck_ = self.state.side(seat).deck
        for card in deck_:
            if self.state.name(card) == name:
                self.side(seat, deck=tuple(x for x in deck_ if x != card))
                return card
        raise LookupError(f"seat {seat} has no {name} left in its deck; name it in Pos(p{seat}=…)")

    def spare(self, seat: int) -> int:
        """A filler card nobody asked for by name, in FILLER order."""
        deck_ = self.state.side(seat).deck
        for filler in FILLER:
            if filler in self.reserved[seat]:
                continue
            for card in deck_:
                if self.state.name(card) == filler:
                    self.side(seat, deck=tuple(x for x in deck_ if x != card))
                    return card
        raise LookupError(f"seat {seat} has no filler left")

    # -- turn -----------------------------------------------------------------------------------
    def at(self, phase: PhaseName, seat: int = 1, turn: int | None = None) -> Pos:
        """``seat``'s turn (default: its second, so battle is allowed), in ``phase``."""
        return self.set(phase=phase, turn=turn if turn is not None else (3 if seat == 1 else 4), turn_seat=seat,
                        tower_set=False)

    # -- zones ----------------------------------------------------------------------------------
    def hand(self, seat: int, *names_: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names_)
        self.side(seat, hand=self.state.side(seat).hand + cards)
        return cards

    def soul(self, seat: int, *names_: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names_)
        self.side(seat, soul=self.state.side(seat).soul + cards)
        return cards

    def souls(self, seat: int, n: int) -> tuple[int, ...]:
        cards = tuple(self.spare(seat) for _ in range(n))
        self.side(seat, soul=self.state.side(seat).soul + cards)
        return cards

    def grave(self, seat: int, *names_: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names_)
        self.side(seat, grave=self.state.side(seat).grave + cards)
        return cards

    def unit(self, seat: int, line: int, name: str, *, damage: int = 0, broken: bool = False,
             status: StatusName | None = None) -> int:
        card = self.take(seat, name)
        stage = list(self.state.side(seat).stage)
        assert stage[line - 1] is None, f"seat {seat} line {line} is taken"
        stage[line - 1] = Unit(card=card, damage=damage, broken=broken, status=status)
        self.side(seat, stage=tuple(stage))
        return card

    def tower(self, seat: int, line: int, *names_: str, broken: bool = False) -> tuple[int, ...]:
        """Named cards on a tower pile, bottom first (on top of what is there)."""
        cards = tuple(self.take(seat, n) for n in names_)
        return self._pile(seat, line, cards, broken)

    def pile(self, seat: int, line: int, height: int, broken: bool = False) -> tuple[int, ...]:
        """A tower of ``height`` filler cards, for costs."""
        cards = tuple(self.spare(seat) for _ in range(height))
        return self._pile(seat, line, cards, broken)

    def _pile(self, seat: int, line: int, cards: tuple[int, ...], broken: bool) -> tuple[int, ...]:
        towers = list(self.state.side(seat).towers)
        towers[line - 1] = Tower(cards=towers[line - 1].cards + cards, broken=broken)
        self.side(seat, towers=tuple(towers))
        return cards

    def table(self, seat: int, line: int, name: str, targets: tuple[int, ...] = (), since: int = 0,
              broken: bool = False) -> int:
        """A Long Spell already on the table (resolved at seq ``since``)."""
        card = self.take(seat, name)
        table = list(self.state.side(seat).table)
        table[line - 1] = TableSpell(card=card, targets=targets, since=since, broken=broken)
        self.side(seat, table=tuple(table))
        return card

    def hearts(self, seat: int, *names_: str, broken: Iterable[int] = ()) -> tuple[int, ...]:
        """Reorder the hearts (top first, only the top face-up); break those at ``broken``."""
        hearts = {self.state.name(h.card): h.card for h in self.state.side(seat).hearts}
        out = set(broken)
        from kifu.domain.worlfard.state import Heart

        cards = tuple(hearts[n] for n in names_)
        self.side(seat, hearts=tuple(Heart(card=card, face_up=i == 0, broken=i in out) for i, card in enumerate(cards)))
        return cards

    def effect(self, target: int, op: str, stat: str | None = None, value: int = 0, *, id: int,
               until: str = "stage", skill: str | None = None, source: int = 0) -> Pos:
        """A stored effect as a resolved skill would leave it (``id`` orders set-base effects)."""
        return self.set(effects=self.state.effects + (Effect(id=id, target=target, op=op, stat=stat, value=value,
                                                             skill=skill, until=until, source=source),))

    # -- result ---------------------------------------------------------------------------------
    def build(self) -> Match:
        """A match that starts from this position (one PositionPrepared setup event)."""
        return Match.create(RULESET, match_id=f"skills-{self.seed}", seed=self.seed, decks=list(self.decks),
                            players=("p1", "p2"), start=self.state)


# -- reading -------------------------------------------------------------------------------------
def stats(match: Match, seat: int, line: int):
    return profile(match.state, seat, line)


def ht(match: Match, seat: int, line: int) -> int:
    return tower_height(match.state, seat, line)


def names(match: Match, cards: Iterable[int]) -> list[str]:
    return [match.state.name(card) for card in cards]


def kinds(envelopes: list[Envelope[Any]], windows: bool = False) -> list[tuple[str, str | None]]:
    """(event type, clause) of each envelope, in order; the window bookkeeping only if asked."""
    return [(type(e.event).__name__, e.clause) for e in envelopes
            if windows or type(e.event).__name__ not in WINDOW_EVENTS]


def of(envelopes: list[Envelope[Any]], event_type: type) -> list[Envelope[Any]]:
    return [e for e in envelopes if isinstance(e.event, event_type)]


def one(envelopes: list[Envelope[Any]], event_type: type) -> Envelope[Any]:
    found = of(envelopes, event_type)
    assert len(found) == 1, f"expected one {event_type.__name__}, got {kinds(envelopes, True)}"
    return found[0]


def illegal(match: Match, seat: int, command: Any, clause: str) -> Illegal:
    """``command`` is refused citing ``clause``, and the match is exactly as it was."""
    seq, state, head = match.seq, match.state, match.head
    with pytest.raises(Illegal) as caught:
        match.submit(seat, command)
    assert caught.value.clause == clause, f"expected {clause}, got {caught.value.clause}: {caught.value.reason}"
    assert (match.seq, match.head, match.state) == (seq, head, state)
    return caught.value


def folds(match: Match) -> None:
    """The record folds back to the state the decisions produced (evolve agrees with decide)."""
    assert Match.fold(RULESET, match.header, match.envelopes).state == match.state


# -- driving -------------------------------------------------------------------------------------
def attack(match: Match, line: int, target: int) -> list[Envelope[Any]]:
    """The turn player attacks from ``line`` on enemy spot ``target``: reaction window 1 opens."""
    seat = match.state.turn_seat
    return match.submit(seat, c.Attack(line=line)) + match.submit(seat, c.Target(line=target))


def pass_(match: Match) -> list[Envelope[Any]]:
    """The player with the right in the open window passes."""
    return match.submit(match.state.window.seat, c.Pass())


def passes(match: Match) -> list[Envelope[Any]]:
    """Both players pass in each open window until none is open."""
    out: list[Envelope[Any]] = []
    while match.state.window is not None and match.outcome is None:
        out.extend(pass_(match))
    return out


def inject(match: Match, rule: Callable[[Draft], None]) -> list[Envelope[Any]]:
    """Apply a rule function to the match as if a card had done it (for field changes no sample
    card can make at that moment); its events join the record."""
    seq = match.seq + 1
    draft: Draft = Draft(match.state, seq, Rng.for_seq(match.header.seed, seq), evolve)
    rule(draft)
    envelopes = match._chain(seal(draft.envelopes, state_digest(draft.state)))
    match.accept(envelopes, draft.state)
    return envelopes
