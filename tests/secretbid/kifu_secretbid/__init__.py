"""Secret bid: a two-seat sealed-bid game, the smallest ruleset that uses every seam of the core.

Each round the top card of a shuffled prize pile is revealed and both players bid chips for it at
once, in secret (the core's sealed decisions); the higher bid pays and wins it, then alone decides
how to claim it (a one-seat decision). When the pile is empty the higher score wins (S-6).
"""
from __future__ import annotations

import hashlib
from typing import Any, Literal, Union

import msgspec
from msgspec.structs import replace

from kifu.domain.core.bot import Seen
from kifu.domain.core.catalogue import CardRow, Catalogue, Column
from kifu.domain.core.clauses import implements
from kifu.domain.core.commit import ChoiceSealed
from kifu.domain.core.decks import DeckBook, normalize_pair, parse_toml
from kifu.domain.core.draft import Draft
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import Illegal, InvalidDeck, Malformed
from kifu.domain.core.layout import Counter, Face, Layout, SeatPanel, Zone
from kifu.domain.core.reference import RulesReference
from kifu.domain.core.rng import Rng
from kifu.domain.core.roles import HIDDEN, Amount, CardId, SeatNo
from kifu.domain.core.ruleset import Content, Decider, Outcome, Presentation, Ruleset, Visibility

NAME = "secretbid"
RULES_VERSION = "1.0.0"
PRIZES = {"Copper": 1, "Silver": 2, "Gold": 3, "Ruby": 4, "Crown": 5}
CHIPS = 10


class Cmd(msgspec.Struct, frozen=True, tag=True, forbid_unknown_fields=True, omit_defaults=True):
    """A bid or a claim: tagged, unknown fields refused.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


class Ev(msgspec.Struct, frozen=True, tag=True, omit_defaults=True):
    """Every event: tagged, defaults left out.

    Subclasses repeat ``frozen`` (for the type checker) and ``kw_only`` (msgspec does not inherit it)."""


# -- commands and events --------------------------------------------------------------------------
class Bid(Cmd, frozen=True, kw_only=True):
    chips: int


class Claim(Cmd, frozen=True, kw_only=True):
    double: bool = False


Command = Union[Bid, Claim]


class PileShuffled(Ev, frozen=True, kw_only=True):
    order: tuple[CardId, ...]


class PrizeRevealed(Ev, frozen=True, kw_only=True):
    card: CardId
    value: Amount


class BidOpened(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    chips: Amount


class PrizeWon(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    bid: int
    other: int
    paid: Amount


class PrizeDiscarded(Ev, frozen=True, kw_only=True):
    card: CardId
    bid: int


class Claimed(Ev, frozen=True, kw_only=True):
    seat: SeatNo
    card: CardId
    double: bool
    score: Amount


class GameEnded(Ev, frozen=True, kw_only=True):
    winner: SeatNo | None = None


Event = Union[PileShuffled, PrizeRevealed, BidOpened, PrizeWon, PrizeDiscarded, Claimed, GameEnded]


# -- state ----------------------------------------------------------------------------------------
class Deck(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    prizes: tuple[str, ...]


class State(msgspec.Struct, frozen=True, kw_only=True):
    names: tuple[str, ...]                 # card id - 1 -> prize name
    pile: tuple[int, ...] = ()
    prize: int = 0                         # the prize on the table
    step: Literal["setup", "bid", "claim", "over"] = "setup"
    chips: tuple[int, int] = (CHIPS, CHIPS)
    score: tuple[int, int] = (0, 0)
    won: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    discard: tuple[int, ...] = ()
    sealed: tuple[int, ...] = ()           # seats that have sealed their bid this round
    bids: tuple[tuple[int, int], ...] = () # (seat, chips) opened this round
    winner: int = 0                        # who claims the prize
    round: int = 0
    outcome: Outcome | None = None

    def name(self, card: int) -> str:
        return self.names[card - 1] if card != HIDDEN else "?"


def initial_state(header: Any) -> State:
    decks = normalize([*header.decks]) if header is not None else []
    names = tuple(p for d in decks for p in d.prizes)
    return State(names=names, pile=tuple(range(1, len(names) + 1)))


def _set(state: State, index: int, pair: tuple[Any, Any], value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if index == 1 else (pair[0], value)


def evolve(state: State, event: Any) -> State:
    match event:
        case PileShuffled(order=order):
            return replace(state, pile=order)
        case PrizeRevealed(card=card):
            return replace(state, prize=card, pile=state.pile[1:], step="bid", round=state.round + 1,
                           sealed=(), bids=())
        case ChoiceSealed(seat=seat):
            return replace(state, sealed=(*state.sealed, seat))
        case BidOpened(seat=seat, chips=chips):
            return replace(state, bids=(*state.bids, (seat, chips)))
        case PrizeWon(seat=seat, paid=paid):
            return replace(state, step="claim", winner=seat,
                           chips=_set(state, seat, state.chips, state.chips[seat - 1] - paid))
        case PrizeDiscarded(card=card):
            return replace(state, discard=(*state.discard, card), prize=0)
        case Claimed(seat=seat, card=card, double=double, score=score):
            chips = _set(state, seat, state.chips, state.chips[seat - 1] - (1 if double else 0))
            won = _set(state, seat, state.won, (*state.won[seat - 1], card))
            return replace(state, chips=chips, won=won, prize=0, winner=0,
                           score=_set(state, seat, state.score, score))
        case GameEnded(winner=winner):
            return replace(state, step="over", outcome=Outcome(
                termination="pile empty", winner=winner, clause="S-6"))
    raise TypeError(f"evolve has no case for {type(event).__name__}")


# -- rules ----------------------------------------------------------------------------------------
@implements("S-2")
def begin(header: Any, state: State, draft: Draft[State, Any]) -> None:
    order = draft.rng.shuffled(state.pile)
    cause = draft.setup("S-2", PileShuffled(order=order))
    _next_round(draft, cause)


@implements("S-3", "S-6")
def _next_round(draft: Draft[State, Any], cause: int) -> None:
    state = draft.state
    if not state.pile:
        a, b = state.score
        draft.rule("S-6", cause, GameEnded(winner=None if a == b else (1 if a > b else 2)))
        return
    card = state.pile[0]
    draft.rule("S-3", cause, PrizeRevealed(card=card, value=PRIZES[state.name(card)]))


def awaiting(state: State) -> frozenset[int]:
    if state.step == "bid":
        return frozenset({1, 2} - set(state.sealed))
    if state.step == "claim":
        return frozenset((state.winner,))
    return frozenset()


def sealed(state: State) -> bool:
    return state.step == "bid"


def legal(state: State, seat: int) -> list[Any]:
    if seat not in awaiting(state):
        return []
    if state.step == "bid":
        return [Bid(chips=n) for n in range(state.chips[seat - 1] + 1)]
    return [Claim()] + ([Claim(double=True)] if state.chips[seat - 1] >= 1 else [])


@implements("S-3", "S-5")
def decide(state: State, seat: int, command: Any, draft: Draft[State, Any]) -> None:
    match command:
        case Bid(chips=chips):
            if state.step != "bid":
                raise Illegal("S-3", "no prize is up for bidding now")
            if not 0 <= chips <= state.chips[seat - 1]:
                raise Illegal("S-3", f"seat {seat} has {state.chips[seat - 1]} chips, not {chips}")
            opened = draft.decision(seat, BidOpened(seat=seat, chips=chips), clause="S-3")
            if len(draft.state.bids) == 2:
                _resolve(draft, opened)
        case Claim(double=double):
            if state.step != "claim" or state.winner != seat:
                raise Illegal("S-5", f"seat {seat} has no prize to claim")
            if double and state.chips[seat - 1] < 1:
                raise Illegal("S-5", "claiming twice over costs one more chip")
            value = PRIZES[state.name(state.prize)] * (2 if double else 1)
            cause = draft.decision(seat, Claimed(seat=seat, card=state.prize, double=double,
                                                 score=state.score[seat - 1] + value), clause="S-5")
            _next_round(draft, cause)
        case _:
            raise Illegal("S-1", f"{command!r} is not a secret-bid decision")


@implements("S-4")
def _resolve(draft: Draft[State, Any], cause: int) -> None:
    bids = dict(draft.state.bids)
    prize = draft.state.prize
    if bids[1] == bids[2]:
        discarded = draft.rule("S-4", cause, PrizeDiscarded(card=prize, bid=bids[1]))
        _next_round(draft, discarded)
        return
    seat = 1 if bids[1] > bids[2] else 2
    draft.rule("S-4", cause, PrizeWon(seat=seat, card=prize, bid=bids[seat], other=bids[3 - seat],
                                      paid=bids[seat]), seat=seat)


def outcome(state: State) -> Outcome | None:
    return state.outcome


def command_of(event: Any) -> Any:
    if isinstance(event, Claimed):
        return Claim(double=event.double)
    return None       # bids are sealed decisions: the core re-runs them from their seals


def played(state: State, event: Any) -> str | None:
    return state.name(event.card) if isinstance(event, Claimed) else None


# -- what a seat sees -----------------------------------------------------------------------------
class SideView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    chips: int
    score: int
    won: tuple[str, ...]
    status: str                            # "choosing", "chosen", "" (a sealed bid's state, never its content)


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None
    round: int
    step: str
    prize: str
    prize_id: int
    pile: int
    pile_order: tuple[str, ...] | None     # the judge only
    bids: tuple[tuple[int, int], ...] | None
    awaiting: tuple[int, ...]
    sides: tuple[SideView, SideView]
    outcome: str


def view(state: State, seat: int | None) -> View:
    waiting = awaiting(state)
    sides = tuple(SideView(seat=s, chips=state.chips[s - 1], score=state.score[s - 1],
                           won=tuple(state.name(c) for c in state.won[s - 1]),
                           status=("chosen" if s in state.sealed else "choosing" if s in waiting else "")
                           if state.step == "bid" else "") for s in (1, 2))
    return View(seat=seat, round=state.round, step=state.step, prize=state.name(state.prize) if state.prize else "",
                prize_id=state.prize, pile=len(state.pile),
                pile_order=tuple(state.name(c) for c in state.pile) if seat is None else None,
                bids=state.bids if seat is None else None, awaiting=tuple(sorted(waiting)),
                sides=(sides[0], sides[1]), outcome=state.outcome.describe() if state.outcome else "")


def layout(v: View) -> Layout:
    panels = tuple(SeatPanel(seat=side.seat, parts=(
        Counter(id="chips", label="chips", value=side.chips),
        Counter(id="score", label="score", value=side.score),
        Zone(id="won", label="won", cards=tuple(Face(name=n) for n in side.won), count=len(side.won)),
    )) for side in v.sides)
    board: tuple[Any, ...] = (
        Zone(id="prize", label="prize", cards=(Face(id=v.prize_id, name=v.prize),) if v.prize else ()),
        Zone(id="pile", label="pile", count=v.pile, show="count"),
    )
    if v.pile_order is not None:
        board += (Zone(id="pile-order", label="pile order", cards=tuple(Face(name=n) for n in v.pile_order),
                       count=v.pile),)
    return Layout(ruleset=NAME, viewer=v.seat, turn=v.round, step=v.step, awaiting=v.awaiting,
                  choosing=tuple(s.seat for s in v.sides if s.status == "choosing"),
                  chosen=tuple(s.seat for s in v.sides if s.status == "chosen"),
                  outcome=v.outcome, seats=panels, board=board)


def redact(envelope: Envelope[Any], seat: int | None) -> Envelope[Any]:
    if seat is not None and isinstance(envelope.event, PileShuffled):
        return replace(envelope, event=PileShuffled(order=(HIDDEN,) * len(envelope.event.order)))
    return envelope


def mask(state: State, seat: int) -> State:
    return replace(state, pile=(HIDDEN,) * len(state.pile), bids=tuple(b for b in state.bids if b[0] == seat))


def hidden_cards(state: State, seat: int) -> set[int]:
    """The prizes still in the pile: its order is the only hidden card information."""
    return set(state.pile) - {HIDDEN}


# -- cards, decks, reference ----------------------------------------------------------------------
def catalogue() -> Catalogue:
    return Catalogue(columns=(Column(key="name", title="name", kind="name"), Column(key="value", title="value"),
                              Column(key="text", title="text", kind="text")),
                     rows=tuple(CardRow(name=n, text=f"Worth {v} point{'s' if v > 1 else ''}.",
                                        values={"value": str(v)}) for n, v in PRIZES.items()))


def parse_deck(text: str, source: str) -> Deck:
    try:
        deck = msgspec.convert(parse_toml(text, source), Deck)
    except msgspec.ValidationError as exc:
        raise Malformed(f"deck file: {exc}", source) from None
    return validate(deck, source)


@implements("S-1.1")
def validate(deck: Deck, where: str | None = None) -> Deck:
    unknown = [p for p in deck.prizes if p not in PRIZES]
    if unknown:
        raise InvalidDeck("S-1.1", f"no such prize: {', '.join(unknown)}", where)
    if not 1 <= len(deck.prizes) <= 5:
        raise InvalidDeck("S-1.1", f"a deck has 1 to 5 prizes, not {len(deck.prizes)}", where)
    return deck


def normalize(decks: list[Any]) -> list[Deck]:
    return normalize_pair(decks, Deck, validate, "S-1.1")


BOOK = DeckBook(__name__, parse_deck, "S-1.1")
REFERENCE = RulesReference(__name__, "S")


def card_set_digest() -> str:
    """Which prizes the game is played with (every header carries it)."""
    return hashlib.blake2b(repr(sorted(PRIZES.items())).encode(), digest_size=8).hexdigest()


# -- bots ("random" is the core's) -----------------------------------------------------------------
class GreedyBot:
    """Bids a share of its chips that grows with the prize's value; claims twice over when it can."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, seen: Seen) -> Any:
        view: View = seen.view
        if view.step == "claim":
            return max(seen.legal, key=lambda c: c.double)
        chips = view.sides[seen.seat - 1].chips
        want = min(chips, PRIZES.get(view.prize, 1) * 2 + self.rng.below(2))
        return Bid(chips=want) if Bid(chips=want) in seen.legal else seen.legal[-1]


def build() -> Ruleset[State, Any, Any]:
    """The decider is the game; the groups beside it are what this game has of the optional extras."""
    return Ruleset(
        name=NAME, rules_version=RULES_VERSION,
        decider=Decider(
            command_type=Command, event_type=Event, state_type=State, initial_state=initial_state, begin=begin,
            decide=decide, evolve=evolve, legal=legal, awaiting=awaiting, outcome=outcome, view=view,
            command_of=command_of, sealed=sealed, decide_clause="S-1",
            waiting_clause=lambda state: "S-3" if state.step == "bid" else "S-5"),
        content=Content(
            clauses=REFERENCE.clauses, card_set_digest=card_set_digest, normalize_decks=normalize, load_deck=BOOK.load,
            presets=BOOK.preset_names, catalogue=catalogue, bots={"greedy": GreedyBot}),
        presentation=Presentation(layout=layout, card_names=lambda state: state.name, played=played,
                                  turn=lambda state: state.round),
        visibility=Visibility(redact=redact, mask=mask, hidden_cards=hidden_cards),
        test_only=True,
    )
