"""What a seat may see (view), drawn as neutral parts (layout), its events (redact), and the state
as it may know it (mask). Hidden: deck and Ex-deck order (both seats), the opponent's hand, the
opponent's face-down 霊力 (spells; 霊撃 there are face up, R-2.3 / R-2.4)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from msgspec.structs import replace

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.layout import Cell, Counter, Face, Grid, Layout, Note, SeatPanel, Zone
from kifu.domain.core.roles import HIDDEN

from . import events as e
from .decide import DAMAGE_LOSS, HAND_LIMIT, REIRYOKU_MAX, attack_power, awaiting, card_of, is_reigeki, power_graze
from .state import PLACE_NAMES, Side, State, Unit


class VCard(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    id: int = 0
    name: str = ""
    stats: str = ""
    marks: tuple[str, ...] = ()


class VArea(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    place: int
    cards: tuple[VCard, ...]                 # bottom first (a Lv3 under its LvEx)
    leader: bool = False


class SeatView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    seat: int
    stage: tuple[VArea, ...] = ()
    hand: tuple[VCard, ...] = ()
    hand_count: int = 0
    deck_count: int = 0
    discard: tuple[VCard, ...] = ()
    exdeck_count: int = 0
    exdiscard: tuple[VCard, ...] = ()
    reiryoku: tuple[VCard, ...] = ()
    damage: tuple[VCard, ...] = ()
    spell_used: bool = False
    lost: str = ""


class View(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    viewer: int | None = None
    turn: int = 0
    active: int = 0
    phase: str = ""
    awaiting: tuple[int, ...] = ()
    battle: str = ""
    outcome: str = ""
    seats: tuple[SeatView, ...] = ()


def _card(state: State, card: int, marks: tuple[str, ...] = ()) -> VCard:
    info = card_of(state, card)
    stats = f"Lv{info.level}" if info.type in ("character", "spell") else ""
    if info.type == "character":
        stats += f" P{info.power} G{info.graze}"
    return VCard(id=card, name=info.key, stats=stats, marks=marks)


def _unit(state: State, unit: Unit) -> tuple[VCard, ...]:
    if unit.leader:
        return (VCard(id=unit.card, name=card_of(state, unit.card).key, stats="leader"),)
    p, g = power_graze(state, unit)
    info = card_of(state, unit.card)
    marks: tuple[str, ...] = ("burst",) if unit.burst else ("reload",)
    if info.highrange:
        marks += ("ハイレンジ",)
    if info.guard:
        marks += (f"ガード{info.guard}",)
    top = VCard(id=unit.card, name=info.key, stats=f"Lv{info.level} P{p} G{g}", marks=marks)
    return ((_card(state, unit.under, ("under",)),) if unit.under else ()) + (top,)


def _seat_view(state: State, seat: int, viewer: int | None) -> SeatView:
    side: Side = state.side(seat)
    mine = viewer is None or viewer == seat
    return SeatView(
        seat=seat,
        stage=tuple(VArea(place=i + 1, cards=_unit(state, u), leader=u.leader)
                    for i, u in enumerate(side.stage) if u is not None),
        hand=tuple(_card(state, h) for h in side.hand) if mine else (),
        hand_count=len(side.hand), deck_count=len(side.deck),
        discard=tuple(_card(state, d) for d in side.discard), exdeck_count=len(side.exdeck),
        exdiscard=tuple(_card(state, d) for d in side.exdiscard),
        reiryoku=tuple(_card(state, r, ("face up",) if is_reigeki(state, r) else ()) if mine or is_reigeki(state, r)
                       else VCard() for r in side.reiryoku),
        damage=tuple(_card(state, d, ("face down",) if d in side.flipped else ()) for d in side.damage),
        spell_used=side.spell_turn == state.turn and state.turn > 0, lost=side.lost)


def battle_text(state: State) -> str:
    b = state.battle
    if b is None:
        return ""
    att, tgt = card_of(state, b.attacker).key, card_of(state, b.target).key
    text = (f"{att} ({PLACE_NAMES[b.attacker_place]}) attacks {tgt} ({PLACE_NAMES[b.target_place]}); "
            f"guards {b.guards}, power now {attack_power(state)}; step: {state.phase}")
    return text + (" — nullified" if b.nullified else "")


def view(state: State, seat: int | None) -> View:
    r = state.result
    outcome = "" if r is None else (f"seat {r.winner} wins ({r.termination})" if r.winner
                                    else f"draw ({r.termination})")
    return View(viewer=seat, turn=state.turn, active=state.active, phase=state.phase,
                awaiting=tuple(sorted(awaiting(state))), battle=battle_text(state), outcome=outcome,
                seats=tuple(_seat_view(state, s, seat) for s in (1, 2)))


def _face(v: VCard) -> Face:
    return Face(id=v.id, name=v.name, stats=v.stats, marks=v.marks) if v.name else Face()


def layout(v: View) -> Layout:
    panels = []
    for sv in v.seats:
        cells = tuple(Cell(row=1 if a.place <= 3 else 2, col=(a.place - 1) % 3 + 1,
                           cards=tuple(_face(c) for c in a.cards), label="leader" if a.leader else "")
                      for a in sv.stage)
        hand_hidden = v.viewer is not None and v.viewer != sv.seat
        parts: tuple[Any, ...] = (
            Counter(id="damage", label="damage", value=len(sv.damage), max=DAMAGE_LOSS),
            Counter(id="reiryoku", label="霊力", value=len(sv.reiryoku), max=REIRYOKU_MAX),
            Counter(id="hand", label="hand", value=sv.hand_count, max=HAND_LIMIT),
            Counter(id="deck", label="deck", value=sv.deck_count),
            Grid(id="stage", label="stage", rows=2, cols=3, cells=cells, row_labels=("前衛", "後衛"),
                 col_labels=("左", "中央", "右")),
            Zone(id="hand", label="hand", cards=tuple(Face() for _ in range(sv.hand_count)) if hand_hidden
                 else tuple(_face(c) for c in sv.hand), count=sv.hand_count,
                 show="count" if hand_hidden else "cards"),
            Zone(id="reiryoku", label="霊力", cards=tuple(_face(c) for c in sv.reiryoku), count=len(sv.reiryoku)),
            Zone(id="damage", label="damage zone", cards=tuple(_face(c) for c in sv.damage), count=len(sv.damage)),
            Zone(id="deck", label="deck", count=sv.deck_count, show="count"),
            Zone(id="discard", label="discard", cards=tuple(_face(c) for c in sv.discard), count=len(sv.discard),
                 show="top"),
            Zone(id="exdeck", label="Ex deck", count=sv.exdeck_count, show="count"),
            Zone(id="exdiscard", label="Ex discard", cards=tuple(_face(c) for c in sv.exdiscard),
                 count=len(sv.exdiscard), show="top"),
        )
        if sv.spell_used:
            parts += (Note(id="spell", text="spell used this turn", tone="dim"),)
        panels.append(SeatPanel(seat=sv.seat, parts=parts, lost=sv.lost))
    board: tuple[Any, ...] = (Note(id="battle", text=v.battle, tone="hot"),) if v.battle else ()
    return Layout(ruleset="reigeki", viewer=v.viewer, turn=v.turn, step=v.phase, active=v.active or None,
                  awaiting=v.awaiting, outcome=v.outcome, seats=tuple(panels), board=board)


def _zeros(cards: tuple[int, ...]) -> tuple[int, ...]:
    return (HIDDEN,) * len(cards)


def redact(envelope: Envelope[Any], seat: int | None) -> Envelope[Any]:
    if seat is None:
        return envelope
    ev = envelope.event
    kind = type(ev)
    if kind is e.DecksShuffled:
        new: Any = replace(ev, deck=_zeros(ev.deck), exdeck=_zeros(ev.exdeck))
    elif kind is e.Drew and ev.seat != seat:
        new = replace(ev, cards=_zeros(ev.cards))
    elif kind is e.HandReturned:
        new = replace(ev, deck=_zeros(ev.deck), cards=ev.cards if ev.seat == seat else _zeros(ev.cards))
    elif kind is e.Charged and ev.seat != seat:
        new = replace(ev, card=HIDDEN)
    else:
        return envelope
    return replace(envelope, event=new)


def mask(state: State, seat: int) -> State:
    """The state as ``seat`` knows it: deck orders and the opponent's hand and face-down 霊力 hidden."""
    sides = []
    for s in (1, 2):
        side = state.side(s)
        changes: dict[str, Any] = dict(deck=_zeros(side.deck), exdeck=_zeros(side.exdeck))
        if s != seat:
            changes["hand"] = _zeros(side.hand)
            changes["reiryoku"] = tuple(r if is_reigeki(state, r) else HIDDEN for r in side.reiryoku)
        sides.append(replace(side, **changes))
    return replace(state, sides=(sides[0], sides[1]))


def hidden_cards(state: State, seat: int) -> set[int]:
    """The card ids ``mask`` hides from ``seat``: both decks and extra decks, the opponent's hand
    and its face-down 霊力 (a 霊撃 in it is face up)."""
    out: set[int] = set()
    for s in (1, 2):
        side = state.side(s)
        out.update(side.deck)
        out.update(side.exdeck)
        if s != seat:
            out.update(side.hand)
            out.update(r for r in side.reiryoku if not is_reigeki(state, r))
    out.discard(HIDDEN)
    return out


def card_names(state: State) -> Callable[[int], str]:
    """Card id -> the card's key, for display."""
    return lambda card: card_of(state, card).key
