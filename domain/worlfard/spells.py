"""Spells (W-10): casting to a table spot, paying (W-6, element effect W-6.5), resolving,
Long Spells staying, and instant casts (W-10.5)."""
from __future__ import annotations

from kifu.domain.core.clauses import implements
from kifu.domain.core.errors import Illegal

from . import events as ev
from .card_facts import Facts, card_facts
from .cards import CardDef, definition
from .draft import WDraft
from .hearts import check_source, heart_cast, reveal_next
from .main_phase import pay
from .ops import Context, apply_skill
from .payment import can_pay, canonical_payment, check_payment, payments
from .skills import Skill
from .state import State, Trigger
from .targets import options, still_correct
from .vocabulary import Phase


@implements("W-2.5")
def spell_skill(d: CardDef) -> tuple[int, Skill] | None:
    """The ○ skill (W-2.5); a Long Spell may have none."""
    for index, skill in enumerate(d.skill):
        if skill.mark == "○":
            return index, skill
    return None


def targeting_skill(d: CardDef) -> Skill | None:
    """The skill whose 【…】 is chosen at cast: the ○ skill, or a Long Spell's lasting one."""
    for skill in d.skill:
        if skill.target is not None and (skill.mark == "○" or (skill.zone == "table" and skill.static)):
            return skill
    return None


@implements("W-10.5")
def extra_cost(d: CardDef) -> int:
    """{コスト:〔n〕} on the spell skill: paid on top of the LV, even when cast instantly (W-10.5)."""
    found = spell_skill(d)
    return found[1].cost if found else 0


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


@implements("W-10.1", "W-10.3", "W-10.4")
def resolve_spell(draft: WDraft, seat: int, line: int, cause: int, targets: tuple[int, ...] | None = None) -> None:
    """Resolve the spell on ``seat``'s table spot ``line``: re-check targets (W-10.4), apply the
    spell skill, then an MS or SS goes to the graveyard and an LS stays (W-10.3)."""
    spell = draft.state.sides[seat - 1].table[line - 1]
    assert spell is not None
    cause = spell.cast or cause   # a resolution traces back to its cast (the chain closing is between)
    d = definition(draft.state, spell.card)
    chosen = spell.targets if targets is None else targets
    skill = targeting_skill(d)
    if skill is not None and not still_correct(draft.state, skill, seat, spell.card, chosen):
        draft.rule("W-10.4", cause, ev.SpellFizzled(seat=seat, card=spell.card, line=line,
                                                     reason="its targets can no longer be chosen correctly"))
        draft.rule("W-10.3", cause, ev.CardMoved(card=spell.card, src="table", dst="grave", seat=seat, line=line))
        return
    resolved = draft.rule("W-10.1", cause, ev.SpellResolved(seat=seat, card=spell.card, line=line))
    if d.type == "LS":
        draft.rule("W-10.3", resolved, ev.SpellStays(seat=seat, card=spell.card, line=line, since=resolved))
    found = spell_skill(d)
    if found is not None:
        index, sk = found
        apply_skill(draft, Context(seat=seat, card=spell.card, skill=sk, skill_index=index, targets=chosen,
                                   line=line, by="spell", clause="W-10.1"), resolved)
    if d.type != "LS" and draft.state.outcome is None and draft.state.sides[seat - 1].table[line - 1] is not None:
        draft.rule("W-10.3", resolved, ev.CardMoved(card=spell.card, src="table", dst="grave", seat=seat, line=line))


@implements("W-10.5")
def free_castable(state: State, seat: int, card: int) -> bool:
    """W-10.5: an instant cast still pays extra costs and needs its targets to exist."""
    d = definition(state, card)
    skill = targeting_skill(d)
    if skill is not None and skill.target is not None and skill.target.kind == "hand_spell":
        return False   # a spell that casts spells is not itself cast that way (no endless chains)
    if not can_pay(state, seat, extra_cost(d)):
        return False
    return skill is None or bool(options(state, skill, seat, card))


@implements("W-10.5")
def cast_free(draft: WDraft, seat: int, card: int, line: int, cause: int) -> None:
    """即時詠唱: no LV cost; the extra cost is paid with the first legal payment (an
    interpretation: the seed does not say who picks it); targets are then chosen as a choice."""
    state = draft.state
    d = definition(state, card)
    if card not in state.sides[seat - 1].hand or state.sides[seat - 1].table[line - 1] is not None:
        return
    extra = extra_cost(d)
    towers, souls = next(iter(payments(state, seat, extra)), ((), ()))
    cast_seq = draft.rule("W-10.5", cause, ev.SpellCast(seat=seat, card=card, line=line, cost=extra, towers=towers,
                                                         souls=souls, free=True))
    if extra:
        pay(draft, seat, extra, towers, souls, cast_seq)
    draft.rule("W-10.5", cast_seq, ev.SpellPlaced(seat=seat, card=card, line=line, cast=cast_seq))
    skill = targeting_skill(d)
    if skill is None:
        resolve_spell(draft, seat, line, cast_seq)
        return
    index = d.skill.index(skill)
    draft.rule("W-10.5", cast_seq, ev.SkillTriggered(trigger=Trigger(seat=seat, card=card, skill=index, line=line,
                                                                      spell_line=line), when="cast"))
