"""Main-phase decisions (W-5.2): tower setup (W-7, W-7.1), summoning (W-8, W-8.1), moving (W-8.2)."""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import events as ev
from .draft import WDraft
from .evolve import evolve
from .field import has, tower_height
from .firing import fire_summon
from .geometry import adjacent, lines
from .hearts import check_source, heart_cast, reveal_next
from .payment import canonical_payment, check_payment
from .state import State
from .stats import definition
from .vocabulary import TOWER_MAX, Phase, Status

MAIN_PHASES = (Phase.MAIN1, Phase.MAIN2)


def _require_main(draft: WDraft, clause: str, what: str) -> None:
    if draft.state.phase not in MAIN_PHASES:
        raise Illegal(clause, f"{what} happens in a main phase, not in {draft.state.phase}")


@implements("W-3.2")
def _require_line(line: int) -> None:
    if line not in lines():
        raise Illegal("W-3.2", f"there is no line {line}; lines are {lines().start}..{lines().stop - 1}")


@implements("W-3.3", "W-7.1", "W-11.4")
def set_tower(draft: WDraft, seat: int, card: int, line: int) -> None:
    _require_main(draft, "W-7.1", "tower setup")
    _require_line(line)
    state = draft.state
    side = state.sides[seat - 1]
    if state.tower_set:
        raise Illegal("W-7.1", "a tower has already been set up this turn (once per turn)")
    if card not in side.hand:
        if any(h.card == card for h in side.hearts):
            raise Illegal("W-11.4", "a heart is only cast (heart cast); it cannot be set up as a tower")
        raise Illegal("W-7.1", f"card {card} is not in seat {seat}'s hand")
    tower = side.towers[line - 1]
    if tower.height >= TOWER_MAX:
        raise Illegal("W-3.3", f"tower {line} already holds {TOWER_MAX} cards")
    broken = tower.broken if tower.cards else False
    draft.decision(seat, ev.TowerSet(seat=seat, card=card, line=line, height=tower.height + 1, broken=broken),
                   clause="W-7.1")


@implements("W-2.4", "W-3.3", "W-8.1", "W-Q4")
def summon(draft: WDraft, seat: int, card: int, line: int, towers: tuple[int, ...], souls: tuple[int, ...],
           heart: bool = False, heart_soul: int | None = None) -> None:
    _require_main(draft, "W-8.1", "summoning")
    _require_line(line)
    state = draft.state
    side = state.sides[seat - 1]
    if state.choice is not None:
        raise Illegal("W-2.4", "a skill is waiting for a choice first")
    check_source(state, seat, card, heart, heart_soul, souls, "W-8.1")
    d = definition(state, card)
    if not d.is_unit:
        raise Illegal("W-8.1", f"{d.name} is a {d.type}, not a unit")
    if side.stage[line - 1] is not None:
        raise Illegal("W-3.3", f"stage spot {line} already holds a unit")
    towers, souls = canonical_payment(towers, souls)
    check_payment(state, seat, d.lv, towers, souls)
    declared = draft.decision(seat, ev.SummonDeclared(seat=seat, card=card, line=line, towers=towers, souls=souls,
                                                      heart=heart, heart_soul=heart_soul), clause="W-8.1")
    pay(draft, seat, d.lv, towers, souls, declared)
    if heart:
        heart_cast(draft, seat, card, heart_soul or 0, declared)
    asleep = not has_haste(draft.state, seat, card, line)
    summoned = draft.rule("W-Q4" if not asleep else "W-8.1", declared,
                          ev.UnitSummoned(seat=seat, card=card, line=line, asleep=asleep,
                                          src="heart" if heart else "hand"))
    if heart:   # the cast heart went straight to the stage (every card stays in one zone); the next turns up
        reveal_next(draft, seat, declared)
    fire_summon(draft, seat, line, summoned)


@implements("W-6.2", "W-6.3")
def pay(draft: WDraft, seat: int, cost: int, towers: tuple[int, ...], souls: tuple[int, ...], cause: int) -> None:
    """W-6.2/W-6.3: break the towers (and their keepers), send the souls to the graveyard."""
    state = draft.state
    heights = tuple(tower_height(state, seat, line) for line in towers)   # (payment.tower_value, without its import)
    paid = draft.rule("W-6.2", cause, ev.CostPaid(seat=seat, cost=cost, generated=sum(heights) + len(souls),
                                                   towers=towers, heights=heights, souls=souls))
    for line in towers:
        keeper = draft.state.sides[seat - 1].stage[line - 1]
        if keeper is not None:
            draft.rule("W-6.3", paid, ev.KeeperBroken(seat=seat, line=line))


@implements("W-8.2", "W-9.1", "W-9.5", "W-Q3")
def move(draft: WDraft, seat: int, line: int, to: int) -> None:
    _require_main(draft, "W-8.2", "moving")
    _require_line(line)
    _require_line(to)
    side = draft.state.sides[seat - 1]
    unit = side.stage[line - 1]
    if unit is None:
        raise Illegal("W-8.2", f"there is no unit of seat {seat} on line {line}")
    if unit.broken:
        raise Illegal("W-8.2", "a broken unit cannot move (moving breaks it)")
    if unit.status == Status.SLEEP:
        raise Illegal("W-9.1", "a sleeping unit cannot move")
    if unit.status == Status.RAGE:
        raise Illegal("W-9.5", "a raging unit cannot move")
    if to not in adjacent(line):
        raise Illegal("W-8.2", f"line {to} is not adjacent to line {line} (W-Q3: left or right only)")
    if side.stage[to - 1] is not None:
        raise Illegal("W-8.2", f"stage spot {to} is not empty")
    moved = draft.decision(seat, ev.UnitMoved(seat=seat, line=line, to=to), clause="W-8.2")
    draft.rule("W-8.2", moved, ev.UnitBroken(seat=seat, line=to))


@implements("W-Q4")
def has_haste(state: State, seat: int, card: int, line: int) -> bool:
    """W-Q4 神速: not put to sleep when summoned — unless negated (W-14.6), so it is read on the
    field as it would be with the unit on its spot."""
    if "神速" not in definition(state, card).keywords():
        return False
    placed = evolve(state, ev.UnitSummoned(seat=seat, card=card, line=line, asleep=False))
    return has(placed, seat, line, "神速")
