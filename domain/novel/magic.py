"""The magic phase (N-5.2.3): face-up magic of both seats, category by category."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.clauses import implements
from kifu.domain.core.draft import Draft

from . import events as ev
from .cards import CardDef, card
from .combat import _add_stat, _apply_hp, _hit, _settle
from .state import ROW_SLOTS, Card, State

D = Draft[State, Any]


# -- magic ----------------------------------------------------------------------------------------
@implements("N-3.1", "N-5.2.3")
def _magic_phase(draft: D, cause: int) -> None:
    """N-5.2.3: face-up magic of both seats resolves category by category, 1 → 5; within one
    category both seats' effects are computed from one snapshot and applied together (N-Q5)."""
    state = draft.state
    c = draft.rule("N-5.2.3", cause, ev.PhaseBegun(phase="magic", turn=state.turn))
    live = [cid for seat in (1, 2) for cid in state.side(seat).magic if state.card(cid).live]
    for category in (1, 2, 3, 4, 5):
        todo = [cid for cid in live if card(draft.state.card(cid).name).category == category]
        if todo:
            _category(draft, c, category, _tie_order(draft.state, todo))
            _settle(draft, c)
    for cid in live:
        draft.rule("N-3.1", c, ev.CardSpent(card=cid), seat=draft.state.card(cid).owner)


def _tie_order(state: State, cids: list[int]) -> list[int]:
    """N-Q5: where order matters, higher cost first, then seat 1 before seat 2 (then card id)."""
    return sorted(cids, key=lambda cid: (-card(state.card(cid).name).cost, state.card(cid).owner, cid))


def _valid_target(state: State, m: Card, d: CardDef) -> bool:
    """N-Q11: a target chosen at select that is no longer there makes the effect fizzle."""
    if d.target in ("allies", "none", ""):
        return True
    t = state.card(m.target) if 1 <= m.target <= len(state.cards) else None
    if t is None:
        return False
    if d.target == "ally_dead":
        return t.zone == "grave" and t.owner == m.owner
    if d.target == "ally":
        return t.zone in ("front", "back") and t.owner == m.owner
    return t.zone in ("front", "back") and t.owner != m.owner


def _targets(state: State, m: Card, d: CardDef) -> list[int]:
    if d.target == "allies":
        return list(state.field(m.owner))
    return [m.target]


@implements("N-5.2.3", "N-6.3", "N-Q4", "N-Q5", "N-Q11")
def _category(draft: D, cause: int, category: int, order: list[int]) -> None:
    snap = draft.state
    clause = "N-5.2.3"
    effects: list[tuple[Card, CardDef, int]] = []
    for cid in order:
        m = snap.card(cid)
        d = card(m.name)
        if not _valid_target(snap, m, d):
            draft.rule("N-Q11", cause, ev.MagicFizzled(seat=m.owner, card=cid, reason="its target is gone"),
                       seat=m.owner)
            continue
        e = draft.rule(clause, cause, ev.MagicResolved(seat=m.owner, card=cid, category=category, target=m.target),
                       seat=m.owner)
        effects.append((m, d, e))
    if category == 1:
        for m, d, e in effects:
            target = draft.state.card(m.target)
            if d.effect == "stun" and target.zone in ("front", "back"):
                draft.rule(clause, e, ev.Stunned(card=m.target))
            elif d.effect == "revive":
                _revive(draft, e, m.target)
    elif category == 2:
        deltas: dict[tuple[int, str], tuple[int, int]] = {}
        moves: dict[int, tuple[str, int]] = {}
        for m, d, e in effects:
            for t in _targets(snap, m, d):
                if d.effect == "move":
                    row = "back" if snap.card(t).zone == "front" else "front"
                    moves.setdefault(t, (row, e))   # two moves from one snapshot land on the same row
                else:
                    old = deltas.get((t, d.stat), (0, e))
                    deltas[(t, d.stat)] = (old[0] + d.amount, old[1])
        for (t, stat), (amount, e) in sorted(deltas.items()):
            if draft.state.card(t).zone in ("front", "back"):
                _add_stat(draft, e, t, stat, amount, clause)
        for t, (row, e) in sorted(moves.items()):
            tc = draft.state.card(t)
            side = draft.state.side(tc.owner)
            if tc.zone in ("front", "back") and len(getattr(side, row)) < ROW_SLOTS:
                draft.rule(clause, e, ev.Moved(card=t, row=row), seat=tc.owner)
    elif category == 3:
        per_target: dict[tuple[int, str], list[int]] = {}
        for m, d, _e in effects:
            for t in _targets(snap, m, d):
                per_target.setdefault((t, d.stat), []).append(m.id)
        for _key, cids in per_target.items():
            if len(cids) > 1 and len({snap.card(x).owner for x in cids}) > 1:
                draft.rule("N-Q5", cause, ev.OrderFixed(category=3, cards=tuple(cids)))
        for m, d, e in effects:
            for t in _targets(snap, m, d):
                tc = draft.state.card(t)
                if tc.zone not in ("front", "back"):
                    continue
                before = tc.stat(d.stat)
                after = before * d.num // d.den            # N-Q4: floored after each application
                _add_stat(draft, e, t, d.stat, after - before, clause)
    elif category == 4:
        hits: dict[int, list[int]] = {}
        for m, d, e in effects:
            for t in _targets(snap, m, d):
                if d.effect == "damage":
                    _hit(hits, t, e)[0] += max(0, d.amount - snap.card(t).def_)   # N-6.3
                else:
                    _hit(hits, t, e)[1] += d.amount
        _apply_hp(draft, cause, hits, clause)
    else:
        hits = {}
        for m, d, e in effects:
            for t in _targets(snap, m, d):
                hp = snap.card(t).hp
                delta = hp * d.num // d.den - hp
                slot = _hit(hits, t, e)
                if delta < 0:
                    slot[0] -= delta
                else:
                    slot[1] += delta
        _apply_hp(draft, cause, hits, clause)


@implements("N-Q9", "N-Q11")
def _revive(draft: D, cause: int, cid: int) -> None:
    """N-Q9: a revived character comes back with its kept stats and equipment, at full max HP."""
    c = draft.state.card(cid)
    if c.zone != "grave":
        draft.rule("N-Q11", cause, ev.MagicFizzled(seat=c.owner, card=cid, reason="not in the graveyard"))
        return
    side = draft.state.side(c.owner)
    row = card(c.name).row
    if len(getattr(side, row)) >= ROW_SLOTS:
        row = "back" if row == "front" else "front"
        if len(getattr(side, row)) >= ROW_SLOTS:
            return
    draft.rule("N-Q9", cause, ev.Revived(card=cid, row=row, hp=c.max_hp), seat=c.owner)
