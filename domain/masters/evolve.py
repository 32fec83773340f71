"""``evolve``: the dumb fold of one event into the state (dict dispatch; never validates)."""
from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from msgspec.structs import replace

from kifu.domain.core import priority as prio
from kifu.domain.core.clauses import implements
from kifu.domain.core.ruleset import Outcome

from . import events as ev
from .board import parse
from .state import Combat, Mana, Piece, Side, StackItem, State
from .vocabulary import other

_TAPPED = attrgetter("tapped")
_FRESH = attrgetter("fresh")
_ATK_BONUS = attrgetter("atk_bonus")
_SHIELD = attrgetter("shield")


def _side(state: State, seat: int, **fields: Any) -> State:
    one, two = sides = state.sides
    if seat == 1:
        return replace(state, sides=(replace(one, **fields), two))
    if seat == 2:
        return replace(state, sides=(one, replace(two, **fields)))
    changed = list(sides)
    changed[seat - 1] = replace(changed[seat - 1], **fields)
    return replace(state, sides=tuple(changed))


def _piece(state: State, cid: int, **fields: Any) -> State:
    """Card ``cid``'s piece with ``fields`` changed (a card is in one place: one piece at most)."""
    pieces = state.pieces
    for i, p in enumerate(pieces):
        if p.card == cid:
            return replace(state, pieces=pieces[:i] + (replace(p, **fields),) + pieces[i + 1:])
    return state


def _acted(state: State, seat: int) -> State:
    p = state.priority
    if p is None:
        return state
    return replace(state, priority=_ACTED.get((p, seat)) or prio.acted(p, seat))


_OPENED = {seat: prio.opened(seat) for seat in (1, 2)}     # priorities are frozen values: shared
_PASSED = {p: prio.passed(p) for p in (prio.Priority(holder=h, passes=n) for h in (1, 2) for n in range(3))}


_ACTED = {(p, seat): prio.acted(p, seat) for p in {*_PASSED, *_PASSED.values(), *_OPENED.values()}
          for seat in (1, 2)}


def _opened(seat: int) -> prio.Priority:
    return _OPENED.get(seat) or prio.opened(seat)


@implements("M-Q6")
def _pay(side: Side, amount: int) -> tuple[Mana, ...]:
    """M-Q6: tap ``amount`` untapped mana cards (generic mana: which ones does not matter)."""
    if not amount:
        return side.mana
    out = []
    for m in side.mana:
        if amount and not m.tapped:
            m = replace(m, tapped=True)
            amount -= 1
        out.append(m)
    return tuple(out)


def coin(s: State, e: ev.CoinTossed) -> State:
    return replace(s, first=e.first, active=e.first)


def master_placed(s: State, e: ev.MasterPlaced) -> State:
    return _side(s, e.seat, master=parse(e.square))


def shuffled(s: State, e: ev.DeckShuffled) -> State:
    return _side(s, e.seat, deck=e.order)


def drawn(s: State, e: ev.CardsDrawn) -> State:
    side = s.side(e.seat)
    n = len(e.cards)
    return _side(s, e.seat, hand=side.hand + e.cards, deck=side.deck[n:])


def mulligan(s: State, e: ev.MulliganTaken) -> State:
    return _side(s, e.seat, mulligans=s.side(e.seat).mulligans + 1)


def returned(s: State, e: ev.HandReturned) -> State:
    side = s.side(e.seat)
    return _side(s, e.seat, hand=(), deck=side.deck + e.cards)


def kept(s: State, e: ev.HandKept) -> State:
    side = s.side(e.seat)
    return _side(s, e.seat, kept=True, bottom_due=min(side.mulligans, len(side.hand)))


def bottomed(s: State, e: ev.CardBottomed) -> State:
    side = s.side(e.seat)
    return _side(s, e.seat, hand=tuple(c for c in side.hand if c != e.card), deck=side.deck + (e.card,),
                 bottom_due=side.bottom_due - 1)


def turn_began(s: State, e: ev.TurnBegan) -> State:
    s = replace(s, turn=e.turn, active=e.seat, phase="standby", pending="draw", priority=None, combat=None,
                moved_in_action=False)
    return _side(s, e.seat, master_moved=False, charged=False)


def untapped(s: State, e: ev.Untapped) -> State:
    seat = e.seat
    mana = s.side(seat).mana
    if any(map(_TAPPED, mana)):     # (nothing tapped: the side stays as it is)
        s = _side(s, seat, mana=tuple(replace(m, tapped=False) if m.tapped else m for m in mana))
    pieces = s.pieces
    if not any(map(_TAPPED, pieces)) and not any(map(_FRESH, pieces)):
        return s                    # no piece to untap
    return replace(s, pieces=tuple(replace(p, tapped=False, fresh=False) if p.seat == seat and (p.tapped or p.fresh)
                                   else p for p in pieces))


def draw_chosen(s: State, e: ev.DrawChosen) -> State:
    return replace(s, pending="", priority=_opened(s.active))


charge_chosen = draw_chosen


def mana_charged(s: State, e: ev.ManaCharged) -> State:
    side = s.side(e.seat)
    if e.face_up:
        s = _side(s, e.seat, hand=tuple(c for c in side.hand if c != e.card), charged=True,
                  mana=side.mana + (Mana(card=e.card, face_up=True),))
        return _acted(s, e.seat)
    return _side(s, e.seat, deck=side.deck[1:], mana=side.mana + (Mana(card=e.card),))


def passed(s: State, e: ev.PriorityPassed) -> State:
    p = s.priority
    return replace(s, priority=_PASSED.get(p) or prio.passed(p)) if p is not None else s


def phase_began(s: State, e: ev.PhaseBegan) -> State:
    return replace(s, phase=e.phase, priority=_OPENED.get(e.seat) or prio.opened(e.seat),
                   moved_in_action=False)


def resolved(s: State, e: ev.Resolved) -> State:
    top = s.stack[-1]
    first = other(s.combat.seat) if s.combat is not None else s.active     # M-8.1 in a combat
    s = replace(s, stack=s.stack[:-1], priority=_opened(first))
    if top.kind == "spell":
        s = _side(s, top.seat, grave=s.side(top.seat).grave + (top.card,))
    return s


def turn_ended(s: State, e: ev.TurnEnded) -> State:
    if not any(map(_ATK_BONUS, s.pieces)) and not any(map(_SHIELD, s.pieces)):
        return replace(s, priority=None, pending="")            # nothing "until end of turn" to end
    return replace(s, pieces=tuple(replace(p, atk_bonus=0, shield=0) if p.atk_bonus or p.shield else p
                                   for p in s.pieces), priority=None, pending="")


def hand_limit(s: State, e: ev.HandLimitReached) -> State:
    return replace(s, pending="discard", priority=None)


def discarded(s: State, e: ev.HandDiscarded) -> State:
    side = s.side(e.seat)
    return _side(s, e.seat, hand=tuple(c for c in side.hand if c != e.card), grave=side.grave + (e.card,))


def master_moved(s: State, e: ev.MasterMoved) -> State:
    return _acted(_side(s, e.seat, master=parse(e.to), master_moved=True), e.seat)


def summoned(s: State, e: ev.PieceSummoned) -> State:
    side = s.side(e.seat)
    s = _side(s, e.seat, hand=tuple(c for c in side.hand if c != e.card), mana=_pay(side, e.paid))
    s = replace(s, pieces=s.pieces + (Piece(card=e.card, seat=e.seat, square=parse(e.square), fresh=True),))
    return _acted(s, e.seat)


def cast(s: State, e: ev.SpellCast) -> State:
    side = s.side(e.seat)
    s = _side(s, e.seat, hand=tuple(c for c in side.hand if c != e.card), mana=_pay(side, e.paid))
    s = replace(s, stack=s.stack + (StackItem(seat=e.seat, card=e.card, kind="spell", target=e.target),))
    return _acted(s, e.seat)


def activated(s: State, e: ev.SkillActivated) -> State:
    side = s.side(e.seat)
    s = _side(s, e.seat, mana=_pay(side, e.paid))
    if e.tapped:
        s = _piece(s, e.card, tapped=True)
    s = replace(s, stack=s.stack + (StackItem(seat=e.seat, card=e.card, kind="skill", target=e.target),))
    return _acted(s, e.seat)


def moved(s: State, e: ev.PieceMoved) -> State:
    s = _piece(s, e.card, square=parse(e.path[-1]), tapped=True)
    return _acted(replace(s, moved_in_action=True), e.seat)


def attack_moved(s: State, e: ev.AttackMoved) -> State:
    p = s.piece(e.card)
    before = parse(e.path[-2]) if len(e.path) > 1 else (p.square if p is not None else 0)
    s = _piece(s, e.card, square=before)       # not tapped yet: M-5.2 with M-8.3 (tapped once it has moved)
    return replace(s, moved_in_action=True)


def combat_began(s: State, e: ev.CombatBegan) -> State:
    combat = Combat(seat=e.seat, attacker=e.attacker, defender=e.defender, origin=parse(e.origin),
                    before=parse(e.before), square=parse(e.square))
    return replace(s, combat=combat, priority=_opened(other(e.seat)))


def avoided(s: State, e: ev.CombatAvoided) -> State:
    return replace(_piece(s, e.attacker, square=parse(e.square), tapped=True), combat=None,
                   priority=_opened(s.active))


def combat_damage(s: State, e: ev.CombatDamage) -> State:
    pieces = []
    for p in s.pieces:
        if p.card == e.defender and e.dealt:
            p = replace(p, damage=p.damage + e.dealt)
        elif p.card == e.attacker and e.taken:
            p = replace(p, damage=p.damage + e.taken)
        pieces.append(p)
    return replace(s, pieces=tuple(pieces))


def damaged(s: State, e: ev.PieceDamaged) -> State:
    p = s.piece(e.card)
    return _piece(s, e.card, damage=p.damage + e.amount) if p is not None else s


def healed(s: State, e: ev.PieceHealed) -> State:
    p = s.piece(e.card)
    return _piece(s, e.card, damage=max(0, p.damage - e.amount)) if p is not None else s


def atk_raised(s: State, e: ev.AtkRaised) -> State:
    p = s.piece(e.card)
    return _piece(s, e.card, atk_bonus=p.atk_bonus + e.amount) if p is not None else s


def shielded(s: State, e: ev.Shielded) -> State:
    p = s.piece(e.card)
    return _piece(s, e.card, shield=p.shield + e.amount) if p is not None else s


def destroyed(s: State, e: ev.PieceDestroyed) -> State:
    s = replace(s, pieces=tuple(p for p in s.pieces if p.card != e.card))
    return _side(s, e.seat, grave=s.side(e.seat).grave + (e.card,))


def completed(s: State, e: ev.MoveCompleted) -> State:
    """M-8.3: the move is complete, so the attacker has moved, and is tapped (M-5.2)."""
    return replace(_piece(s, e.card, square=parse(e.square), tapped=True), combat=None, priority=_opened(s.active))


def stopped(s: State, e: ev.AttackStopped) -> State:
    """M-8.4: the move is cancelled and counts as made: the attacker is tapped (M-5.2)."""
    return replace(_piece(s, e.card, square=parse(e.square), tapped=True), combat=None, priority=_opened(s.active))


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
