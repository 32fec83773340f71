"""The skill interpreter: carry out a skill's effects, one rule event per consequence (W-14).

A spell's resolution (W-10.1, W-10.3) lives here too: resolving a spell applies its skill, and a
skill may cast a spell for free (即時詠唱, W-10.5) that resolves in turn, so the two recurse.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from kifu.domain.core.clauses import implements

from . import events as ev
from .card_facts import extra_cost, spell_skill, targeting_skill
from .cards import definition
from .checks import settle
from .draft import WDraft
from .field import has, stat
from .firing import fire_summon
from .main_phase import pay
from .payment import payments
from .skills import Op, Skill
from .state import Effect, Trigger
from .targets import still_correct, unit_line
from .vocabulary import StatusName, owner_of


@dataclass(frozen=True)
class Context:
    """Who uses the skill, from where, on what: everything an op needs to find its recipients."""

    seat: int                      # the controller
    card: int                      # the source card
    skill: Skill
    skill_index: int
    targets: tuple[int, ...] = ()
    line: int = 0                  # where the source stood
    other: int = 0                 # the combat opponent's card
    by: str = "skill"              # "spell" for spell skills (W-1.2 prohibitions)
    clause: str = "W-14"


def _until(state_turn: int, duration: str) -> str:
    return {"turn": "turn", "combat": "combat", "next_turn": f"turn:{state_turn + 1}"}.get(duration, "stage")


@implements("W-2.6")
def _x(draft: WDraft, ctx: Context, op: Op) -> int:
    """W-2.6: X is defined inside the skill; every X in one skill is the same value."""
    side = draft.state.side(ctx.seat)
    match op.x:
        case "souls":
            return len(side.soul)
        case "hand":
            return len(side.hand)
    return op.value


@implements("W-3.4", "W-3.6")
def _units(draft: WDraft, ctx: Context, op: Op) -> list[tuple[int, int, int]]:
    """(seat, line, card) of the units ``op`` affects, as the field stands now: "in front" is the
    opponent's spot in the same column (W-3.4); own/enemy units follow the scope rule (W-3.6)."""
    state = draft.state
    out: list[tuple[int, int, int]] = []

    def add(card: int) -> None:
        where = unit_line(state, card)
        if where is not None:
            out.append((where[0], where[1], card))

    match op.who:
        case "target":
            for t in ctx.targets:
                add(t // 10 if op.op in ("move",) else t)
        case "self":
            add(ctx.card)
        case "combat_opponent":
            if ctx.other:
                add(ctx.other)
        case "front_unit":
            where = unit_line(state, ctx.card)
            line = where[1] if where else ctx.line
            front = state.side(3 - ctx.seat).stage[line - 1] if line else None
            if front is not None:
                out.append((3 - ctx.seat, line, front.card))
        case "own_units" | "enemy_units":
            s = ctx.seat if op.who == "own_units" else 3 - ctx.seat
            for i, unit in enumerate(state.sides[s - 1].stage):
                if unit is not None and (op.family is None or op.family in definition(state, unit.card).families):
                    out.append((s, i + 1, unit.card))
    return out


def _players(ctx: Context, op: Op) -> list[int]:
    match op.who:
        case "controller":
            return [ctx.seat]
        case "opponent":
            return [3 - ctx.seat]
        case "target":
            return [t for t in ctx.targets if t in (1, 2)]
    return []


def apply_skill(draft: WDraft, ctx: Context, cause: int) -> None:
    """Carry out every op of the skill in order, then run the state-based checks."""
    for op in ctx.skill.ops:
        if draft.state.outcome is not None:
            return
        apply_op(draft, ctx, op, cause)
    settle(draft, cause)


@implements("W-1.1", "W-1.2", "W-2.7", "W-3.1", "W-3.3", "W-3.5", "W-4.5", "W-7.5", "W-8.3", "W-8.5", "W-9", "W-12.6",
            "W-14.3", "W-14.5", "W-14.6", "W-Q12")
def apply_op(draft: WDraft, ctx: Context, op: Op, cause: int) -> None:  # noqa: C901 — one case per op
    match op.op:
        case "add" | "set" | "grant" | "negate" if op.stat == "HT":
            refs = [t for t in ctx.targets if t < 100] if op.who == "target" else []
            for ref in refs:
                draft.rule("W-7.5", cause, ev.EffectAdded(effect=Effect(
                    id=draft.next_seq, target=ref, op=op.op, stat="HT", value=op.value,
                    until=_until(draft.state.turn, op.duration), source=ctx.card)))
        case "add" | "set" | "grant" | "negate":
            for _, _, card in _units(draft, ctx, op):
                draft.rule("W-14.3" if op.op in ("add", "set") else ("W-2.7" if op.op == "grant" else "W-14.6"), cause,
                           ev.EffectAdded(effect=Effect(id=draft.next_seq, target=card, op=op.op, stat=op.stat,
                                                        value=_x(draft, ctx, op), skill=op.skill,
                                                        until=_until(draft.state.turn, op.duration),
                                                        source=ctx.card)))
        case "damage" | "wave":
            amount = _x(draft, ctx, op)
            wave = op.op == "wave"
            for seat in _players(ctx, op):
                damage_player(draft, seat, amount, cause, wave=wave)
            for seat, line, card in _units(draft, ctx, op):
                defense = 0 if wave else stat(draft.state, seat, line, "DEF")
                dealt = max(0, amount - defense)
                draft.rule("W-14.5" if wave else "W-12.6", cause, ev.UnitDamaged(
                    seat=seat, line=line, card=card, amount=dealt, base=amount, DEF=defense, wave=wave))
        case "destroy":
            for seat, line, card in _units(draft, ctx, op):
                if ctx.by == "spell" and has(draft.state, seat, line, "スペル破壊無効"):
                    draft.rule("W-1.2", cause, ev.DestroyPrevented(seat=seat, line=line, card=card,
                                                                   reason="スペルによって破壊されない"))
                    continue
                draft.rule("W-8.3", cause, ev.UnitDestroyed(seat=seat, line=line, card=card, by="effect"))
        case "status":
            for seat, line, _card in _units(draft, ctx, op):
                unit = draft.state.sides[seat - 1].stage[line - 1]
                old = unit.status if unit is not None and unit.status else None
                given = cast(StatusName, op.status)   # (every "status" op of the card data names one)
                draft.rule("W-9", cause, ev.StatusGiven(seat=seat, line=line, status=given, replaced=old))
        case "cure":
            for seat, line, _card in _units(draft, ctx, op):
                unit = draft.state.sides[seat - 1].stage[line - 1]
                if unit is not None and unit.status is not None:
                    draft.rule("W-9", cause, ev.StatusRemoved(seat=seat, line=line, status=unit.status))
        case "regenerate":
            for seat, line, _card in _units(draft, ctx, op):
                draft.rule("W-8.5", cause, ev.UnitRegenerated(seat=seat, line=line))
        case "move":
            for t in ctx.targets:
                card, to = t // 10, t % 10
                where = unit_line(draft.state, card)
                if where is not None and draft.state.side(where[0]).stage[to - 1] is None:
                    draft.rule("W-3.3", cause, ev.UnitShifted(seat=where[0], line=where[1], to=to))
        case "control":
            for seat, line, card in _units(draft, ctx, op):
                if seat != ctx.seat and draft.state.side(ctx.seat).stage[line - 1] is None:
                    draft.rule("W-3.5", cause, ev.ControlGained(seat=ctx.seat, card=card, src_line=line, line=line))
        case "life":
            for seat in _players(ctx, op):
                amount = _x(draft, ctx, op)
                draft.rule("W-4.5", cause, ev.LifeGained(seat=seat, amount=amount,
                                                         life=draft.state.sides[seat - 1].life + amount))
        case "draw":
            for seat in _players(ctx, op):
                for _ in range(_x(draft, ctx, op)):
                    deck = draft.state.sides[seat - 1].deck
                    if not deck:   # W-Q12: an effect's draw from an empty deck draws nothing
                        break
                    draft.rule("W-Q12", cause, ev.CardDrawn(seat=seat, card=deck[0]))
        case "mill":
            for seat in _players(ctx, op):
                cards = draft.state.sides[seat - 1].deck[:_x(draft, ctx, op)]
                if cards:
                    draft.rule("W-3.1", cause, ev.CardsMilled(seat=seat, cards=cards))
        case "seal" | "to_hand":
            dst = "seal" if op.op == "seal" else "hand"
            for t in ctx.targets:
                where = unit_line(draft.state, t)
                if where is not None:
                    draft.rule("W-3.5", cause, ev.CardMoved(card=t, src="stage", dst=dst, seat=where[0], line=where[1]))
                    continue
                owner = draft.state.side(owner_of(t))
                src = "soul" if t in owner.soul else "grave" if t in owner.grave else None
                if src is not None:
                    draft.rule("W-3.5", cause, ev.CardMoved(card=t, src=src, dst=dst, seat=owner_of(t)))
        case "summon_free":
            for t in ctx.targets:
                card, line = t // 10, t % 10
                side = draft.state.side(ctx.seat)
                src = "hand" if card in side.hand else "soul" if card in side.soul else None
                if src is not None and side.stage[line - 1] is None:
                    summoned = draft.rule("W-8.5", cause,
                                          ev.UnitSummonedFree(seat=ctx.seat, card=card, line=line, src=src))
                    fire_summon(draft, ctx.seat, line, summoned)
        case "cast_free":
            for t in ctx.targets:
                cast_free(draft, ctx.seat, t // 10, t % 10, cause)
        case "win":
            for seat in _players(ctx, op):
                name = draft.state.name(ctx.card)
                draft.rule("W-1.1", cause, ev.MatchEnded(termination=f"special victory ({name})", winner=seat))
        case "no_combat_damage":
            pass  # static: read by combat (W-1.2)


@implements("W-11.2", "W-12.6", "W-14.5", "W-Q6")
def damage_player(draft: WDraft, seat: int, amount: int, cause: int, wave: bool = False) -> None:
    """W-11.2 with W-Q6: each ready heart absorbs 1 and breaks, from the bottom up; the rest is
    life. Wave damage (W-14.5) skips the hearts."""
    if amount <= 0:
        return
    if wave:
        hit = draft.rule("W-14.5", cause, ev.PlayerDamaged(seat=seat, amount=amount, wave=True))
        rest = amount
    else:
        hit = cause
        hearts = draft.state.sides[seat - 1].hearts
        ready = [i for i in range(len(hearts) - 1, -1, -1) if not hearts[i].broken]
        used = tuple(ready[:amount])
        if used:
            draft.rule("W-11.2", cause, ev.HeartsBroken(seat=seat, indexes=used))
        rest = amount - len(used)
    if rest > 0:
        life = draft.state.sides[seat - 1].life - rest
        lost = draft.rule("W-12.6" if not wave else "W-14.5", hit, ev.LifeLost(seat=seat, amount=rest, life=life))
        settle(draft, lost)


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
