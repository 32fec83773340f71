"""Combat arithmetic shared by every phase: damage and healing at once (N-6.4), DEF (N-6.3),
affinity (N-8.3, N-Q4), stat changes, deaths (N-6.2) and the empty front row (N-7.3, N-Q8)."""
from __future__ import annotations

from typing import Any

from kifu.domain.core.clauses import implements
from kifu.domain.core.draft import Draft

from . import events as ev
from .cards import BEATS
from .state import State

D = Draft[State, Any]


def _add_stat(draft: D, cause: int, cid: int, stat: str, amount: int, clause: str) -> None:
    c = draft.state.card(cid)
    before = c.stat(stat)
    after = max(0, before + amount)
    if after != before:
        draft.rule(clause, cause, ev.StatChanged(card=cid, stat=stat, before=before, after=after))
    if stat == "max_hp" and c.zone in ("front", "back"):
        hp = min(after, max(0, c.hp + amount)) if amount > 0 else min(c.hp, after)
        if hp != c.hp:
            draft.rule(clause, cause, ev.HpChanged(card=cid, heal=max(0, hp - c.hp), damage=max(0, c.hp - hp), hp=hp))


# -- deaths and rows ------------------------------------------------------------------------------
@implements("N-6.2", "N-7.3", "N-Q8")
def _settle(draft: D, cause: int) -> None:
    """N-6.2 characters at 0 HP die (equipment stays attached, stats are kept); N-7.3 / N-Q8 an
    empty front row takes the back row's characters, in their order, for good."""
    state = draft.state
    dying = [cid for cid in state.field(1) + state.field(2) if state.card(cid).hp <= 0]
    if dying:
        hit = {env.event.card: env.seq for env in draft.envelopes if isinstance(env.event, ev.HpChanged)}
        for cid in dying:
            draft.rule("N-6.2", hit.get(cid, cause), ev.Died(card=cid))
    for seat in (1, 2):
        side = draft.state.side(seat)
        if not side.front and side.back:
            for cid in side.back:
                draft.rule("N-7.3", cause, ev.Moved(card=cid, row="front"), seat=seat)


def _hit(hits: dict[int, list[int]], target: int, cause: int) -> list[int]:
    """The [damage, heal, cause] slot of ``target``; the first source to reach it is its cause."""
    return hits.setdefault(target, [0, 0, cause])


@implements("N-6.4", "N-Q9")
def _apply_hp(draft: D, cause: int, hits: dict[int, list[int]], clause: str) -> None:
    """N-6.4: damage and healing that happen at once are netted; N-Q9 healing stops at max HP."""
    for cid in sorted(hits):
        dmg, heal, cause = hits[cid]
        c = draft.state.card(cid)
        if c.zone not in ("front", "back") or (dmg == 0 and heal == 0):
            continue
        hp = max(0, min(c.max_hp, c.hp - dmg + heal))
        draft.rule(clause, cause, ev.HpChanged(card=cid, damage=dmg, heal=heal, hp=hp))


def _front(state: State, seat: int) -> tuple[int, ...]:
    """N-7.3: with no front row, the back row is the front."""
    side = state.side(seat)
    return side.front or side.back


@implements("N-8.3")
def affinity(attacker: str, target: str) -> tuple[int, int]:
    """N-8.3: ×2 against the element one beats, ×0.5 against the one that beats it (num, den)."""
    if BEATS.get(attacker) == target:
        return 2, 1
    if BEATS.get(target) == attacker:
        return 1, 2
    return 1, 1


@implements("N-6.3", "N-8.3", "N-Q4")
def attack_damage(atk: int, attacker_element: str, target_element: str, target_def: int) -> int:
    """N-8.3 before DEF, N-6.3 minus DEF, N-Q4 floored and never below 0: 50 水 → 火 DEF10 = 90."""
    num, den = affinity(attacker_element, target_element)
    return max(0, atk * num // den - target_def)
