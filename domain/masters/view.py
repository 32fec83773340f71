"""What a seat may see (``view``), drawn as a neutral ``layout``; events as a seat sees them
(``redact``); the state as a seat may know it (``mask``, for bots that simulate).

Hidden: both decks' order (each deck is shuffled by the opponent, M-1.5, and nobody looks),
the opponent's hand, and face-down mana cards (charged unseen from the deck's top, M-3.2 —
hidden from both seats). Everything on the board, the stack, face-up mana and the discard
piles is public. The judge (seat None) sees everything.
"""
from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.layout import Cell, Counter, Face, Grid, Layout, Note, Part, SeatPanel, Zone
from kifu.domain.core.roles import HIDDEN

from . import events as ev
from .board import SQUARES, col_of, parse, row_of, territory
from .board import name as square_name
from .decide import awaiting
from .effects import hp_left
from .state import Mana, State
from .vocabulary import BOARD_COLS, BOARD_ROWS, PHASE_NAMES


class CardRef(msgspec.Struct, frozen=True):
    id: int
    name: str


class PieceView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    card: CardRef
    seat: int
    square: str                                  # "c4": column c, row 4
    atk: int
    hp: int
    max_hp: int
    mov: int
    tapped: bool = False
    fresh: bool = False


class SideView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    seat: int
    life: int
    master: str
    deck_count: int
    hand_count: int
    hand: tuple[CardRef, ...] | None = None      # None: the opponent's
    deck: tuple[CardRef, ...] | None = None      # the order: judge only
    mana: tuple[CardRef, ...] = ()               # face-down mana shows as id 0 to the seats
    mana_untapped: int = 0
    grave: tuple[CardRef, ...] = ()
    doom: int = 0
    master_moved: bool = False
    charged: bool = False
    lost: str = ""


class StackView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    seat: int
    card: CardRef
    kind: str
    target: CardRef | None = None


class CombatView(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    attacker: CardRef
    defender: CardRef | None                     # None: the master
    origin: str
    before: str
    square: str


class View(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    seat: int | None
    turn: int
    active: int
    phase: str
    pending: str = ""
    priority: int | None = None
    awaiting: tuple[int, ...] = ()
    sides: tuple[SideView, ...] = ()
    pieces: tuple[PieceView, ...] = ()
    stack: tuple[StackView, ...] = ()
    combat: CombatView | None = None
    outcome: str = ""


def _ref(state: State, cid: int) -> CardRef:
    return CardRef(cid, state.name(cid))


def _mana_ref(state: State, m: Mana, seat: int | None) -> CardRef:
    return _ref(state, m.card) if (m.face_up or seat is None) else CardRef(HIDDEN, "")


def view(state: State, seat: int | None) -> View:
    sides = []
    for s in (1, 2):
        side = state.side(s)
        sides.append(SideView(
            seat=s, life=side.life, master=square_name(side.master), deck_count=len(side.deck),
            hand_count=len(side.hand),
            hand=tuple(_ref(state, c) for c in side.hand) if seat is None or seat == s else None,
            deck=tuple(_ref(state, c) for c in side.deck) if seat is None else None,
            mana=tuple(_mana_ref(state, m, seat) for m in side.mana), mana_untapped=state.untapped_mana(s),
            grave=tuple(_ref(state, c) for c in side.grave), doom=side.doom, master_moved=side.master_moved,
            charged=side.charged, lost=side.lost))
    pieces = []
    for p in state.pieces:
        d = state.card(p.card)
        pieces.append(PieceView(card=_ref(state, p.card), seat=p.seat, square=square_name(p.square),
                                atk=d.atk + p.atk_bonus, hp=hp_left(state, p), max_hp=d.hp, mov=d.mov,
                                tapped=p.tapped, fresh=p.fresh))
    stack = tuple(StackView(seat=i.seat, card=_ref(state, i.card), kind=i.kind,
                            target=_ref(state, i.target) if i.target else None) for i in state.stack)
    combat = None
    if state.combat is not None:
        cb = state.combat
        combat = CombatView(attacker=_ref(state, cb.attacker),
                            defender=_ref(state, cb.defender) if cb.defender else None,
                            origin=square_name(cb.origin), before=square_name(cb.before),
                            square=square_name(cb.square))
    return View(seat=seat, turn=state.turn, active=state.active, phase=state.phase, pending=state.pending,
                priority=state.priority.holder if state.priority else None,
                awaiting=tuple(sorted(awaiting(state))), sides=tuple(sides), pieces=tuple(pieces), stack=stack,
                combat=combat, outcome=state.outcome.describe() if state.outcome else "")


def _face(ref: CardRef, **kw: Any) -> Face:
    return Face(id=ref.id, name=ref.name, **kw)


def layout(v: View) -> Layout:
    """The board as a grid (pieces, masters, territories), each master's panel, and the stack.

    The grid is drawn with seat 2's back row (row 6) on top and seat 1's (row 1) at the bottom,
    as the panels are drawn; row labels keep the board's own numbers, columns are a–e."""
    cells: dict[int, list[Face]] = {}
    for p in v.pieces:
        marks = tuple(m for m, on in (("tapped", p.tapped), ("summoned", p.fresh)) if on)
        cells.setdefault(parse(p.square), []).append(_face(p.card, stats=f"ATK{p.atk} HP{p.hp}/{p.max_hp} MOV{p.mov}",
                                                    marks=marks, owner=p.seat,
                                                    tone="good" if p.seat == v.seat else ""))
    for side in v.sides:
        cells.setdefault(parse(side.master), []).append(Face(id=0, name=f"master {side.seat}",
                                                             stats=f"life {side.life}", owner=side.seat, tone="hot"))
    grid_cells = []
    for sq in SQUARES:
        owner = 1 if sq in territory(1) else 2 if sq in territory(2) else None
        if sq in cells or owner is not None:
            grid_cells.append(Cell(row=BOARD_ROWS + 1 - row_of(sq), col=col_of(sq), cards=tuple(cells.get(sq, ())),
                                   label=f"T{owner}" if owner else "", owner=owner))
    grid = Grid(id="board", label="board", rows=BOARD_ROWS, cols=BOARD_COLS, cells=tuple(grid_cells),
                row_labels=tuple(str(r) for r in range(BOARD_ROWS, 0, -1)),
                col_labels=tuple("abcdefghij"[c] for c in range(BOARD_COLS)), cell_format="{col}{row}")
    board: list[Part] = [grid, Zone(id="stack", label="stack", cards=tuple(
        _face(i.card, stats=i.kind, owner=i.seat, marks=((f"target {i.target.name}",) if i.target else ()))
        for i in v.stack))]
    if v.combat is not None:
        cb = v.combat
        who = cb.defender.name if cb.defender else "the master"
        board.append(Note(id="combat", text=f"combat: {cb.attacker.name} from {cb.before} attacks {who} on {cb.square}",
                          tone="hot"))
    panels = []
    for side in v.sides:
        parts: list[Part] = [Counter(id="life", label="life", value=side.life),
                       Counter(id="mana", label="mana", value=side.mana_untapped, max=len(side.mana))]
        if side.doom:
            parts.append(Counter(id="doom", label="刻", value=side.doom, max=3))
        if side.hand is not None:
            parts.append(Zone(id="hand", label="hand", cards=tuple(_face(r) for r in side.hand)))
        else:
            parts.append(Zone(id="hand", label="hand", count=side.hand_count, show="count"))
        if side.deck is not None:
            parts.append(Zone(id="deck", label="deck", cards=tuple(_face(r) for r in side.deck)))
        else:
            parts.append(Zone(id="deck", label="deck", count=side.deck_count, show="count"))
        parts.append(Zone(id="mana", label="mana", cards=tuple(_face(r) for r in side.mana)))
        parts.append(Zone(id="grave", label="discard", cards=tuple(_face(r) for r in side.grave), show="top"))
        panels.append(SeatPanel(seat=side.seat, parts=tuple(parts), lost=side.lost))
    step = PHASE_NAMES.get(v.phase, v.phase)
    if v.pending == "draw":
        step += " (draw or charge)"
    elif v.pending == "discard":
        step += " (discard to 8)"
    elif v.combat is not None:
        step += " (combat)"
    return Layout(ruleset="masters", viewer=v.seat, turn=v.turn, step=step, active=v.active or None,
                  awaiting=v.awaiting, outcome=v.outcome, seats=tuple(panels), board=tuple(board))


def _hide(cards: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(HIDDEN for _ in cards)


def redact(envelope: Envelope[ev.Event], seat: int | None) -> Envelope[ev.Event]:
    """``envelope`` as ``seat`` may see it: deck orders and face-down mana hidden from both seats,
    the cards of the opponent's hand (drawn, returned, bottomed) hidden from the opponent."""
    if seat is None:
        return envelope
    e = envelope.event
    new = e
    match e:
        case ev.DeckShuffled():
            new = replace(e, order=_hide(e.order))
        case ev.ManaCharged(face_up=False):
            new = replace(e, card=HIDDEN)
        case ev.CardsDrawn() | ev.HandReturned() if e.seat != seat:
            new = replace(e, cards=_hide(e.cards))
        case ev.CardBottomed() if e.seat != seat:
            new = replace(e, card=HIDDEN)
    return envelope if new is e else replace(envelope, event=new)


def mask(state: State, seat: int) -> State:
    """The state as ``seat`` may know it: deck order unknown (all HIDDEN), the opponent's hand
    HIDDEN, face-down mana HIDDEN."""
    sides = []
    for s in (1, 2):
        side = state.side(s)
        side = replace(side, deck=_hide(side.deck),
                       mana=tuple(m if m.face_up else replace(m, card=HIDDEN) for m in side.mana))
        if s != seat:
            side = replace(side, hand=_hide(side.hand))
        sides.append(side)
    return replace(state, sides=tuple(sides))


def hidden_cards(state: State, seat: int) -> set[int]:
    """The card ids ``mask`` hides from ``seat``: both decks, the opponent's hand, face-down mana."""
    out: set[int] = set()
    for s in (1, 2):
        side = state.side(s)
        out.update(side.deck)
        out.update(m.card for m in side.mana if not m.face_up)
        if s != seat:
            out.update(side.hand)
    out.discard(HIDDEN)
    return out
