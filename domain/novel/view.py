"""What each seat may see (N-3.2: face-down magic is hidden; the select phase is secret), the
layout drawn from it, event redaction and the masked state bots simulate on.

Deck lists are public in the record's header, and any card left in the deck may be played
(N-3.2: no order, no hand), so what stays hidden is: the other seat's face-down magic, and its
choices of the select phase until the summon (never its content while "choosing"/"chosen").
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from kifu.domain.core.commit import ChoiceRevealed, ChoiceSealed, redact_sealed
from kifu.domain.core.envelope import Envelope
from kifu.domain.core.layout import Cell, Counter, Face, Grid, Layout, Note, SeatPanel, Zone
from kifu.domain.core.roles import HIDDEN, CardId

from . import events as ev
from .cards import card
from .commands import Act, Command
from .decide import awaiting, outcome
from .state import BUDGET, ROW_SLOTS, TURN_LIMIT, Card, State

replace = msgspec.structs.replace


class CardView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    id: CardId
    name: str = ""
    element: str = ""
    hp: int = 0
    max_hp: int = 0
    atk: int = 0
    def_: int = 0
    agi: int = 0
    rng: int = 0
    acted: bool = False
    stunned: bool = False
    new: bool = False                         # summoned this turn (N-6.1)
    equipment: tuple[CardView, ...] = ()
    face_down: bool = False


class SideView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    seat: int
    front: tuple[CardView, ...] = ()
    back: tuple[CardView, ...] = ()
    magic: tuple[CardView, ...] = ()
    deck: tuple[CardView, ...] = ()           # own only
    deck_count: int = 0
    grave: tuple[CardView, ...] = ()
    picks: tuple[ev.Picked, ...] = ()         # own only, until the summon
    chosen: tuple[CardView, ...] = ()         # the picked cards (own only)
    reveals: tuple[ev.RevealChosen, ...] = ()
    spent: int = 0
    status: str = ""                          # choosing | chosen | done | "" (N-5.2.1, N-6.5)
    lost: str = ""


class View(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    viewer: int | None = None
    turn: int = 0
    phase: str = ""
    sides: tuple[SideView, ...] = ()
    group: tuple[CardId, ...] = ()
    awaiting: tuple[int, ...] = ()
    outcome: str = ""


class _Zones:
    """One walk over the cards for a whole view: each seat's deck and graveyard, and the
    equipment under each character (id order kept), so a card shown costs a lookup, not a walk."""

    __slots__ = ("deck", "grave", "equipment")

    def __init__(self, state: State) -> None:
        self.deck: tuple[list[Card], list[Card]] = ([], [])
        self.grave: tuple[list[Card], list[Card]] = ([], [])
        self.equipment: dict[int, list[Card]] = {}
        for c in state.cards:
            zone = c.zone
            if zone == "deck":
                self.deck[c.owner - 1].append(c)
            elif zone == "grave":
                self.grave[c.owner - 1].append(c)
            elif zone == "attached":
                self.equipment.setdefault(c.attached_to, []).append(c)


_NONE: list[Card] = []


def _card_view(state: State, c: Card, hidden: bool = False, zones: _Zones | None = None) -> CardView:
    if hidden:
        return CardView(id=HIDDEN, face_down=True)
    d = card(c.name)
    under = (zones or _Zones(state)).equipment.get(c.id, _NONE)
    equipment = tuple(CardView(id=e.id, name=e.name) for e in under)
    return CardView(id=c.id, name=c.name, element=d.element if d.kind == "character" else "", hp=c.hp,
                    max_hp=c.max_hp, atk=c.atk, def_=c.def_, agi=c.agi, rng=c.rng, acted=c.acted,
                    stunned=c.stunned, new=c.summoned == state.turn and c.zone in ("front", "back"),
                    equipment=equipment, face_down=c.face_down)


def _status(state: State, seat: int) -> str:
    side = state.side(seat)
    if state.ended is not None:
        return ""
    if state.phase in ("first", "select"):
        return "done" if side.done else "chosen" if side.sealed else "choosing"
    if state.phase == "skill" and seat in {state.card(c).owner for c in state.group}:
        return "chosen" if side.sealed or side.act is not None else "choosing"
    return ""


def view(state: State, seat: int | None) -> View:
    sides = []
    zones = _Zones(state)
    for side in state.sides:
        own = seat is None or seat == side.seat
        picked = {p.card for p in side.picks} if own else set()   # the other seat may not count its picks
        deck = [c for c in zones.deck[side.seat - 1] if c.id not in picked]
        grave = zones.grave[side.seat - 1]
        sides.append(SideView(
            seat=side.seat,
            front=tuple(_card_view(state, state.card(c), zones=zones) for c in side.front),
            back=tuple(_card_view(state, state.card(c), zones=zones) for c in side.back),
            magic=tuple(_card_view(state, state.card(c), hidden=state.card(c).face_down and not own, zones=zones)
                        for c in side.magic),
            deck=tuple(CardView(id=c.id, name=c.name) for c in deck) if own else (), deck_count=len(deck),
            chosen=tuple(CardView(id=p.card, name=state.card(p.card).name) for p in side.picks) if own else (),
            grave=tuple(_card_view(state, c, zones=zones) for c in grave),
            picks=side.picks if own else (), reveals=side.reveals if own else (),
            spent=side.spent if own else 0, status=_status(state, side.seat), lost=side.lost))
    out = outcome(state)
    return View(viewer=seat, turn=state.turn, phase=state.phase, sides=tuple(sides), group=state.group,
                awaiting=tuple(sorted(awaiting(state))), outcome=out.describe() if out else "")


# -- layout ---------------------------------------------------------------------------------------
def _face(cv: CardView, marks_extra: tuple[str, ...] = ()) -> Face:
    if not cv.name:
        return Face()
    marks = list(marks_extra)
    if cv.acted:
        marks.append("acted")
    if cv.stunned:
        marks.append("stunned")
    if cv.new:
        marks.append("new")
    if cv.face_down:
        marks.append("face down")
    stats = "" if not cv.max_hp and not cv.atk else \
        f"{cv.element} HP{cv.hp}/{cv.max_hp} ATK{cv.atk} DEF{cv.def_} AGI{cv.agi} 射程{cv.rng}"
    return Face(id=cv.id, name=cv.name, stats=stats, marks=tuple(marks),
                tone="dim" if cv.acted else "hot" if "lit" in marks else "")


def layout(v: View) -> Layout:
    def cell(row: int, cards: tuple[CardView, ...], owner: int) -> list[Cell]:
        cells = []
        for col, cv in enumerate(cards, start=1):
            lit = ("lit",) if cv.id in v.group else ()
            under = tuple(Face(id=e.id, name=e.name, marks=("equipped",)) for e in cv.equipment)
            cells.append(Cell(row=row, col=col, cards=(_face(cv, lit),) + under, owner=owner))
        return cells

    panels = []
    for s in v.sides:
        rows = Grid(id=f"rows{s.seat}", label="characters", rows=2, cols=ROW_SLOTS,
                    cells=tuple(cell(1, s.front, s.seat) + cell(2, s.back, s.seat)),
                    row_labels=("前衛 front", "後衛 back"))
        parts: list[Any] = [Counter(id="deck", label="deck", value=s.deck_count)]
        if s.status:
            parts.append(Note(id="status", text=s.status, tone="hot" if s.status == "choosing" else ""))
        if v.viewer is None or v.viewer == s.seat:
            if v.phase in ("first", "select"):
                parts.append(Counter(id="cost", label="cost chosen", value=s.spent, max=BUDGET))
            parts.append(Zone(id="chosen", label="chosen", cards=tuple(Face(id=c.id, name=c.name) for c in s.chosen)))
        parts.append(rows)
        parts.append(Zone(id="magic", label="magic", cards=tuple(_face(cv) for cv in s.magic)))
        parts.append(Zone(id="grave", label="graveyard", cards=tuple(
            f for cv in s.grave for f in (_face(cv),) + tuple(Face(id=e.id, name=e.name, marks=("equipped",))
                                                          for e in cv.equipment))))
        if s.deck:
            kinds: dict[str, list[int]] = {}
            for c in s.deck:
                kinds.setdefault(c.name, []).append(c.id)
            parts.append(Zone(id="deck-cards", label="deck (any card may be played)", cards=tuple(
                Face(id=ids[0], name=name, marks=(f"×{len(ids)}",)) for name, ids in kinds.items())))
        panels.append(SeatPanel(seat=s.seat, parts=tuple(parts), lost=s.lost))
    statuses = {s.seat: s.status for s in v.sides}
    return Layout(ruleset="novel", viewer=v.viewer, turn=v.turn, step=v.phase, awaiting=v.awaiting,
                  choosing=tuple(k for k, x in statuses.items() if x == "choosing"),
                  chosen=tuple(k for k, x in statuses.items() if x in ("chosen", "done")),
                  outcome=v.outcome, seats=tuple(panels),
                  board=(Counter(id="turn", label="turn", value=v.turn, max=TURN_LIMIT),))


# -- redaction ------------------------------------------------------------------------------------


def card_names(state: State) -> Callable[[int], str]:
    """Card id -> name, for display ("" for an id the state has no card for)."""
    return lambda cid: state.card(cid).name if 1 <= cid <= len(state.cards) else ""


def redact(envelope: Envelope[Any], seat: int | None) -> Envelope[Any]:
    """The event as ``seat`` may see it. The other seat's select-phase choices stay hidden even
    once opened (``ChoiceRevealed``: the choice becomes None) until the summon shows the cards;
    its face-down magic shows as card 0."""
    if seat is None:
        return envelope
    if envelope.chain or envelope.digest is not None:
        envelope = replace(envelope, chain="", digest=None)
    e = envelope.event
    if isinstance(e, ChoiceSealed):
        e2 = redact_sealed(e, seat)
        return envelope if e2 is e else replace(envelope, event=e2)
    if isinstance(e, ChoiceRevealed):
        if e.seat == seat:
            return envelope
        try:
            cmd = msgspec.convert(e.choice, Command)
        except msgspec.ValidationError:
            cmd = None
        if isinstance(cmd, Act):
            return envelope
        return replace(envelope, event=ChoiceRevealed(seat=e.seat, choice=None, salt=""))
    match e:
        case ev.Picked() if e.seat != seat:
            e2 = ev.Picked(seat=e.seat, card=HIDDEN)
        case ev.RevealChosen() if e.seat != seat:
            e2 = ev.RevealChosen(seat=e.seat, card=HIDDEN)
        case ev.MagicSet(face_down=True) if e.seat != seat:
            e2 = replace(e, card=HIDDEN)
        case _:
            return envelope
    return replace(envelope, event=e2)


def mask(state: State, seat: int) -> State:
    """The state as ``seat`` may know it (bots simulate on it; a seat's prepared position is this).

    Card ids follow the public deck lists, so an id alone would name a card: every card of the
    other seat that ``seat`` has not seen (its deck and its face-down magic) becomes a blank card
    (no name, no numbers), and its face-down magic slots are given, in order, the lowest of those
    unseen ids. What is left is what the record shows the seat anyway: how many unseen cards there
    are, how many lie face down and since when. The other seat's pending choices are dropped."""
    other = 3 - seat
    side = state.side(other)
    unseen = sorted(c.id for c in state.cards if c.owner == other
                    and (c.zone == "deck" or (c.zone == "magic" and c.face_down)))
    down = [cid for cid in side.magic if state.card(cid).face_down]
    slots = dict(zip(down, unseen, strict=False))   # real face-down id -> the id it is shown under (more unseen)
    shown_down = {slots[cid]: state.card(cid) for cid in down}
    cards = list(state.cards)
    for cid in unseen:
        real = shown_down.get(cid)
        cards[cid - 1] = Card(id=cid, owner=other, name="", zone="magic" if real else "deck", face_down=bool(real),
                              summoned=real.summoned if real else -1)
    magic = tuple(slots.get(cid, cid) for cid in side.magic)
    sides = list(state.sides)
    sides[other - 1] = replace(side, magic=magic, picks=(), reveals=(), spent=0)
    return replace(state, cards=tuple(cards), sides=tuple(sides))


def hidden_cards(state: State, seat: int) -> set[int]:
    """The card ids ``seat`` may not see: the other seat's cards still in its deck (its picks are
    among them until the summon) and its face-down magic. Ids follow the public deck lists, so
    these are the ids an event must not name; the seat's own cards and every public one stay."""
    other = 3 - seat
    return {c.id for c in state.cards
            if c.owner == other and (c.zone == "deck" or (c.zone == "magic" and c.face_down))}


def step_begun(event: object) -> str | None:
    """N-5.2: the phase an event begins. The state keeps only the selection phases (what the
    rules ask of it); the summon, magic and end phases are named by their PhaseBegun events."""
    return event.phase if isinstance(event, ev.PhaseBegun) else None
