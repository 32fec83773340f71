"""Every decision a seat may take now: what the random bot samples and what decide accepts."""
from __future__ import annotations

from kifu.domain.core.clauses import implements

from . import commands as c
from .cards import CardData
from .state import Side, State, Unit
from .stats import agi, influence
from .vocabulary import (
    ACT,
    ACTION,
    BACK,
    END,
    FRONT,
    HAND_LIMIT,
    INFLUENCE,
    LIMIT,
    MULLIGAN,
    OPENING,
    OVER,
    SET,
    SOUL,
    START,
    TIE,
    WINDOW,
    other,
)


def awaiting(state: State) -> frozenset[int]:
    if state.outcome is not None or state.step == OVER:
        return frozenset()
    if state.step == OPENING:
        return frozenset(s for s in (1, 2) if s not in state.sealed_by)
    if state.sub == LIMIT and len(state.side(state.actor).hand) <= HAND_LIMIT:
        return frozenset()          # within the hand limit, nothing to discard
    return frozenset((state.actor,)) if state.actor else frozenset()


def sealed(state: State) -> bool:
    """A-4.5: the opening influence is placed face-down by both, then revealed (sealed decisions)."""
    return state.step == OPENING and state.outcome is None


def working_empty(side: Side) -> list[int]:
    """A-3.2 / A-6.1: squares that still work and hold no unit."""
    taken = {u.square for u in side.units}
    return [sq for sq in range(1, len(side.squares) + 1) if not side.destroyed[sq - 1] and sq not in taken]


@implements("A-11.2", "A-Q4")
def name_on_field(state: State, name: str) -> bool:
    """A-Q4 / A-11.2: a 『name』 is unique across both fields; the first out survives."""
    return any(state.name(u.card) == name for side in state.sides for u in side.units)


@implements("A-2.5", "A-5.3", "A-10.2", "A-Q4")
def placeable(state: State, seat: int, data: CardData) -> str:
    """Why ``data`` may not be placed by ``seat`` now ("" when it may): A-5.3, A-Q4."""
    if not data.unit:
        return "A-2.5"
    if influence(state, seat, data.god) < data.lv:
        return "A-5.3"
    if len(state.side(seat).soul) < data.lv:
        return "A-10.2"
    if data.named and name_on_field(state, data.name):
        return "A-Q4"
    return ""


def targets_of(state: State, seat: int, target: str) -> list[int]:
    if target == "enemy_unit":
        return [u.card for u in state.side(other(seat)).units]
    if target == "own_unit":
        return [u.card for u in state.side(seat).units]
    if target == "enemy_influence":
        return list(state.side(other(seat)).influence)
    return [0]


@implements("A-6.4", "A-7.1", "A-7.2", "A-Q9")
def attack_targets(state: State, seat: int, u: Unit) -> list[int]:
    """A-7: the front-line rule (A-7.2) and ロングレンジ (A-7.1); A-6.4 a blocked back-row unit.

    A-Q9: the front line is the foremost occupied row; ロングレンジ ignores both rows."""
    data = state.data(u.card)
    foes = state.side(other(seat)).units
    if not foes:
        return []
    if data is not None and data.longrange:
        return [f.card for f in foes]
    if u.square in BACK and any(o.square in FRONT for o in state.side(seat).units if o.card != u.card):
        return []
    front = [f.card for f in foes if f.square in FRONT]
    back = [f.card for f in foes if f.square in BACK]
    return front if front and back else front + back


def grimoires(state: State, seat: int, start: bool) -> list[c.UseGrimoire]:
    """A-Q3 / A-5.4: grimoires whose god's influence ≥ LV and whose stated cost can be paid."""
    side = state.side(seat)
    out: list[c.UseGrimoire] = []
    seen: set[str] = set()
    for card in side.hand:
        data = state.data(card)
        if data is None or data.unit or data.start != start or data.name in seen:
            continue
        seen.add(data.name)
        if influence(state, seat, data.god) < data.lv or len(side.soul) < data.cost_soul:
            continue
        discards = [0]
        if data.cost_discard:
            names: dict[str, int] = {}
            for h in side.hand:
                if h != card:
                    names.setdefault(state.name(h), h)
            discards = list(names.values())
            if len(side.hand) - 1 < data.cost_discard:
                continue
        skill = data.skill
        targets = targets_of(state, seat, skill.target if skill else "none")
        out.extend(c.UseGrimoire(card=card, target=t, discard=d) for t in targets for d in discards)
    return out


def unit_actions(state: State, seat: int, u: Unit) -> list[c.Command]:
    """A-6: wait (A-6.2), move (A-6.1), normal attack (A-6.4) or battlefield attack (A-6.5), ACTION skill (A-6.3)."""
    side = state.side(seat)
    out: list[c.Command] = [c.Wait(card=u.card)]
    out.extend(c.Move(card=u.card, square=sq) for sq in working_empty(side))
    opp = state.side(other(seat))
    if opp.units:
        out.extend(c.Attack(card=u.card, target=t) for t in attack_targets(state, seat, u))
    else:
        out.extend(c.AttackBattlefield(card=u.card, square=sq)
                   for sq in range(1, len(opp.squares) + 1) if not opp.destroyed[sq - 1])
    data = state.data(u.card)
    skill = data.skill if data else None
    if skill is not None and skill.icon in ("ACTION", "NEXT") and len(side.soul) >= skill.cost:
        out.extend(c.UseSkill(card=u.card, target=t) for t in targets_of(state, seat, skill.target)
                   if skill.target not in ("enemy_unit", "own_unit", "enemy_influence") or t)
    return out


def opening_choices(state: State, seat: int) -> list[c.Command]:
    """A-4.5: one unit or named card from hand as influence; none only with no unit card in hand."""
    units = [card for card in state.side(seat).hand if (d := state.data(card)) is not None and d.unit]
    return [c.PlaceInfluence(card=card) for card in units] if units else [c.NoInfluence()]


def legal(state: State, seat: int) -> list[c.Command]:
    if seat not in awaiting(state):
        return []
    side = state.side(seat)
    step, sub = state.step, state.sub
    if step == MULLIGAN:
        return [c.Mulligan(redraw=False), c.Mulligan(redraw=True)]
    if step == OPENING:
        return opening_choices(state, seat)
    if step == INFLUENCE:
        out: list[c.Command] = [c.EndInfluence()]
        out.extend(c.PlaceInfluence(card=card) for card in side.hand
                   if (d := state.data(card)) is not None and d.unit and d.god not in state.gods_used)
        return out
    if step == SET:
        out = [c.PassSet()]
        squares = working_empty(side)
        if squares:
            for card in side.hand:
                d = state.data(card)
                if d is not None and d.unit and not placeable(state, seat, d):
                    out.extend(c.PlaceUnit(card=card, square=sq) for sq in squares)
        return out
    if sub == WINDOW and step in (START, ACTION):
        return [c.Pass(), *grimoires(state, seat, start=step == START)]
    if step == ACTION and sub == TIE:
        return [c.ChooseActor(card=u.card) for u in side.units if not u.acted and agi(state, u) == state.tie_agi]
    if step == ACTION and sub == ACT:
        u = side.unit(state.acting)
        return unit_actions(state, seat, u) if u is not None else []
    if step == END and sub == SOUL:
        return [c.EndDiscards(), *(c.DiscardForSoul(card=card) for card in side.hand)]
    if step == END and sub == LIMIT and len(side.hand) > HAND_LIMIT:
        return [c.DiscardToLimit(card=card) for card in side.hand]
    return []
