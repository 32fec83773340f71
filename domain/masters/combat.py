"""Movement and combat (M-5.2, M-5.3, M-8, M-Q2, M-Q3, M-Q4, M-Q10)."""
from __future__ import annotations

from typing import cast

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import events as ev
from .board import distance, name, parse, path_ok
from .cards import CardDef
from .effects import MDraft, attack_value, damage_master, destroy_if_dead, final_damage, reduction
from .permissions import Reason, may_move_piece, sorcery_time
from .state import Piece, State
from .vocabulary import other

_ACTION = ("action",)


@implements("M-4.2", "M-C3")
def can_move(state: State, piece: Piece) -> str:
    """Why ``piece`` cannot move now (M-4.2: not the turn it was summoned unless 【速攻】, M-C3;
    M-5.2: a tapped piece has moved; MOV 0 never moves), or ""."""
    return why_still(state.card(piece.card), piece)


def why_still(d: CardDef, piece: Piece) -> str:
    """``can_move`` given the piece's definition (``legal`` has it at hand)."""
    if d.mov <= 0:
        return "a piece with MOV 0 cannot move"
    if piece.tapped:
        return "the piece is tapped (it has moved or acted)"
    if piece.fresh and d.keyword("quick") is None:
        return "a piece cannot move the turn it is summoned (M-4.2)"
    return ""


@implements("M-8.5", "M-Q3", "M-C1")
def can_counter(state: State, defender: Piece, attacker_square: int) -> bool:
    """M-8.5 with M-Q3: the attacked piece counters when the attacker's square is within its
    movement (path length ≤ MOV, occupancy ignored). MOV 0 never counters (M-C1: 石壁の番人);
    a tapped piece still counters."""
    mov = state.card(defender.card).mov
    return mov >= 1 and distance(defender.square, attacker_square) <= mov


@implements("M-5.2", "M-5.3", "M-8.1", "M-Q1", "M-Q2")
def move(draft: MDraft, seat: int, cid: int, names: tuple[str, ...]) -> None:
    state = draft.state
    path = tuple(map(parse, names))
    if not all(path):
        raise Illegal("M-Q1", f"{list(names)} names a square that is not on the board")
    if not sorcery_time(state, seat, _ACTION):          # may_move_piece's test
        raise Illegal(*cast(Reason, may_move_piece(state, seat)))
    piece = state.piece(cid)
    if piece is None or piece.seat != seat:
        raise Illegal("M-5.2", f"card {cid} is not one of your pieces on the board")
    reason = can_move(state, piece)
    if reason:
        raise Illegal("M-5.2", reason)
    occupied = state.occupied()
    reason = path_ok(piece.square, path, state.card(cid).mov, occupied, seat)
    if reason:
        raise Illegal("M-Q2", reason)
    last = path[-1]
    occupant = occupied.get(last)
    if occupant is None:
        draft.decision(seat, ev.PieceMoved(seat=seat, card=cid, path=tuple(names)), clause="M-5.2")
        return
    seq = draft.decision(seat, ev.AttackMoved(seat=seat, card=cid, path=tuple(names)), clause="M-5.3")
    target = state.at(last)
    before = path[-2] if len(path) > 1 else piece.square
    draft.rule("M-8.1", seq, ev.CombatBegan(seat=seat, attacker=cid, defender=target.card if target else 0,
                                            origin=name(piece.square), before=name(before),
                                            square=name(last)), seat=seat)


@implements("M-8.2", "M-8.3", "M-8.4", "M-8.5", "M-8.6", "M-Q4", "M-Q10")
def resolve(draft: MDraft, cause: int) -> None:
    """Both masters passed with an empty stack during a combat: damage is calculated."""
    state = draft.state
    combat = state.combat
    assert combat is not None
    attacker = state.piece(combat.attacker)
    if attacker is None:      # M-8.6: the attacker can no longer fight
        draft.rule("M-8.6", cause, ev.CombatEnded(attacker=combat.attacker), seat=combat.seat)
        return
    if combat.defender == 0 and state.side(other(combat.seat)).master == combat.square:
        # M-Q4: the master takes the final ATK to its life; no counter; the attacker stops before it
        dealt = attack_value(state, attacker, combat)
        seq = draft.rule("M-Q4", cause, ev.CombatDamage(attacker=attacker.card, defender=0, dealt=dealt),
                         seat=combat.seat)
        damage_master(draft, other(combat.seat), dealt, "M-Q4", seq)
        draft.rule("M-Q4", seq, ev.AttackStopped(card=attacker.card, square=name(combat.before)), seat=combat.seat)
        return
    defender = state.piece(combat.defender) if combat.defender else None
    if defender is None or defender.square != combat.square:
        # M-8.6: the defender was destroyed (or moved) before the damage: the move completes
        if combat.square in state.occupied():
            draft.rule("M-8.6", cause, ev.AttackStopped(card=attacker.card, square=name(combat.before)),
                       seat=combat.seat)
        else:
            draft.rule("M-8.6", cause, ev.MoveCompleted(card=attacker.card, square=name(combat.square)),
                       seat=combat.seat)
        return
    dealt = final_damage(attack_value(state, attacker, combat), reduction(state, defender))
    countered = can_counter(state, defender, combat.before)
    taken = final_damage(attack_value(state, defender), reduction(state, attacker)) if countered else 0
    seq = draft.rule("M-8.5" if countered else "M-8.2", cause,
                     ev.CombatDamage(attacker=attacker.card, defender=defender.card, dealt=dealt,
                                     countered=countered, taken=taken), seat=combat.seat)
    gone = destroy_if_dead(draft, (defender.card, attacker.card), ("M-8.2", "M-8.5"), seq)
    if attacker.card in gone:
        # M-8.5: a defender that destroys the attacker does not move
        draft.rule("M-8.5", seq, ev.CombatEnded(attacker=attacker.card), seat=combat.seat)
    elif defender.card in gone:
        # M-8.3 with M-Q10: the attacker completes its move into the vacated square and stops there
        draft.rule("M-8.3", seq, ev.MoveCompleted(card=attacker.card, square=name(combat.square)), seat=combat.seat)
    else:
        # M-8.4: the move is cancelled; the attacker stops on the last square before the combat
        draft.rule("M-8.4", seq, ev.AttackStopped(card=attacker.card, square=name(combat.before)), seat=combat.seat)
