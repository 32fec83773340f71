"""What a seat may see (``view``) and how an event looks to it (``redact``).

Hidden: either deck's order, the opponent's hand, face-down hearts (W-3.1, W-4.2). The judge
(seat None) sees everything.
"""
from __future__ import annotations

from collections.abc import Callable

import msgspec
from msgspec.structs import replace

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.roles import TargetRef
from kifu.domain.core.ruleset import Outcome

from . import events as ev
from .decide import awaiting
from .field import tower_height
from .state import HIDDEN, Combat, State
from .stats import unit_stats


class CardRef(msgspec.Struct, frozen=True):
    id: int
    name: str


class UnitView(msgspec.Struct, frozen=True, kw_only=True):
    card: CardRef
    damage: int
    broken: bool
    status: str | None
    STR: int
    VIT: int
    AGI: int
    DEF: int
    skills: tuple[str, ...] = ()


class SpellView(msgspec.Struct, frozen=True, kw_only=True):
    card: CardRef
    targets: tuple[TargetRef, ...] = ()
    broken: bool = False
    waiting: bool = False


class TowerView(msgspec.Struct, frozen=True, kw_only=True):
    cards: tuple[CardRef, ...]
    height: int
    broken: bool
    HT: int = 0                  # the height as modified by effects (W-7.5)


class HeartView(msgspec.Struct, frozen=True, kw_only=True):
    card: CardRef | None     # None while face-down (to a seat)
    broken: bool
    face_up: bool


class SideView(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    life: int
    deck_count: int
    deck: tuple[CardRef, ...] | None   # the order: judge only
    hand_count: int
    hand: tuple[CardRef, ...] | None   # None when it is the opponent's
    hearts: tuple[HeartView, ...]
    soul: tuple[CardRef, ...]
    grave: tuple[CardRef, ...]
    seal: tuple[CardRef, ...]
    stage: tuple[UnitView | None, ...]
    table: tuple[SpellView | None, ...]
    towers: tuple[TowerView, ...]
    lost: str | None = None


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None
    turn: int
    turn_seat: int
    phase: str
    first_seat: int
    awaiting: int | None
    combat: Combat | None
    outcome: Outcome | None
    sides: tuple[SideView, SideView]


def view(state: State, seat: int | None) -> View:
    def ref(card: int) -> CardRef:
        return CardRef(card, state.name(card))

    def refs(cards: tuple[int, ...]) -> tuple[CardRef, ...]:
        return tuple(ref(c) for c in cards)

    sides = []
    for s in (1, 2):
        side = state.side(s)
        mine = seat is None or seat == s
        stage = tuple(None if u is None else _unit_view(state, s, i + 1, ref) for i, u in enumerate(side.stage))
        hearts = tuple(HeartView(card=ref(h.card) if (seat is None or h.face_up) else None,
                                 broken=h.broken, face_up=h.face_up) for h in side.hearts)
        sides.append(SideView(
            seat=s, life=side.life, deck_count=len(side.deck), deck=refs(side.deck) if seat is None else None,
            hand_count=len(side.hand), hand=refs(side.hand) if mine else None, hearts=hearts,
            soul=refs(side.soul), grave=refs(side.grave), seal=refs(side.seal), stage=stage,
            table=tuple(None if t is None else SpellView(card=ref(t.card), targets=t.targets, broken=t.broken,
                                                          waiting=t.waiting) for t in side.table),
            towers=tuple(TowerView(cards=refs(t.cards), height=t.height, broken=t.broken,
                                   HT=tower_height(state, s, i + 1)) for i, t in enumerate(side.towers)),
            lost=side.lost))
    return View(seat=seat, turn=state.turn, turn_seat=state.turn_seat, phase=state.phase,
                first_seat=state.first_seat, awaiting=awaiting(state), combat=state.combat,
                outcome=state.outcome, sides=(sides[0], sides[1]))


def _unit_view(state: State, seat: int, line: int, ref: Callable[[int], CardRef]) -> UnitView:
    unit = state.side(seat).stage[line - 1]
    assert unit is not None
    p = unit_stats(state, seat, line)
    return UnitView(card=ref(unit.card), damage=unit.damage, broken=unit.broken,
                    status=unit.status, STR=p.STR, VIT=p.VIT, AGI=p.AGI,
                    DEF=p.DEF, skills=tuple(sorted(p.keywords)))


def _hide(cards: tuple[int, ...]) -> tuple[int, ...]:
    return (HIDDEN,) * len(cards)


def redact(envelope: Envelope[ev.Event], seat: int | None) -> Envelope[ev.Event]:
    """The event as ``seat`` may see it: hidden card ids become 0 (HIDDEN); counts stay.
    (The core strips ``chain`` and ``digest`` for a seat: see ``kifu.domain.core.visibility``.)"""
    if seat is None:
        return envelope
    e = envelope.event
    match e:
        case ev.DeckShuffled(order=order):
            e2: ev.Event = replace(e, order=_hide(order))
        case ev.HeartsSet(hearts=hearts):
            e2 = replace(e, hearts=hearts[:1] + _hide(hearts[1:]))
        case ev.CardsDrawn(seat=owner, cards=cards) | ev.HandReturned(seat=owner, cards=cards) if owner != seat:
            e2 = replace(e, cards=_hide(cards))
        case ev.CardDrawn(seat=owner) if owner != seat:
            e2 = replace(e, card=HIDDEN)
        case _:
            return envelope
    return replace(envelope, event=e2)


def mask(state: State, seat: int) -> State:
    """The state as ``seat`` may know it: both decks' order, the opponent's hand and every
    face-down heart become HIDDEN (counts stay), so a bot can simulate on it and learn nothing."""
    sides = []
    for s in (1, 2):
        side = state.side(s)
        sides.append(replace(
            side, deck=_hide(side.deck), hand=side.hand if s == seat else _hide(side.hand),
            hearts=tuple(h if h.face_up else replace(h, card=HIDDEN) for h in side.hearts)))
    return replace(state, sides=(sides[0], sides[1]))


def hidden_cards(state: State, seat: int) -> set[int]:
    """The card ids ``mask`` hides from ``seat``, read off the zones it hides (the core's default
    walks the whole state against the mask: the service asks this several times a decision)."""
    out: set[int] = set()
    for s in (1, 2):
        side = state.sides[s - 1]
        out.update(side.deck)
        if s != seat:
            out.update(side.hand)
        out.update(h.card for h in side.hearts if not h.face_up)
    out.discard(HIDDEN)
    return out
