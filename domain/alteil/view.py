"""What a seat may see (``view``), drawn as neutral parts (``layout``), events as a seat may see
them (``redact``) and the state as a seat may know it (``mask``).

Hidden (A-3.1, A-10, A-4.5): both decks' order, both soul piles and every battlefield card that
still stands (face-down for their owner too), the opponent's hand, and a sealed opening
influence until both are revealed. The judge (seat None) sees everything.
"""
from __future__ import annotations

from collections.abc import Callable

import msgspec
from msgspec.structs import replace

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.layout import Cell, Counter, Face, Grid, Layout, Note, Part, SeatPanel, Zone
from kifu.domain.core.ruleset import Outcome

from . import events as ev
from .legal import awaiting
from .state import Side, State, Unit
from .stats import agi, at, df, hp, influence
from .vocabulary import ACT, ACTION, COLUMNS, GOD_JA, GODS, HIDDEN, OPENING, SQUARES, TIE, other
from .vocabulary import owner as owner_of


class CardRef(msgspec.Struct, frozen=True):
    id: int
    name: str


class UnitView(msgspec.Struct, frozen=True, kw_only=True):
    card: CardRef
    square: int
    damage: int
    acted: bool
    LV: int
    DF: int
    AT: int
    HP: int
    AGI: int


class SideView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    life: int
    squares: tuple[CardRef | None, ...]       # None: destroyed; id 0: face-down
    units: tuple[UnitView, ...]
    influence: tuple[CardRef, ...]
    influence_by_god: dict[str, int]
    soul_count: int
    deck_count: int
    hand_count: int
    hand: tuple[CardRef, ...] | None          # None when it is not this seat's
    senka: tuple[CardRef, ...]
    cemetery: tuple[CardRef, ...]
    sealed: bool = False                       # opening influence chosen, not yet revealed
    lost: str = ""


class OrderEntry(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    card: CardRef
    AGI: int


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None
    turn: int
    turn_seat: int
    first_seat: int
    step: str
    sub: str
    awaiting: tuple[int, ...]
    acting: CardRef | None
    order: tuple[OrderEntry, ...]              # action phase: units yet to act, by current AGI
    outcome: Outcome | None
    sides: tuple[SideView, SideView]


def action_order(state: State) -> list[tuple[int, Unit, int]]:
    """Units that have not acted, highest current AGI first (turn player's first within a tie)."""
    tp = state.turn_seat or 1
    ready = [(seat, u, agi(state, u)) for seat in (tp, other(tp)) for u in state.side(seat).units if not u.acted]
    return sorted(ready, key=lambda x: -x[2])


def view(state: State, seat: int | None) -> View:
    def ref(card: int) -> CardRef:
        return CardRef(card, state.name(card))

    def refs(cards: tuple[int, ...]) -> tuple[CardRef, ...]:
        return tuple(ref(c) for c in cards)

    sides = []
    for s in (1, 2):
        side = state.side(s)
        mine = seat is None or seat == s
        squares = tuple(None if side.destroyed[i] else (ref(card) if seat is None else CardRef(HIDDEN, ""))
                        for i, card in enumerate(side.squares))
        units = tuple(_unit(state, u, ref) for u in side.units)
        sides.append(SideView(
            seat=s, life=side.life, squares=squares, units=units, influence=refs(side.influence),
            influence_by_god={g: influence(state, s, g) for g in GODS}, soul_count=len(side.soul),
            deck_count=len(side.deck), hand_count=len(side.hand), hand=refs(side.hand) if mine else None,
            senka=refs(side.senka), cemetery=refs(side.cemetery),
            sealed=state.step == OPENING and s in state.sealed_by, lost=side.lost))
    order = tuple(OrderEntry(seat=s, card=ref(u.card), AGI=a) for s, u, a in action_order(state)) \
        if state.step == ACTION else ()
    return View(seat=seat, turn=state.turn, turn_seat=state.turn_seat, first_seat=state.first_seat,
                step=state.step, sub=state.sub, awaiting=tuple(sorted(awaiting(state))),
                acting=ref(state.acting) if state.acting else None, order=order, outcome=state.outcome,
                sides=(sides[0], sides[1]))


def _unit(state: State, u: Unit, ref: Callable[[int], CardRef]) -> UnitView:
    d = state.data(u.card)
    return UnitView(card=ref(u.card), square=u.square, damage=u.damage, acted=u.acted, LV=d.lv if d else 0,
                    DF=df(state, u), AT=at(state, u), HP=hp(state, u), AGI=agi(state, u))


# -- layout ----------------------------------------------------------------------------------------
def layout(v: View) -> Layout:
    panels = []
    for side in v.sides:
        counters = [Counter(id="life", label="battlefield", value=side.life, max=SQUARES),
                    Counter(id="soul", label="soul power", value=side.soul_count),
                    Counter(id="deck", label="deck", value=side.deck_count),
                    Counter(id="hand", label="hand", value=side.hand_count),
                    Counter(id="dead", label="dead units", value=len(side.cemetery), max=7)]
        counters += [Counter(id=f"influence-{g}", label=f"influence {g} ({GOD_JA[g]})", value=n)
                     for g, n in side.influence_by_god.items()]
        cells = []
        for i, sq in enumerate(side.squares):
            square = i + 1
            row, col = (1 if square <= COLUMNS else 2), (square - 1) % COLUMNS + 1
            faces = []
            for u in side.units:
                if u.square == square:
                    marks = tuple(m for m in (f"dmg {u.damage}" if u.damage else "", "acted" if u.acted else "",
                                              "acting" if v.acting and v.acting.id == u.card.id else "") if m)
                    faces.append(Face(id=u.card.id, name=u.card.name, marks=marks,
                                      stats=f"LV{u.LV} DF{u.DF} AT{u.AT} HP{u.HP - u.damage}/{u.HP} AGI{u.AGI}",
                                      tone="hot" if "acting" in marks else ""))
            # the square's own card is its terrain: named for the judge, face-down (■) to the seats
            label = "destroyed" if sq is None else (f"■ {sq.name}" if sq.name else "■")
            cells.append(Cell(row=row, col=col, cards=tuple(faces), owner=side.seat, label=label))
        parts: list[Part] = list(counters)
        parts.append(Grid(id="battlefield", label="battlefield", rows=2, cols=COLUMNS, cells=tuple(cells),
                          row_labels=("front", "back"), col_labels=("1", "2", "3"), cell_format="{row}-{col}"))
        hand = tuple(Face(id=c.id, name=c.name) for c in side.hand) if side.hand is not None \
            else tuple(Face() for _ in range(side.hand_count))
        parts += [Zone(id="hand", label="hand", cards=hand, count=side.hand_count),
                  Zone(id="influence", label="influence",
                       cards=tuple(Face(id=c.id, name=c.name) for c in side.influence), count=len(side.influence)),
                  Zone(id="soul", label="soul power", count=side.soul_count, show="count"),
                  Zone(id="deck", label="deck", count=side.deck_count, show="count"),
                  Zone(id="senka", label="戦禍", cards=tuple(Face(id=c.id, name=c.name) for c in side.senka),
                       count=len(side.senka), show="top"),
                  Zone(id="cemetery", label="cemetery", cards=tuple(Face(id=c.id, name=c.name) for c in side.cemetery),
                       count=len(side.cemetery))]
        panels.append(SeatPanel(seat=side.seat, parts=tuple(parts), lost=side.lost))
    board: list[Part] = []
    if v.order or v.acting:
        acting = f"acting: {v.acting.name} (seat {owner_of(v.acting.id)})" if v.acting else ""
        order = " → ".join(f"{e.card.name} (seat {e.seat}, AGI {e.AGI})" for e in v.order)
        nxt = ""
        if v.sub == TIE:
            nxt = f"tie: seat {v.awaiting[0] if v.awaiting else '?'} chooses which of its units acts next"
        elif v.order and v.sub != ACT:
            nxt = f"next: seat {v.order[0].seat}'s {v.order[0].card.name}" if v.order[0].AGI > 0 else "the rest wait"
        board.append(Note(id="order", text="action order: " + (order or "(all have acted)")))
        if acting or nxt:
            board.append(Note(id="next", text=acting or nxt, tone="hot"))
    opening = v.step == OPENING
    return Layout(ruleset="alteil", viewer=v.seat, turn=v.turn, step=v.step + (f" ({v.sub})" if v.sub else ""),
                  active=v.turn_seat or None, awaiting=v.awaiting,
                  choosing=v.awaiting if opening else (),
                  chosen=tuple(s.seat for s in v.sides if s.sealed) if opening else (),
                  outcome=v.outcome.describe() if v.outcome else "", seats=tuple(panels), board=tuple(board))


# -- redaction and masking -------------------------------------------------------------------------
def _hide(cards: tuple[int, ...]) -> tuple[int, ...]:
    return (HIDDEN,) * len(cards)


def redact(envelope: Envelope[ev.Event], seat: int | None) -> Envelope[ev.Event]:
    """The event as ``seat`` may see it: hidden card ids become 0 (HIDDEN); counts stay."""
    if seat is None:
        return envelope
    envelope = replace(envelope, chain="", digest=None)
    e = envelope.event
    match e:
        case ev.DeckShuffled(order=order):
            e2: ev.Event = replace(e, order=_hide(order))
        case ev.BattlefieldSet(cards=cards) | ev.SoulGained(cards=cards) | ev.SoulPaid(cards=cards) \
                | ev.SoulReduced(cards=cards):
            e2 = replace(e, cards=_hide(cards))
        case ev.CardsDrawn(seat=owner, cards=cards) | ev.HandReturned(seat=owner, cards=cards) if owner != seat:
            e2 = replace(e, cards=_hide(cards))
        case _:
            return envelope
    return replace(envelope, event=e2)


def mask(state: State, seat: int) -> State:
    """The state as ``seat`` may know it: decks, soul piles, standing battlefield cards and the
    opponent's hand replaced by HIDDEN ids (counts kept)."""
    def hidden(side: Side, mine: bool) -> Side:
        return replace(side, deck=_hide(side.deck), soul=_hide(side.soul), squares=_hide(side.squares),
                       hand=side.hand if mine else _hide(side.hand))
    return replace(state, sides=(hidden(state.sides[0], seat == 1), hidden(state.sides[1], seat == 2)))


def hidden_cards(state: State, seat: int) -> set[int]:
    """The card ids ``mask`` hides from ``seat``: both decks, soul piles and standing battlefield
    cards, and the opponent's hand."""
    out: set[int] = set()
    for s, side in enumerate(state.sides, start=1):
        out.update(side.deck)
        out.update(side.soul)
        out.update(side.squares)
        if s != seat:
            out.update(side.hand)
    out.discard(HIDDEN)
    return out


def card_names(state: State) -> Callable[[int], str]:
    return state.name
