"""Spells (W-10): casting to a table spot, paying (W-6, element effect W-6.5), choosing targets.

Resolving, Long Spells staying and instant casts (W-10.5) are in ``ops``, with the skill
interpreter they recurse with; a spell's printed facts (its ○ skill, extra cost) in ``card_facts``."""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import events as ev
from .card_facts import Facts, card_facts, targeting_skill
from .cards import CardDef, definition
from .draft import WDraft
from .hearts import check_source, heart_cast, reveal_next
from .main_phase import pay
from .ops import resolve_spell
from .payment import canonical_payment, check_payment
from .skills import Skill
from .state import State
from .targets import options
from .vocabulary import Phase


@implements("W-6.5")
def spell_cost(state: State, seat: int, card: int, line: int) -> int:
    """The cost of casting ``card`` to table spot ``line``: its LV less the element effect (W-6.5),
    plus any extra cost."""
    top = state.side(seat).towers[line - 1].top
    return cast_cost(card_facts(state, card), None if top is None else card_facts(state, top))


@implements("W-6.5")
def cast_cost(spell: Facts, top: Facts | None) -> int:
    """``spell_cost`` from the card's facts and those of the top card of the tower on the spot's
    line: W-6.5 takes 1 off the LV (not off the extra cost) when the two share an element."""
    discount = 1 if top is not None and not spell.elements.isdisjoint(top.elements) else 0
    return max(0, spell.lv - discount) + spell.extra


@implements("W-10.2")
def may_cast_now(state: State, seat: int, d: CardDef) -> str | None:
    """Why ``seat`` may not cast ``d`` now (W-10.2), or None if it may."""
    return cast_refused(state, seat, d.type == "SS")


@implements("W-10.2", "W-13.1")
def cast_refused(state: State, seat: int, short: bool) -> str | None:
    """``may_cast_now`` for a Short Spell (``short``) or any other spell: the card matters only
    by that, so the decision lists ask once for each kind."""
    window = state.window
    if window is not None:
        if window.resolving or window.seat != seat:
            return "W-13.1"
        return None if short else "W-10.2"
    if state.phase in (Phase.MAIN1, Phase.MAIN2) and state.turn_seat == seat and state.combat is None \
            and state.choice is None:
        return None
    return "W-10.2"


@implements("W-3.2", "W-3.3", "W-10.1", "W-13.3", "W-Q7")
def cast(draft: WDraft, seat: int, card: int, line: int, towers: tuple[int, ...], souls: tuple[int, ...],
         targets: tuple[int, ...], heart: bool, heart_soul: int | None) -> None:
    state = draft.state
    side = state.sides[seat - 1]
    check_source(state, seat, card, heart, heart_soul, souls, "W-10.1")
    d = definition(state, card)
    if not d.is_spell:
        raise Illegal("W-10.1", f"{d.name} is a unit: summon it (W-8.1)")
    clause = may_cast_now(state, seat, d)
    if clause is not None:
        what = "only a Short Spell, by the player with the right" if state.window else "in your own main phase"
        raise Illegal(clause, f"{d.name} ({d.type}) cannot be cast now: {what}")
    if not 1 <= line <= len(side.table):
        raise Illegal("W-3.2", f"there is no table spot {line}")
    if side.table[line - 1] is not None:
        raise Illegal("W-3.3", f"table spot {line} already holds a spell")
    check_targets(state, seat, card, d, targets, line)
    cost = spell_cost(state, seat, card, line)
    towers, souls = canonical_payment(towers, souls)
    check_payment(state, seat, cost, towers, souls)
    cast_seq = draft.decision(seat, ev.SpellCast(seat=seat, card=card, line=line, cost=cost, towers=towers, souls=souls,
                                                 targets=targets, heart=heart, heart_soul=heart_soul), clause="W-10.1")
    pay(draft, seat, cost, towers, souls, cast_seq)
    if heart:
        heart_cast(draft, seat, card, heart_soul or 0, cast_seq)
    waiting = draft.state.window is not None
    draft.rule("W-Q7" if waiting else "W-10.1", cast_seq,
               ev.SpellPlaced(seat=seat, card=card, line=line, targets=targets, waiting=waiting, cast=cast_seq))
    if heart:   # the cast heart went straight to the table; the next turns up
        reveal_next(draft, seat, cast_seq)
    if not waiting:   # W-13.3: in a main phase each cast resolves at once
        resolve_spell(draft, seat, line, cast_seq)


@implements("W-10.4")
def check_targets(state: State, seat: int, card: int, d: CardDef, targets: tuple[int, ...], line: int = 0) -> None:
    skill = targeting_skill(d)
    if skill is None:
        if targets:
            raise Illegal("W-10.4", f"{d.name} takes no target")
        return
    assert skill.target is not None
    valid = [t for t in options(state, skill, seat, card) if not on_own_spot(skill, line, t)]
    if not valid:
        raise Illegal("W-10.4", f"{d.name} needs a target and none can be chosen now")
    if len(targets) != skill.target.count or any(t not in valid for t in targets):
        raise Illegal("W-10.4", f"{d.name}: {list(targets)} is not a correct choice of {skill.target.count} "
                                f"target(s); correct: {valid[:12]}")


def on_own_spot(skill: Skill, line: int, target: int) -> bool:
    """A spell put on a table spot by this one (card*10+spot) cannot go to the spot this one is
    cast to: it still stands there when its skill resolves, so the target would not be correct
    then (W-10.4)."""
    return skill.target is not None and skill.target.kind == "hand_spell" and target % 10 == line
