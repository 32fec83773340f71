"""``evolve``: the dumb fold of one event into the state (dict dispatch; never validates)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from msgspec.structs import force_setattr, replace

from kifu.domain.core import piles
from kifu.domain.core import priority as prio
from kifu.domain.core.clauses import implements
from kifu.domain.core.piles import at_bottom, dropped, emptied, plus, renewed, without_any
from kifu.domain.core.ruleset import Outcome

from . import events as ev
from . import mana as rows
from .board import parse
from .state import Combat, Mana, Piece, Side, StackItem, State
from .vocabulary import other

# Each case makes one new State: its parts (``_sides``, ``_pieces``, ``_after_act``) are worked
# out first and put in with a single ``replace`` (a State is a dozen fields to copy). A side's rows
# change through ``piles`` and ``mana``: new tuples, or in ``evolve_run`` the run's lists changed in place.

def _sides(state: State, seat: int, **fields: Any) -> tuple[Side, ...]:
    """The sides with ``seat``'s ``fields`` changed."""
    one, two = sides = state.sides
    if seat == 1:
        return (replace(one, **fields), two)
    if seat == 2:
        return (one, replace(two, **fields))
    changed = list(sides)
    changed[seat - 1] = replace(changed[seat - 1], **fields)
    return tuple(changed)


def _side(state: State, seat: int, **fields: Any) -> State:
    one, two = state.sides      # (``_sides`` written out for the two seats: a call fewer per event)
    if seat == 1:
        return replace(state, sides=(replace(one, **fields), two))
    if seat == 2:
        return replace(state, sides=(one, replace(two, **fields)))
    return replace(state, sides=_sides(state, seat, **fields))


def _found(pieces: tuple[Piece, ...], cid: int) -> int:
    """The index of card ``cid``'s piece (a card is in one place: one piece at most), -1 if none.

    A loop: in instructions, reading ``.card`` in it is cheaper than ``indexOf(map(attrgetter))``'s
    generic attribute call per piece (cachegrind)."""
    i = 0
    for p in pieces:
        if p.card == cid:
            return i
        i += 1
    return -1


def _put(pieces: tuple[Piece, ...], i: int, piece: Piece) -> tuple[Piece, ...]:
    out = list(pieces)
    out[i] = piece
    return tuple(out)


def _pieces(state: State, cid: int, **fields: Any) -> tuple[Piece, ...]:
    """The pieces with card ``cid``'s ``fields`` changed."""
    pieces = state.pieces
    i = 0
    for p in pieces:        # (``_found`` and ``_put`` written out: the commonest piece change, a call fewer each)
        if p.card == cid:
            out = list(pieces)
            out[i] = replace(p, **fields)
            return tuple(out)
        i += 1
    return pieces


def _after_act(state: State, seat: int) -> prio.Priority | None:
    """The priority once ``seat`` has acted (none held: none)."""
    p = state.priority
    return None if p is None else _ACTED.get((p, seat)) or prio.acted(p, seat)


# priorities are frozen values: shared, one of each (so the tables below find them by identity)
_ONE_OF = {p: p for p in (prio.Priority(holder=h, passes=n) for h in (1, 2) for n in range(3))}
_OPENED = {seat: _ONE_OF.get(prio.opened(seat)) or prio.opened(seat) for seat in (1, 2)}
_PASSED = {p: _ONE_OF.get(prio.passed(p)) or prio.passed(p) for p in _ONE_OF}


_ACTED = {(p, seat): _ONE_OF.get(prio.acted(p, seat)) or prio.acted(p, seat)
          for p in {*_PASSED, *_PASSED.values(), *_OPENED.values()} for seat in (1, 2)}


def _opened(seat: int) -> prio.Priority:
    return _OPENED.get(seat) or prio.opened(seat)


@implements("M-Q6")
def _pay(side: Side, seat: int, amount: int) -> rows.Rows:
    """M-Q6: tap ``amount`` untapped mana cards (generic mana: which ones does not matter)."""
    return rows.paid(seat, side.mana, amount)


def coin(s: State, e: ev.CoinTossed) -> State:
    return replace(s, first=e.first, active=e.first)


def master_placed(s: State, e: ev.MasterPlaced) -> State:
    return _side(s, e.seat, master=parse(e.square))


def shuffled(s: State, e: ev.DeckShuffled) -> State:
    return _side(s, e.seat, deck=renewed(s.sides[e.seat - 1].deck, e.order))


def drawn(s: State, e: ev.CardsDrawn) -> State:
    side = s.sides[e.seat - 1]
    n = len(e.cards)
    return _side(s, e.seat, hand=plus(side.hand, e.cards), deck=dropped(side.deck, n))


def mulligan(s: State, e: ev.MulliganTaken) -> State:
    return _side(s, e.seat, mulligans=s.sides[e.seat - 1].mulligans + 1)


def returned(s: State, e: ev.HandReturned) -> State:
    side = s.sides[e.seat - 1]
    return _side(s, e.seat, hand=emptied(side.hand), deck=at_bottom(side.deck, e.cards))


def kept(s: State, e: ev.HandKept) -> State:
    side = s.sides[e.seat - 1]
    return _side(s, e.seat, kept=True, bottom_due=min(side.mulligans, len(side.hand)))


def bottomed(s: State, e: ev.CardBottomed) -> State:
    side = s.sides[e.seat - 1]
    return _side(s, e.seat, hand=without_any(side.hand, (e.card,)), deck=at_bottom(side.deck, (e.card,)),
                 bottom_due=side.bottom_due - 1)


def turn_began(s: State, e: ev.TurnBegan) -> State:
    return replace(s, turn=e.turn, active=e.seat, phase="standby", pending="draw", priority=None, combat=None,
                   moved_in_action=False, sides=_sides(s, e.seat, master_moved=False, charged=False))


def untapped(s: State, e: ev.Untapped) -> State:
    seat = e.seat
    mana = s.sides[seat - 1].mana
    if rows.any_tapped(seat, mana):     # (nothing tapped: the side stays as it is)
        s = _side(s, seat, mana=rows.untapped(seat, mana))
    pieces = s.pieces
    out = None
    for i, p in enumerate(pieces):
        if (p.tapped or p.fresh) and p.seat == seat:
            if out is None:
                out = list(pieces)
            out[i] = replace(p, tapped=False, fresh=False)
    return s if out is None else replace(s, pieces=tuple(out))     # (no piece to untap: as it is)


def draw_chosen(s: State, e: ev.DrawChosen) -> State:
    return replace(s, pending="", priority=_opened(s.active))


charge_chosen = draw_chosen


def mana_charged(s: State, e: ev.ManaCharged) -> State:
    side = s.sides[e.seat - 1]
    if e.face_up:
        return replace(s, sides=_sides(s, e.seat, hand=without_any(side.hand, (e.card,)), charged=True,
                                       mana=rows.charged(e.seat, side.mana, Mana(card=e.card, face_up=True))),
                       priority=_after_act(s, e.seat))
    return _side(s, e.seat, deck=dropped(side.deck, 1), mana=rows.charged(e.seat, side.mana, Mana(card=e.card)))


def passed(s: State, e: ev.PriorityPassed) -> State:
    p = s.priority
    return replace(s, priority=_PASSED.get(p) or prio.passed(p)) if p is not None else s


def phase_began(s: State, e: ev.PhaseBegan) -> State:
    return replace(s, phase=e.phase, priority=_OPENED.get(e.seat) or prio.opened(e.seat),
                   moved_in_action=False)


def resolved(s: State, e: ev.Resolved) -> State:
    top = s.stack[-1]
    first = other(s.combat.seat) if s.combat is not None else s.active     # M-8.1 in a combat
    if top.kind == "spell":
        return replace(s, stack=s.stack[:-1], priority=_opened(first),
                       sides=_sides(s, top.seat, grave=plus(s.sides[top.seat - 1].grave, (top.card,))))
    return replace(s, stack=s.stack[:-1], priority=_opened(first))


def turn_ended(s: State, e: ev.TurnEnded) -> State:
    for p in s.pieces:      # (a loop: cheaper than ``any(map(attrgetter))``, see ``_found``)
        if p.atk_bonus or p.shield:
            break
    else:
        return replace(s, priority=None, pending="")            # nothing "until end of turn" to end
    return replace(s, pieces=tuple(replace(p, atk_bonus=0, shield=0) if p.atk_bonus or p.shield else p
                                   for p in s.pieces), priority=None, pending="")


def hand_limit(s: State, e: ev.HandLimitReached) -> State:
    return replace(s, pending="discard", priority=None)


def discarded(s: State, e: ev.HandDiscarded) -> State:
    side = s.sides[e.seat - 1]
    return _side(s, e.seat, hand=without_any(side.hand, (e.card,)), grave=plus(side.grave, (e.card,)))


def master_moved(s: State, e: ev.MasterMoved) -> State:
    return replace(s, sides=_sides(s, e.seat, master=parse(e.to), master_moved=True), priority=_after_act(s, e.seat))


def summoned(s: State, e: ev.PieceSummoned) -> State:
    side = s.sides[e.seat - 1]
    return replace(s, sides=_sides(s, e.seat, hand=without_any(side.hand, (e.card,)),
                                   mana=_pay(side, e.seat, e.paid)),
                   pieces=s.pieces + (Piece(card=e.card, seat=e.seat, square=parse(e.square), fresh=True),),
                   priority=_after_act(s, e.seat))


def cast(s: State, e: ev.SpellCast) -> State:
    side = s.sides[e.seat - 1]
    return replace(s, sides=_sides(s, e.seat, hand=without_any(side.hand, (e.card,)),
                                   mana=_pay(side, e.seat, e.paid)),
                   stack=s.stack + (StackItem(seat=e.seat, card=e.card, kind="spell", target=e.target),),
                   priority=_after_act(s, e.seat))


def activated(s: State, e: ev.SkillActivated) -> State:
    side = s.sides[e.seat - 1]
    mana = _pay(side, e.seat, e.paid)       # (a run's row is paid in place: paying nothing keeps the side)
    return replace(s, sides=_sides(s, e.seat, mana=mana) if e.paid and side.mana else s.sides,
                   pieces=_pieces(s, e.card, tapped=True) if e.tapped else s.pieces,
                   stack=s.stack + (StackItem(seat=e.seat, card=e.card, kind="skill", target=e.target),),
                   priority=_after_act(s, e.seat))


def moved(s: State, e: ev.PieceMoved) -> State:
    return replace(s, pieces=_pieces(s, e.card, square=parse(e.path[-1]), tapped=True), moved_in_action=True,
                   priority=_after_act(s, e.seat))


def attack_moved(s: State, e: ev.AttackMoved) -> State:
    p = s.piece(e.card)
    before = parse(e.path[-2]) if len(e.path) > 1 else (p.square if p is not None else 0)
    # not tapped yet: M-5.2 with M-8.3 (tapped once it has moved)
    return replace(s, pieces=_pieces(s, e.card, square=before), moved_in_action=True)


def combat_began(s: State, e: ev.CombatBegan) -> State:
    combat = Combat(seat=e.seat, attacker=e.attacker, defender=e.defender, origin=parse(e.origin),
                    before=parse(e.before), square=parse(e.square))
    return replace(s, combat=combat, priority=_opened(other(e.seat)))


def avoided(s: State, e: ev.CombatAvoided) -> State:
    return replace(s, pieces=_pieces(s, e.attacker, square=parse(e.square), tapped=True), combat=None,
                   priority=_opened(s.active))


def combat_damage(s: State, e: ev.CombatDamage) -> State:
    pieces = s.pieces
    d = _found(pieces, e.defender) if e.dealt else -1
    a = _found(pieces, e.attacker) if e.taken and not (e.dealt and e.attacker == e.defender) else -1
    if d < 0 and a < 0:
        return s
    out = list(pieces)
    if d >= 0:
        out[d] = replace(out[d], damage=out[d].damage + e.dealt)
    if a >= 0:
        out[a] = replace(out[a], damage=out[a].damage + e.taken)
    return replace(s, pieces=tuple(out))


def damaged(s: State, e: ev.PieceDamaged) -> State:
    i = _found(s.pieces, e.card)
    if i < 0:
        return s
    p = s.pieces[i]
    return replace(s, pieces=_put(s.pieces, i, replace(p, damage=p.damage + e.amount)))


def healed(s: State, e: ev.PieceHealed) -> State:
    i = _found(s.pieces, e.card)
    if i < 0:
        return s
    p = s.pieces[i]
    return replace(s, pieces=_put(s.pieces, i, replace(p, damage=max(0, p.damage - e.amount))))


def atk_raised(s: State, e: ev.AtkRaised) -> State:
    i = _found(s.pieces, e.card)
    if i < 0:
        return s
    p = s.pieces[i]
    return replace(s, pieces=_put(s.pieces, i, replace(p, atk_bonus=p.atk_bonus + e.amount)))


def shielded(s: State, e: ev.Shielded) -> State:
    i = _found(s.pieces, e.card)
    if i < 0:
        return s
    p = s.pieces[i]
    return replace(s, pieces=_put(s.pieces, i, replace(p, shield=p.shield + e.amount)))


def destroyed(s: State, e: ev.PieceDestroyed) -> State:
    return replace(s, pieces=tuple(p for p in s.pieces if p.card != e.card),
                   sides=_sides(s, e.seat, grave=plus(s.sides[e.seat - 1].grave, (e.card,))))


def completed(s: State, e: ev.MoveCompleted) -> State:
    """M-8.3: the move is complete, so the attacker has moved, and is tapped (M-5.2)."""
    return replace(s, pieces=_pieces(s, e.card, square=parse(e.square), tapped=True), combat=None,
                   priority=_opened(s.active))


def stopped(s: State, e: ev.AttackStopped) -> State:
    """M-8.4: the move is cancelled and counts as made: the attacker is tapped (M-5.2)."""
    return replace(s, pieces=_pieces(s, e.card, square=parse(e.square), tapped=True), combat=None,
                   priority=_opened(s.active))


def combat_ended(s: State, e: ev.CombatEnded) -> State:
    return replace(s, combat=None, priority=_opened(s.active))


def master_damaged(s: State, e: ev.MasterDamaged) -> State:
    return _side(s, e.seat, life=e.life)


def doom(s: State, e: ev.DoomAdded) -> State:
    return _side(s, e.seat, doom=e.count)


def lost(s: State, e: ev.PlayerLost) -> State:
    return _side(s, e.seat, lost=e.reason)


def ended(s: State, e: ev.MatchEnded) -> State:
    return replace(s, phase="over", pending="", priority=None,
                   outcome=Outcome(termination=e.reason, winner=e.winner, clause="M-1.2"))


# the fold table, one case per event type: public, so the core folds through it directly
# (``SpeedUps.evolve_cases``) and a test can name it
HANDLERS: dict[type, Callable[[State, Any], State]] = {
    ev.CoinTossed: coin, ev.MasterPlaced: master_placed, ev.DeckShuffled: shuffled, ev.CardsDrawn: drawn,
    ev.MulliganTaken: mulligan, ev.HandReturned: returned, ev.HandKept: kept, ev.CardBottomed: bottomed,
    ev.TurnBegan: turn_began, ev.Untapped: untapped, ev.DrawChosen: draw_chosen, ev.ChargeChosen: charge_chosen,
    ev.ManaCharged: mana_charged, ev.PriorityPassed: passed, ev.PhaseBegan: phase_began, ev.Resolved: resolved,
    ev.TurnEnded: turn_ended, ev.HandLimitReached: hand_limit, ev.HandDiscarded: discarded,
    ev.MasterMoved: master_moved,
    ev.PieceSummoned: summoned, ev.SpellCast: cast, ev.SkillActivated: activated, ev.PieceMoved: moved,
    ev.AttackMoved: attack_moved, ev.CombatBegan: combat_began, ev.CombatAvoided: avoided,
    ev.CombatDamage: combat_damage, ev.PieceDamaged: damaged, ev.PieceHealed: healed, ev.AtkRaised: atk_raised,
    ev.Shielded: shielded, ev.PieceDestroyed: destroyed, ev.MoveCompleted: completed, ev.AttackStopped: stopped,
    ev.CombatEnded: combat_ended, ev.MasterDamaged: master_damaged, ev.DoomAdded: doom, ev.PlayerLost: lost,
    ev.MatchEnded: ended,
}


def evolve(state: State, event: Any) -> State:
    handler = HANDLERS.get(type(event))
    return handler(state, event) if handler is not None else state




_PASS, _PHASE = ev.PriorityPassed, ev.PhaseBegan


def _loosened(state: State) -> State:
    """A copy of ``state`` whose sides hold their rows as new lists (``piles``, ``mana.LooseRow``)."""
    one, two = state.sides
    return replace(state, sides=(
        replace(one, deck=piles.loose_deck(one.deck), hand=piles.Loose(one.hand), grave=piles.Loose(one.grave),
                mana=rows.loose(1, one.mana)),
        replace(two, deck=piles.loose_deck(two.deck), hand=piles.Loose(two.hand), grave=piles.Loose(two.grave),
                mana=rows.loose(2, two.mana))))


def _frozen(state: State, loose: tuple[Side, ...], before: tuple[Side, ...]) -> State:
    """``state`` (a run's) with its rows made tuples again: the sides ``before`` themselves where
    the run made no new ones (``loose``, as ``_loosened`` made them), as the fold one by one keeps them."""
    sides = state.sides
    if sides is loose:
        return replace(state, sides=before)
    out = []
    for seat, side in enumerate(sides, 1):
        if side is loose[seat - 1]:
            out.append(before[seat - 1])
        else:
            out.append(replace(side, deck=piles.frozen_deck(side.deck), hand=tuple(side.hand),
                               grave=tuple(side.grave), mana=rows.frozen(seat, side.mana)))
    return replace(state, sides=tuple(out))


def evolve_run(state: State, events: Sequence[Any], fold: Callable[[State, Any], State]) -> State:
    """What ``fold`` makes of ``events`` one at a time (``SpeedUps.evolve_run``, ``Match.fold``).

    Nobody sees the states in between, so the run works on a State of its own: a copy of
    ``state`` whose sides hold their rows (deck, hand, grave, mana) as lists private to the run,
    which the cases change in place through ``piles`` and ``mana`` (a draw or a payment copies no
    row of 200 cards), made tuples once at the end. The commonest events (a record is half
    priority passes, and a pass or a new phase changes a field or three of a State that a new one
    would copy whole) change it in place too, written out here as ``passed`` and ``phase_began``
    do it. An event without a case (a core event's: a prepared position is the event's own State)
    is folded by ``fold`` on the state made tuples again, and the run goes on from a loosened copy.
    The State returned is the run's, and nothing changes it after (tests/masters/test_fold_run.py)."""
    before = state.sides
    own = _loosened(state)
    loose = own.sides
    case_of, after_pass, opened = HANDLERS.get, _PASSED.get, _OPENED.get
    for event in events:
        cls = type(event)
        if cls is _PASS:                    # passed
            p = own.priority
            if p is not None:
                force_setattr(own, "priority", after_pass(p) or prio.passed(p))
        elif cls is _PHASE:                 # phase_began
            force_setattr(own, "phase", event.phase)
            force_setattr(own, "priority", opened(event.seat) or prio.opened(event.seat))
            force_setattr(own, "moved_in_action", False)
        else:
            case = case_of(cls)
            if case is not None:
                own = case(own, event)
            else:                           # the core's own events
                after = fold(_frozen(own, loose, before), event)
                before = after.sides
                own = _loosened(after)
                loose = own.sides
    return _frozen(own, loose, before)
