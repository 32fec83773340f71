"""What a seat may choose now (``legal``), and the geometry behind it (N-7): rows, distance, range.
N-3 the field: two character rows and the magic zone per side (``state.Side``).

N-7.1 distance: from one's own back row, own front = 1, enemy front = 2, enemy back = 3 (one
more per row crossed); N-Q3 the same line for every row, so the same row is distance 0.
N-7.2 a skill's target must be within range (range ≥ distance) unless the text says otherwise;
magic is not a character's skill and names its targets by side only.
"""
from __future__ import annotations

from collections.abc import Sequence, Set

from kifu.domain.core.clauses import implements
from kifu.domain.core.memo import ByIdentity, Slot

from .cards import CardDef, card
from .commands import Act, Command, Done, Pick, Reveal
from .state import BUDGET, MAGIC_SLOTS, ROW_SLOTS, Card, State

LINE = {"back": 0, "front": 1}


@implements("N-7.1")
def line_of(state: State, viewer: int, cid: int) -> int:
    """N-7.1: where ``cid`` stands on the line seen from ``viewer``'s side (own back = 0 … enemy back = 3)."""
    c = state.card(cid)
    own = LINE[c.zone]
    return own if c.owner == viewer else 3 - own


@implements("N-7.1", "N-Q3")
def distance(state: State, a: int, b: int) -> int:
    """N-7.1 / N-Q3: the number of row steps between two characters."""
    viewer = state.card(a).owner
    return abs(line_of(state, viewer, a) - line_of(state, viewer, b))


@implements("N-7.2")
def in_range(state: State, a: int, b: int) -> bool:
    """N-7.2: range ≥ distance."""
    return state.card(a).rng >= distance(state, a, b)


@implements("N-7.2")
def skill_targets(state: State, cid: int) -> list[int]:
    """The targets the acting character ``cid`` may pick (N-Q1 attack, or its own skill): those
    ``in_range`` of it, with the line worked out once for the actor (every group, every decision)."""
    cards = state.cards
    c = cards[cid - 1]
    action = card(c.name).action
    if action == "heal":
        side = state.sides[c.owner - 1]
    elif action in ("attack", "attack_row"):
        side = state.sides[2 - c.owner]
    else:
        return []
    field = side.front + side.back
    if not field:
        return []
    viewer, here, reach = c.owner, LINE[c.zone], c.rng
    out = []
    for t in field:
        target = cards[t - 1]
        there = LINE[target.zone]
        if reach >= abs(here - (there if target.owner == viewer else 3 - there)):
            out.append(t)
    return out


def magic_targets(state: State, seat: int, d: CardDef) -> list[int]:
    """Targets of a magic card chosen at select (N-5.2.1); [0] where it takes none."""
    match d.target:
        case "enemy":
            return list(state.field(3 - seat))
        case "ally":
            return list(state.field(seat))
        case "ally_dead":
            return list(_dead(state.cards)[seat - 1])
        case _:
            return [0]


def _dead_of(cards: tuple[Card, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per seat, its characters in the graveyard in id order (a revival's targets): worked out once
    per card tuple (a whole selection phase shares one)."""
    per: tuple[list[int], list[int]] = ([], [])
    for c in cards:
        if c.zone == "grave" and c.owner in (1, 2) and card(c.name).kind == "character":
            per[c.owner - 1].append(c.id)
    return tuple(per[0]), tuple(per[1])


_dead = ByIdentity("novel.dead", _dead_of, bound=64)


Kind = tuple[tuple[int, ...], CardDef]   # the ids of one card kind in a deck (lowest first) and its printed card


def _kinds_of(cards: tuple[Card, ...]) -> tuple[dict[str, Kind], dict[str, Kind]]:
    """Per seat, each card kind in its deck by name with its ids in deck order, kinds in the order
    of their first copy: worked out once per card tuple (a whole selection phase shares one)."""
    per: tuple[dict[str, list[int]], dict[str, list[int]]] = ({}, {})
    for c in cards:
        if c.zone == "deck":
            per[c.owner - 1].setdefault(c.name, []).append(c.id)
    one, two = ({name: (tuple(ids), card(name)) for name, ids in kinds.items()} for kinds in per)
    return one, two


_deck_kinds = ByIdentity("novel.deck_kinds", _kinds_of, bound=64)


def _id(kind: tuple[int, CardDef]) -> int:
    return kind[0]


def _first_of_each_kind(state: State, seat: int, picked: Set[int]) -> list[tuple[int, CardDef]]:
    """The lowest id left of each kind in the seat's deck (picked cards left out) with its printed
    card, in id order: the kinds' lists cut by the picks instead of a walk over every card."""
    kinds = _deck_kinds(state.cards)[seat - 1].values()
    if not picked:
        return [(ids[0], d) for ids, d in kinds]    # kinds come in the order of their first copies' ids
    firsts: list[tuple[int, CardDef]] = []
    for ids, d in kinds:
        for cid in ids:
            if cid not in picked:
                firsts.append((cid, d))
                break
    firsts.sort(key=_id)     # a kind whose first copy is picked is stood for by a later one
    return firsts


# a card kind the seat may pick now: (the id standing for it, its kind, the targets it may take:
# none for a character, its targets for equipment, a magic's face-up targets besides its face-down pick)
Pickable = tuple[int, str, Sequence[int]]
_NONE: tuple[int, ...] = ()
_NO_PICKS: frozenset[int] = frozenset()


@implements("N-3.2", "N-5.1", "N-5.2.1", "N-Q2")
def _pickable(state: State, seat: int) -> list[Pickable]:
    """N-5.2.1 / N-3.2: the card kinds left in the deck (copies are alike: the lowest id stands for
    them) within the cost left of 6 and the room on the field (N-Q2), in id order."""
    side = state.sides[seat - 1]
    first = state.phase == "first"
    left = BUDGET - side.spent
    picks = side.picks
    picked = {p.card for p in picks} if picks else _NO_PICKS
    defs = _first_of_each_kind(state, seat, picked)
    chars_picked = magic_picked = 0
    if picks:
        cards = state.cards
        picked_kinds = [card(cards[p.card - 1].name).kind for p in picks]
        chars_picked = picked_kinds.count("character")
        magic_picked = picked_kinds.count("magic")
    room_chars = 2 * ROW_SLOTS - len(side.front) - len(side.back) - chars_picked
    room_magic = MAGIC_SLOTS - len(side.magic) - magic_picked
    need_char = first and not chars_picked     # N-5.1: the first phase must still have room for a character
    cheapest_char = min((d.cost for _, d in defs if d.kind == "character"), default=99) if need_char else 0
    out: list[Pickable] = []
    for cid, d in defs:
        if d.cost > left:
            continue
        kind = d.kind
        if need_char and kind != "character" and cheapest_char > left - d.cost:
            continue
        if kind == "character":
            if room_chars > 0:
                out.append((cid, kind, _NONE))
        elif kind == "equipment":
            if not first:
                out.append((cid, kind, state.field(seat)))
        elif room_magic > 0:
            out.append((cid, kind, _NONE if first else magic_targets(state, seat, d)))
    return out


def pick_options(state: State, seat: int) -> list[Pick]:
    """One Pick per card kind the seat may pick (``_pickable``) and per target: a character
    without one, equipment on each own character, magic face down and then on each of its targets."""
    out: list[Pick] = []
    for cid, kind, targets in _pickable(state, seat):
        if kind == "character":
            out.append(Pick(card=cid))
            continue
        if kind == "magic":
            out.append(Pick(card=cid, face_down=True))
        out.extend(Pick(card=cid, target=t) for t in targets)
    return out


@implements("N-4.2", "N-Q7")
def can_pick(state: State, seat: int) -> bool:
    """Is there any Pick (``bool(pick_options(state, seat))``)? Equipment alone needs a character to go on."""
    return any(kind != "equipment" or targets for _, kind, targets in _pickable(state, seat))


@implements("N-Q6")
def reveal_options(state: State, seat: int) -> list[Reveal]:
    """N-Q6: a face-down magic set in an earlier turn may be turned up at no cost, with its target."""
    side = state.side(seat)
    if state.phase != "select":
        return []
    chosen = {r.card for r in side.reveals}
    out: list[Reveal] = []
    for cid in side.magic:
        c = state.card(cid)
        if c.face_down and cid not in chosen and c.summoned < state.turn:
            out.extend(Reveal(card=cid, target=t) for t in magic_targets(state, seat, card(c.name)))
    return out


@implements("N-5.1", "N-5.2.1")
def may_finish(state: State, seat: int) -> bool:
    """N-5.1 a character must be among the first phase's cards; N-5.2.1 at least one card a turn."""
    side = state.side(seat)
    if state.phase == "first":
        return any(card(state.card(p.card).name).kind == "character" for p in side.picks)
    return bool(side.picks)


def act_options(state: State, seat: int) -> list[Act]:
    return [Act(card=cid, target=t) for cid in state.group if state.card(cid).owner == seat
            for t in skill_targets(state, cid)]


@implements("N-3.2", "N-5.1", "N-5.2.1", "N-6.5", "N-7.2", "N-Q2", "N-Q6", "N-Q12")
def allows(state: State, seat: int, command: Command) -> bool:
    """``command in legal(state, seat)``, answered for the one command instead of listing them all:
    what ``decide`` asks of every revealed choice (tests/novel/test_allows.py holds it to ``legal``)."""
    if state.ended is not None:
        return False
    side = state.sides[seat - 1]
    phase = state.phase
    if phase == "skill":
        if side.sealed or side.act is not None or type(command) is not Act:
            return False
        cid = command.card
        return (cid in state.group and state.cards[cid - 1].owner == seat
                and command.target in skill_targets(state, cid))
    if phase not in ("first", "select") or side.done or side.sealed:
        return False
    if type(command) is Pick:
        return _allows_pick(state, seat, command)
    if type(command) is Reveal:
        return command in reveal_options(state, seat)
    return type(command) is Done and may_finish(state, seat)


def _allows_pick(state: State, seat: int, pick: Pick) -> bool:
    """``pick in pick_options(state, seat)``: the card must stand for its kind (the lowest id left),
    fit the cost and the room, and carry the target its kind takes."""
    cid = pick.card
    cards = state.cards
    if not 1 <= cid <= len(cards):
        return False
    c = cards[cid - 1]
    if c.owner != seat or c.zone != "deck":
        return False
    side = state.sides[seat - 1]
    picked = {p.card for p in side.picks}
    if cid in picked:
        return False
    ids, d = _deck_kinds(cards)[seat - 1][c.name]
    for lowest in ids:
        if lowest not in picked:
            break
    if lowest != cid:
        return False          # copies are alike: the lowest id left stands for them
    left = BUDGET - side.spent
    if d.cost > left:
        return False
    first = state.phase == "first"
    picked_defs = [card(cards[p.card - 1].name) for p in side.picks]
    chars_picked = sum(1 for pd in picked_defs if pd.kind == "character")
    if first and not chars_picked and d.kind != "character":
        kinds = _deck_kinds(cards)[seat - 1].values()
        cheapest_char = min((k.cost for kind_ids, k in kinds if k.kind == "character"
                             and any(i not in picked for i in kind_ids)), default=99)
        if cheapest_char > left - d.cost:
            return False
    if d.kind == "character":
        room_chars = 2 * ROW_SLOTS - len(side.front) - len(side.back) - chars_picked
        return room_chars > 0 and pick.target == 0 and not pick.face_down
    if d.kind == "equipment":
        return not first and not pick.face_down and pick.target in state.field(seat)
    magic_picked = sum(1 for pd in picked_defs if pd.kind == "magic")
    if MAGIC_SLOTS - len(side.magic) - magic_picked <= 0:
        return False
    if pick.face_down:
        return pick.target == 0
    return not first and pick.target in magic_targets(state, seat, d)


# legal is asked of the same state twice a decision (the bot's options, the core's check before
# sealing; decide checks the revealed choice with ``allows``): the answer kept with the state and seat
_last: Slot[tuple[State | None, int, tuple[Command, ...]]] = Slot("novel.legal", (None, 0, ()))


def legal(state: State, seat: int) -> list[Command]:
    kept = _last.value
    if kept[0] is state and kept[1] == seat:
        return list(kept[2])
    out = _legal(state, seat)
    _last.value = (state, seat, tuple(out))
    return out


def _legal(state: State, seat: int) -> list[Command]:
    if state.ended is not None:
        return []
    side = state.side(seat)
    if state.phase in ("first", "select"):
        if side.done or side.sealed:
            return []
        out: list[Command] = [*pick_options(state, seat), *reveal_options(state, seat)]
        if may_finish(state, seat):
            out.append(Done())
        return out
    if state.phase == "skill":
        if side.sealed or side.act is not None:
            return []
        return list(act_options(state, seat))
    return []
