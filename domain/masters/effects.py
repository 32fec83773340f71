"""What resolving things does: draws, damage and destruction, the skill interpreter, losses.

Every consequence is one rule event naming its clause and cause. ``settle`` is the state-based
check run after each decision (M-1.2: life at 0 or less loses).
"""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.draft import Draft

from . import events as ev
from .board import distance, name
from .cards import Skill
from .state import Combat, Piece, StackItem, State
from .vocabulary import DOOM_TO_WIN, other

MDraft = Draft[State, ev.Event]


# -- numbers (M-8.2): each rule of the damage calculation in one function ----------------------
@implements("M-8.3", "M-C6")
def attack_value(state: State, piece: Piece, combat: Combat | None = None) -> int:
    """Base damage = ATK, plus increases: ATK raised until end of turn; when attacking,
    【猛攻N】 (fury) and 【突撃】 (charge: +1 per square from the original square to the square
    before the combat, M-8.3 — the effect that reads the attacker's original square, M-C6)."""
    d = state.card(piece.card)
    value = d.atk + piece.atk_bonus
    if combat is not None and combat.attacker == piece.card:
        value += d.keyword("fury") or 0
        if d.keyword("charge") is not None:
            value += distance(combat.origin, combat.before)
    return value


@implements("M-C2")
def reduction(state: State, piece: Piece) -> int:
    """Reductions on the damage a piece takes: 【装甲N】 (armor) and shields until end of turn
    (with attack_value's increases, the sample set's M-C2)."""
    return (state.card(piece.card).keyword("armor") or 0) + piece.shield


def final_damage(base: int, reduced: int) -> int:
    """M-8.2: the final damage after reductions and increases, never below 0."""
    return max(0, base - reduced)


def hp_left(state: State, piece: Piece) -> int:
    return state.card(piece.card).hp - piece.damage


# -- drawing (M-1.2, M-3.2) ---------------------------------------------------------------------
@implements("M-1.2")
def draw(draft: MDraft, seat: int, n: int, clause: str, cause: int) -> None:
    """Draw ``n`` cards; trying to draw from an empty deck loses (M-1.2, M-Q11)."""
    deck = draft.state.side(seat).deck
    got = deck[:n]
    if got:
        draft.rule(clause, cause, ev.CardsDrawn(seat=seat, cards=got), seat=seat)
    if len(got) < n:
        draft.rule("M-1.2", cause, ev.PlayerLost(seat=seat, reason="drew from an empty deck"), seat=seat)


# -- destruction (M-8.2) and "when destroyed" (M-C10) -------------------------------------------
@implements("M-8.2", "M-C10")
def destroy_if_dead(draft: MDraft, cids: tuple[int, ...], clauses: tuple[str, ...], cause: int) -> list[int]:
    """Destroy every listed piece whose HP is 0 or less, all at once (M-8.5), then run their
    "when destroyed" skills. Returns the destroyed cards."""
    gone = []
    for cid, clause in zip(cids, clauses, strict=True):
        p = draft.state.piece(cid)
        if p is not None and hp_left(draft.state, p) <= 0:
            gone.append((p, draft.rule(clause, cause, ev.PieceDestroyed(seat=p.seat, card=cid, square=name(p.square)),
                                       seat=p.seat)))
    for p, seq in gone:
        skill = draft.state.card(p.card).skill
        if skill is not None and skill.when == "destroyed":
            run_ops(draft, p.seat, p.card, skill, 0, "M-C10", seq)
    return [p.card for p, _ in gone]


@implements("M-8.2")
def damage_piece(draft: MDraft, cid: int, amount: int, clause: str, cause: int) -> None:
    p = draft.state.piece(cid)
    if p is None:
        return
    dealt = final_damage(amount, reduction(draft.state, p))
    seq = draft.rule(clause, cause, ev.PieceDamaged(card=cid, amount=dealt), seat=p.seat)
    destroy_if_dead(draft, (cid,), ("M-8.2",), seq)


def damage_master(draft: MDraft, seat: int, amount: int, clause: str, cause: int) -> int:
    life = draft.state.side(seat).life - amount
    return draft.rule(clause, cause, ev.MasterDamaged(seat=seat, amount=amount, life=life), seat=seat)


# -- the skill interpreter (cards.py's vocabulary) ------------------------------------------------
def target_ok(state: State, seat: int, source: int, skill: Skill, target: int) -> str:
    """Why ``target`` (a piece's card id, or 0) is not a legal target of ``skill`` now, or ""."""
    kind = skill.target
    if kind in ("none", "self"):
        return "" if target == 0 else "this skill takes no target"
    p = state.piece(target)
    if p is None:
        return "the target must be a piece on the board"
    if kind == "own_piece" and p.seat != seat:
        return "the target must be one of your pieces"
    if kind == "enemy_piece" and p.seat == seat:
        return "the target must be an enemy piece"
    return ""


@implements("M-2.2", "M-C4")
def resolve_top(draft: MDraft, cause: int) -> None:
    """M-2.2: the top of the stack resolves; a target gone since it was chosen makes it fizzle.
    Items resolve last-in first-out however deep the stack is (M-C4: spell, response, response)."""
    state = draft.state
    item: StackItem = state.stack[-1]
    skill = state.card(item.card).skill
    assert skill is not None
    fizzled = bool(target_ok(state, item.seat, item.card, skill, item.target)) or \
        (item.kind == "skill" and state.piece(item.card) is None and skill.target == "self")
    seq = draft.rule("M-2.2", cause, ev.Resolved(seat=item.seat, card=item.card, fizzled=fizzled), seat=item.seat)
    if not fizzled:
        run_ops(draft, item.seat, item.card, skill, item.target, "M-2.2", seq)


@implements("M-8.1", "M-C5", "M-C9")
def run_ops(draft: MDraft, seat: int, source: int, skill: Skill, target: int, clause: str, cause: int) -> None:
    for op in skill.ops:
        state = draft.state
        if state.outcome is not None or state.sides[0].lost or state.sides[1].lost:
            return
        match op.op:
            case "damage":
                damage_piece(draft, target, op.value, clause, cause)
            case "heal":
                p = draft.state.piece(target)
                if p is not None:
                    draft.rule(clause, cause, ev.PieceHealed(card=target, amount=min(op.value, p.damage)), seat=p.seat)
            case "atk":
                if draft.state.piece(target) is not None:
                    draft.rule(clause, cause, ev.AtkRaised(card=target, amount=op.value), seat=seat)
            case "shield":
                if draft.state.piece(target) is not None:
                    draft.rule(clause, cause, ev.Shielded(card=target, amount=op.value), seat=seat)
            case "draw":
                draw(draft, seat, op.value, clause, cause)
            case "master_damage":
                damage_master(draft, other(seat), op.value, clause, cause)
            case "avoid":                   # M-C5: combat avoidance by the attacked piece
                combat = draft.state.combat
                if combat is not None and combat.defender == source:
                    draft.rule("M-8.1", cause, ev.CombatAvoided(attacker=combat.attacker, square=name(combat.before)),
                               seat=combat.seat)
            case "doom":
                count = draft.state.side(seat).doom + op.value
                seq = draft.rule("M-C9", cause, ev.DoomAdded(seat=seat, count=count), seat=seat)
                if count >= DOOM_TO_WIN:
                    draft.rule("M-1.2", seq, ev.PlayerLost(seat=other(seat), reason="special victory (終焉の刻)"),
                               seat=other(seat))


# -- the end (M-1.2) --------------------------------------------------------------------------------
@implements("M-1.2")
def settle(draft: MDraft, cause: int) -> bool:
    """State-based check: a master at 0 life or less loses; once a seat has lost the match ends
    (both at once: a draw). Returns True when the match is over."""
    state = draft.state
    if state.outcome is not None:
        return True
    one, two = state.sides
    if one.life > 0 and two.life > 0 and not one.lost and not two.lost:
        return False              # the usual case, without the work below
    for seat in (1, 2):
        side = state.side(seat)
        if side.life <= 0 and not side.lost:
            draft.rule("M-1.2", cause, ev.PlayerLost(seat=seat, reason="life 0 or less"), seat=seat)
    losers = [s for s in (1, 2) if draft.state.side(s).lost]
    if not losers:
        return False
    winner = None if len(losers) == 2 else other(losers[0])
    reasons = "; ".join(f"seat {s}: {draft.state.side(s).lost}" for s in losers)
    draft.rule("M-1.2", cause, ev.MatchEnded(winner=winner, reason=reasons))
    return True
