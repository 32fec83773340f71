"""The decider: validate a (revealed) choice, record it, and run the turn to rest.

Turn order (N-5.2): select (sealed rounds, until both seats are done) → summon (N-5.2.2, all at
once) → magic by category (N-5.2.3) → skill in AGI order (N-5.2.4, equal AGI together, N-6.5)
→ end (N-5.2.5) → win/loss/draw (N-4.1) and the turn limit (N-4.3) → the next select, where a
seat with nothing it can play loses (N-4.2); N-5 / N-5.3: the turn repeats until one of N-4 ends
the match. N-6 (combat) is ``_resolve_group``/``_settle``/``_apply_hp`` below.
"""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import Illegal
from kifu.domain.core.ruleset import Outcome

from . import events as ev
from .cards import CardDef, card
from .combat import _add_stat, _apply_hp, _front, _hit, _settle, attack_damage
from .commands import Act, Command, Done, Pick, Reveal
from .legal import allows, can_pick, magic_targets, skill_targets
from .magic import _magic_phase
from .state import ROW_SLOTS, TURN_LIMIT, State

D = Draft[State, Any]


# -- whose decision -----------------------------------------------------------------------------
_SEATS: dict[tuple[bool, bool], frozenset[int]] = {
    (False, False): frozenset(), (True, False): frozenset((1,)), (False, True): frozenset((2,)),
    (True, True): frozenset((1, 2))}   # (is seat 1 awaited, is seat 2) -> the seats


def awaiting(state: State) -> frozenset[int]:
    if state.ended is not None:
        return _SEATS[False, False]
    a, b = state.sides
    phase = state.phase
    if phase in ("first", "select"):
        return _SEATS[not a.done and not a.sealed, not b.done and not b.sealed]
    if phase == "skill":
        cards = state.cards
        owners = {cards[c - 1].owner for c in state.group}
        return _SEATS[1 in owners and not a.sealed and a.act is None,
                      2 in owners and not b.sealed and b.act is None]
    return _SEATS[False, False]


def sealed(state: State) -> bool:
    """Every decision of this game is a secret simultaneous one (N-5.2.1, N-6.5)."""
    return state.ended is None and state.phase in ("first", "select", "skill")


def waiting_clause(state: State) -> str:
    return {"first": "N-5.1", "select": "N-5.2.1", "skill": "N-6.5"}.get(state.phase, "N-5.2")


def outcome(state: State) -> Outcome | None:
    e = state.ended
    if e is None:
        return None
    clause = {"no characters": "N-4.1", "nothing to play": "N-4.2", "turn limit": "N-4.3"}.get(e.termination, "")
    return Outcome(termination=e.termination, winner=e.winner or None, clause=clause)


def judged_result(state: State, outcome: Outcome) -> State:
    """A judge's result (game loss, draw) written as the match's end."""
    return msgspec.structs.replace(state, ended=ev.MatchEnded(termination=outcome.termination,
                                                              winner=outcome.winner or 0))


# -- setup --------------------------------------------------------------------------------------
@implements("N-5.1")
def begin(header: Any, state: State, draft: D) -> None:
    """N-5.1: the first phase: both seats choose up to 6 cost, a character among them."""
    cause = draft.setup("N-5.1", ev.PhaseBegun(phase="first", turn=0))
    _check_can_play(draft, cause, "N-5.1")


# -- deciding -----------------------------------------------------------------------------------
@implements("N-4", "N-5.1", "N-5.2.1", "N-6.5", "N-Q6")
def decide(state: State, seat: int, command: Command, draft: D) -> None:
    if state.ended is not None:
        raise Illegal("N-4", "the match is over")
    if seat not in awaiting(state) and not (state.side(seat).sealed and draft.revealing is not None):
        raise Illegal(waiting_clause(state), f"seat {seat} has nothing to choose now")
    if not allows(_unsealed(state, seat), seat, command):
        raise Illegal(_clause_for(state, seat, command), f"{command!r} is not a choice seat {seat} may make now")
    match command:
        case Pick():
            clause = "N-5.1" if state.phase == "first" else "N-5.2.1"
            cause = draft.decision(seat, ev.Picked(seat=seat, card=command.card, target=command.target,
                                                   face_down=command.face_down), clause=clause)
        case Reveal():
            cause = draft.decision(seat, ev.RevealChosen(seat=seat, card=command.card, target=command.target),
                                   clause="N-Q6")
        case Done():
            clause = "N-5.1" if state.phase == "first" else "N-5.2.1"
            cause = draft.decision(seat, ev.SelectDone(seat=seat), clause=clause)
        case Act():
            cause = draft.decision(seat, ev.Acted(seat=seat, card=command.card, target=command.target),
                                   clause="N-6.5")
    _run(draft, cause)


def _unsealed(state: State, seat: int) -> State:
    """Under a reveal the seat is marked as sealed; its choice is checked as it stood before."""
    side = state.side(seat)
    if not side.sealed:
        return state
    sides = list(state.sides)
    sides[seat - 1] = msgspec.structs.replace(side, sealed=False)
    return msgspec.structs.replace(state, sides=tuple(sides))


def _clause_for(state: State, seat: int, command: Command) -> str:
    """The clause an illegal choice breaks, as precisely as it can be said."""
    if state.phase == "skill" or isinstance(command, Act):
        if not isinstance(command, Act):
            return "N-6.5"
        if command.card in state.group and state.card(command.card).owner == seat:
            return "N-7.2"
        return "N-6.5"
    if isinstance(command, Act):
        return "N-5.2"
    if isinstance(command, Done):
        return "N-5.1" if state.phase == "first" else "N-5.2.1"
    if isinstance(command, Reveal):
        return "N-Q6"
    if 1 <= command.card <= len(state.cards):
        c = state.card(command.card)
        if c.owner != seat or c.zone != "deck":
            return "N-3.2"
        if card(c.name).cost + state.side(seat).spent > 6:
            return "N-5.2.1"
        return _pick_clause(state, seat, command)
    return "N-3.2"


def _pick_clause(state: State, seat: int, pick: Pick) -> str:
    """A refused pick of a card in the seat's deck, within the cost: the first phase's own limits
    (N-5.1), a target missing or wrong (the select phase's 「装備カードの装備対象、魔法カードの効果
    対象はこの時点で選択する。」, N-5.2.1), or a full row or magic zone (N-Q2)."""
    name = state.card(pick.card).name
    picked = {p.card for p in state.side(seat).picks}
    if pick.card in picked:
        return "N-5.2.1"                                # chosen already this phase
    if any(c.owner == seat and c.zone == "deck" and c.name == name and c.id < pick.card and c.id not in picked
           for c in state.cards):
        return "N-Q12"                                  # copies are alike: the lowest one left stands for them
    d = card(name)
    first = state.phase == "first"
    if d.kind == "character":
        if pick.target or pick.face_down:
            return "N-5.1" if first else "N-5.2.1"      # a character goes to its 配置: no target, never face down
        return "N-Q2"
    if first:
        return "N-5.1"        # equipment or face-up magic, or no room left for the character
    if d.kind == "equipment":
        if pick.face_down or pick.target not in state.field(seat):
            return "N-5.2.1"
        return "N-Q2"
    if pick.face_down:
        return "N-5.2.1" if pick.target else "N-Q2"     # a face-down magic names no target yet
    if pick.target not in magic_targets(state, seat, d):
        return "N-5.2.1"
    return "N-Q2"


def _run(draft: D, cause: int) -> None:
    """Carry the rules on until someone must choose again (or the match is over)."""
    state = draft.state
    if state.phase in ("first", "select"):
        if all(s.done for s in state.sides):
            _summon(draft, cause)
            if draft.state.phase == "first":
                _begin_turn(draft, cause, 1)
            else:
                _magic_phase(draft, cause)
                _skill_phase(draft, cause)
    elif state.phase == "skill":
        owners = {draft.state.card(c).owner for c in _lit_and_acting(draft.state)}
        if all(draft.state.side(s).act is not None for s in owners):
            _resolve_group(draft, cause)
            _next_group(draft, cause)


def _lit_and_acting(state: State) -> list[int]:
    acts = [s.act.card for s in state.sides if s.act is not None]
    return list(state.group) + acts


# -- turn start and end ---------------------------------------------------------------------------
@implements("N-4.2", "N-Q7", "N-C10")
def _check_can_play(draft: D, cause: int, clause: str) -> None:
    """N-4.2 / N-Q7: a seat with no card it can play at the start of a turn loses (both: a draw)."""
    state = draft.state
    losers = [seat for seat in (1, 2) if not can_pick(state, seat)]
    for seat in losers:
        draft.rule("N-4.2", cause, ev.Lost(seat=seat, reason="no card can be played"), seat=seat)
    if losers:
        winner = 0 if len(losers) == 2 else 3 - losers[0]
        draft.rule("N-4.2", cause, ev.MatchEnded(termination="nothing to play", winner=winner))


@implements("N-5.2", "N-Q7")
def _begin_turn(draft: D, cause: int, turn: int) -> None:
    c = draft.rule("N-5.2", cause, ev.PhaseBegun(phase="select", turn=turn))
    _check_can_play(draft, c, "N-Q7")


@implements("N-5.2.5", "N-6.1")
def _end_phase(draft: D, cause: int) -> None:
    state = draft.state
    c = draft.rule("N-5.2.5", cause, ev.PhaseBegun(phase="end", turn=state.turn))
    hits: dict[int, list[int]] = {}
    for seat in (1, 2):
        for cid in state.field(seat):
            ch = state.card(cid)
            d = card(ch.name)
            if not d.end or ch.summoned >= state.turn or ch.stunned:
                continue   # N-6.1: not on the turn it was summoned
            if d.end == "end_damage_front":
                for t in _front(state, 3 - seat):
                    _hit(hits, t, c)[0] += max(0, d.end_amount - state.card(t).def_)
            elif d.end == "end_heal_all":
                for t in state.field(seat):
                    _hit(hits, t, c)[1] += d.end_amount
    _apply_hp(draft, c, hits, "N-5.2.5")
    _settle(draft, c)
    _judge(draft, c)


@implements("N-4.1", "N-4.3", "N-5.3", "N-Q10", "N-C10")
def _judge(draft: D, cause: int) -> None:
    """N-4.1 at the end of the turn, then the turn limit N-4.3 / N-Q10."""
    state = draft.state
    has = {seat: bool(state.field(seat)) for seat in (1, 2)}
    if not has[1] or not has[2]:
        winner = 0 if not has[1] and not has[2] else (1 if has[1] else 2)
        for seat in (1, 2):
            if not has[seat]:
                draft.rule("N-4.1", cause, ev.Lost(seat=seat, reason="no characters on the field"), seat=seat)
        draft.rule("N-4.1", cause, ev.MatchEnded(termination="no characters", winner=winner))
        return
    if state.turn >= TURN_LIMIT:
        draft.rule("N-4.3", cause, ev.MatchEnded(termination="turn limit"))
        return
    _begin_turn(draft, cause, state.turn + 1)


# -- summon ---------------------------------------------------------------------------------------
@implements("N-3.2", "N-5.2.2", "N-Q6")
def _summon(draft: D, cause: int) -> None:
    """N-5.2.2: every chosen card enters at once (seat 1's then seat 2's events; nothing acts between)."""
    state = draft.state
    c = draft.rule("N-5.2.2", cause, ev.PhaseBegun(phase="summon", turn=state.turn))
    for seat in (1, 2):
        side = draft.state.side(seat)
        for p in side.picks:
            d = card(draft.state.card(p.card).name)
            if d.kind == "character":
                s = draft.state.side(seat)
                row = d.row
                if len(getattr(s, row)) >= ROW_SLOTS:
                    row = "back" if row == "front" else "front"
                draft.rule("N-5.2.2", c, ev.Summoned(seat=seat, card=p.card, row=row), seat=seat)
            elif d.kind == "equipment":
                _equip(draft, c, seat, p.card, p.target, d)
            else:
                draft.rule("N-3.2", c, ev.MagicSet(seat=seat, card=p.card, face_down=p.face_down, target=p.target),
                           seat=seat)
        for r in side.reveals:
            draft.rule("N-Q6", c, ev.MagicFlipped(seat=seat, card=r.card, target=r.target), seat=seat)
    _settle(draft, c)


@implements("N-3.2", "N-Q11")
def _equip(draft: D, cause: int, seat: int, cid: int, target: int, d: CardDef) -> None:
    """N-3.2: equipment goes under its character and adds its numbers (kept after death, N-6.2)."""
    t = draft.state.card(target)
    if t.zone not in ("front", "back"):
        draft.rule("N-Q11", cause, ev.CardSpent(card=cid), seat=seat)
        return
    e = draft.rule("N-3.2", cause, ev.Equipped(seat=seat, card=cid, target=target), seat=seat)
    for stat in ("max_hp", "atk", "def", "agi", "rng"):
        amount = d.bonus.get(stat)
        if amount:
            _add_stat(draft, e, target, stat, amount, "N-3.2")


# -- skills ---------------------------------------------------------------------------------------
@implements("N-5.2.4", "N-6.1")
def _skill_phase(draft: D, cause: int) -> None:
    state = draft.state
    c = draft.rule("N-5.2.4", cause, ev.PhaseBegun(phase="skill", turn=state.turn))
    for cid in state.field(1) + state.field(2):
        ch = state.card(cid)
        if ch.summoned >= state.turn:
            draft.rule("N-6.1", c, ev.CannotAct(card=cid, reason="summoned this turn"), seat=ch.owner)
        elif ch.stunned:
            draft.rule("N-5.2.3", c, ev.CannotAct(card=cid, reason="stunned"), seat=ch.owner)
    _next_group(draft, c)


@implements("N-5.2.4", "N-6.5", "N-7.2")
def _next_group(draft: D, cause: int) -> None:
    """N-5.2.4 AGI order; N-6.5 equal AGI: light the group, each seat picks one of its own."""
    while True:
        state = draft.state
        group = [cid for cid in state.group if state.card(cid).zone in ("front", "back")]
        if not group:
            ready = [cid for cid in state.field(1) + state.field(2) if not state.card(cid).acted]
            if not ready:
                _end_phase(draft, cause)
                return
            top = max(state.card(cid).agi for cid in ready)
            group = sorted(cid for cid in ready if state.card(cid).agi == top)
            draft.rule("N-5.2.4", cause, ev.GroupLit(agi=top, cards=tuple(group)))
        elif tuple(group) != state.group or any(s.act is not None for s in state.sides):
            draft.rule("N-6.5", cause, ev.GroupLit(agi=state.card(group[0]).agi, cards=tuple(group)))
        for cid in list(draft.state.group):
            if not skill_targets(draft.state, cid):
                draft.rule("N-7.2", cause, ev.CannotAct(card=cid, reason="no target within range"),
                           seat=draft.state.card(cid).owner)
        if draft.state.group:
            return


@implements("N-Q1")
def _resolve_group(draft: D, cause: int) -> None:
    """N-6.5: the chosen skills of both seats fire together, from one snapshot (mutual kills)."""
    snap = draft.state
    acted = {env.event.card: env.seq for env in draft.envelopes if isinstance(env.event, ev.Acted)}
    hits: dict[int, list[int]] = {}
    for side in snap.sides:
        a = side.act
        if a is None:
            continue
        actor = snap.card(a.card)
        d = card(actor.name)
        source = acted.get(a.card, cause)
        if d.action == "heal":
            _hit(hits, a.target, source)[1] += d.amount
            continue
        targets = [a.target]
        if d.action == "attack_row":
            row = snap.card(a.target).zone
            targets = list(getattr(snap.side(3 - side.seat), row))
        for t in targets:
            tc = snap.card(t)
            _hit(hits, t, source)[0] += attack_damage(actor.atk, card(actor.name).element,
                                                           card(tc.name).element, tc.def_)
    _apply_hp(draft, cause, hits, "N-Q1")
    _settle(draft, cause)
