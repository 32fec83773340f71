"""decide and the flow of the turn: validate a decision, record it, then run the rules to rest.

``proceed`` is the settle loop: from wherever the match stands it emits every automatic step
(phase changes, the preparation, START and NEXT skills, who acts next by AGI, forced waits, the
end of effects) until a seat's decision is awaited or the match is over.
"""
from __future__ import annotations

from typing import cast

from kifu.domain.core.clauses import implements
from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import Illegal

from . import commands as c
from . import events as ev
from .cards import CardData
from .legal import attack_targets, awaiting, legal, opening_choices, placeable, working_empty
from .skills import apply, deal, draw, gain_soul, lose, pay_soul
from .state import State
from .stats import agi, at, df, influence
from .vocabulary import (
    ACT,
    ACTION,
    BOTH_PREPARE,
    CLEANUP,
    END,
    HAND_LIMIT,
    HAND_START,
    INFLUENCE,
    LIMIT,
    LIMIT_BOTH,
    MULLIGAN,
    OPENING,
    PREPARATION,
    SECOND_PLAYER_SOUL,
    SET,
    SQUARES,
    START,
    WINDOW,
    other,
)

D = Draft[State, ev.Event]


# -- flow ------------------------------------------------------------------------------------------
@implements("A-5", "A-5.1", "A-5.2", "A-Q1")
def begin_turn(draft: D, seat: int, cause: int | None) -> None:
    """A-5.1 preparation for both players (A-Q1), turn player first; then the influence phase."""
    state = draft.state
    began = draft.rule("A-5", cause, ev.TurnBegan(turn=state.turn + 1, seat=seat), seat=seat)
    prep = draft.rule("A-5.1", began, ev.PhaseBegan(phase=PREPARATION, seat=0))
    for s in ((seat, other(seat)) if BOTH_PREPARE else (seat,)):
        tapped = tuple(u.card for u in draft.state.side(s).units if u.acted)
        if tapped:
            draft.rule("A-5.1", prep, ev.UnitsUntapped(seat=s, cards=tapped), seat=s)
        draw(draft, s, 1, "A-5.1", prep, compulsory=True)
        if draft.state.outcome is not None:
            return
        gain_soul(draft, s, 1, "A-5.1", prep)
    draft.rule("A-5.2", prep, ev.PhaseBegan(phase=INFLUENCE, seat=seat))


@implements("A-5.3", "A-5.4", "A-5.5", "A-5.6", "A-C9")
def proceed(draft: D, cause: int | None) -> None:
    """Run automatic steps until a decision is awaited (or the match is over)."""
    for _ in range(10_000):
        state = draft.state
        if state.outcome is not None or awaiting(state):
            return
        step, sub, tp = state.step, state.sub, state.turn_seat
        if step == MULLIGAN:
            _after_mulligans(draft, cause)
        elif step == OPENING:
            if len(state.opened) < 2:
                return
            begin_turn(draft, state.first_seat, cause)
        elif step == INFLUENCE:
            draft.rule("A-5.3", cause, ev.PhaseBegan(phase=SET, seat=tp))
        elif step == SET:
            draft.rule("A-5.4", cause, ev.PhaseBegan(phase=START, seat=0))
        elif step == START:
            if sub == "":
                _start_skills(draft, cause)
                if draft.state.outcome is None:
                    draft.rule("A-5.4", cause, ev.WindowOpened(seat=tp), seat=tp)
            else:  # AFTER: both seats passed their START grimoires
                draft.rule("A-5.5", cause, ev.PhaseBegan(phase=ACTION, seat=0))
        elif step == ACTION:
            _next_actor(draft, cause)
        elif step == END:
            if sub == LIMIT:
                seat = state.actor
                size = len(state.side(seat).hand)
                draft.rule("A-5.6", cause, ev.HandChecked(seat=seat, size=size), seat=seat)
            elif sub == CLEANUP:
                ended = draft.rule("A-5.6", cause, ev.EffectsEnded(kept=tuple(p.card for p in state.pending)))
                begin_turn(draft, other(tp), ended)
            else:  # pragma: no cover
                return
        else:  # pragma: no cover
            return
    raise RuntimeError("alteil: the rules did not come to rest")  # pragma: no cover


@implements("A-3.1", "A-4.2", "A-4.3", "A-4.4", "A-4.5", "A-Q11")
def _after_mulligans(draft: D, cause: int | None) -> None:
    """A-Q11 in seed order: first player (A-4.2), battlefields (A-4.3), second's soul (A-4.4), influence (A-4.5)."""
    first = 1 + draft.rng.below(2)
    decided = draft.rule("A-4.2", cause, ev.FirstPlayerDecided(seat=first))
    for seat in (first, other(first)):
        deck = draft.state.side(seat).deck
        draft.rule("A-4.3", decided, ev.BattlefieldSet(seat=seat, cards=deck[:SQUARES]), seat=seat)
    gain_soul(draft, other(first), SECOND_PLAYER_SOUL, "A-4.4", decided)
    draft.rule("A-4.5", decided, ev.OpeningStarted())


@implements("A-5.4", "A-Q2")
def _start_skills(draft: D, cause: int | None) -> None:
    """A-5.4 / A-Q2: START skills on the field (turn player's first, by descending AGI), then NEXT effects."""
    state = draft.state
    tp = state.turn_seat
    for seat in (tp, other(tp)):
        units = sorted(draft.state.side(seat).units, key=lambda u: -agi(draft.state, u))
        for u in units:
            data = draft.state.data(u.card)
            if data and data.skill and data.skill.icon == "START" and draft.state.side(seat).unit(u.card):
                fired = draft.rule("A-5.4", cause, ev.SkillFired(seat=seat, card=u.card, icon="START"), seat=seat)
                apply(draft, seat, u.card, data.skill, 0, "A-5.4", fired)
    for p in state.pending:
        if p.turn < state.turn and draft.state.outcome is None:
            data = draft.state.data(p.card)
            fired = draft.rule("A-Q2", cause, ev.SkillFired(seat=p.seat, card=p.card, icon="NEXT"), seat=p.seat)
            if data and data.skill:
                apply(draft, p.seat, p.card, data.skill, 0, "A-Q2", fired)


@implements("A-5.5", "A-5.6", "A-11.1", "A-Q3", "A-Q5")
def _next_actor(draft: D, cause: int | None) -> None:
    """A-5.5 with A-Q5: among units that have not acted, the highest current AGI acts next; ties are
    chosen alternately from the turn player; units with AGI ≤ 0 wait; then the end phase.

    A-11.1: no summoning sickness — a unit placed in this turn's set phase acts like any other."""
    state = draft.state
    tp = state.turn_seat
    ready = [(seat, u) for seat in (tp, other(tp)) for u in state.side(seat).units if not u.acted]
    movers = [(seat, u, agi(state, u)) for seat, u in ready if agi(state, u) > 0]
    if not movers:
        for seat, u in ready:
            draft.rule("A-5.5", cause, ev.UnitWaited(seat=seat, card=u.card, forced=True), seat=seat)
        draft.rule("A-5.6", cause, ev.PhaseBegan(phase=END, seat=tp))
        return
    if state.sub == "":
        draft.rule("A-Q3", cause, ev.WindowOpened(seat=tp), seat=tp)
        return
    top = max(a for _, _, a in movers)
    tied = [(seat, u) for seat, u, a in movers if a == top]
    if len(tied) == 1:
        seat, u = tied[0]
        draft.rule("A-5.5", cause, ev.ActorNamed(seat=seat, card=u.card, agi=top), seat=seat)
        return
    chooser = tp if state.tie_agi != top else state.tie_seat
    if not any(seat == chooser for seat, _ in tied):
        chooser = other(chooser)
    draft.rule("A-5.5", cause, ev.TieChoice(seat=chooser, agi=top,
                                            units=tuple(u.card for seat, u in tied if seat == chooser)), seat=chooser)


# -- decide ----------------------------------------------------------------------------------------
@implements("A-1.4")
def decide(state: State, seat: int, command: c.Command, draft: D) -> None:
    if isinstance(command, c.Concede):
        if state.outcome is not None or seat not in awaiting(state):
            raise Illegal("A-1.4", f"seat {seat} may concede only when its decision is awaited")
        done = draft.decision(seat, ev.Conceded(seat=seat), clause="A-1.4")
        lose(draft, seat, "concession", "A-1.4", done)
        return
    allowed = opening_choices(state, seat) if state.step == OPENING and seat not in state.opened \
        else legal(state, seat)
    if command not in allowed:
        clause, reason = why_illegal(state, seat, command)
        raise Illegal(clause, reason)
    cause = _record(state, seat, command, draft)
    proceed(draft, cause)


@implements("A-1.1", "A-2.5", "A-4.1", "A-4.5", "A-5.2", "A-5.3", "A-5.6", "A-6.1", "A-6.2", "A-6.3", "A-6.4", "A-6.5",
            "A-8.1", "A-Q2", "A-Q3", "A-Q6", "A-Q8", "A-Q10", "A-C7")
def _record(state: State, seat: int, command: c.Command, draft: D) -> int:
    """Emit the decision and its immediate consequences; returns the decision's seq."""
    match command:
        case c.Mulligan(redraw=redraw):
            done = draft.decision(seat, ev.MulliganDecided(seat=seat, redraw=redraw), clause="A-4.1")
            if redraw:
                hand = state.side(seat).hand
                draft.rule("A-4.1", done, ev.HandReturned(seat=seat, cards=hand), seat=seat)
                order = draft.rng.shuffled(draft.state.side(seat).deck)
                draft.rule("A-4.1", done, ev.DeckShuffled(seat=seat, order=order), seat=seat)
                draft.rule("A-4.1", done, ev.CardsDrawn(seat=seat, cards=order[:HAND_START]), seat=seat)
            return done
        case c.PlaceInfluence(card=card) if state.step == OPENING:
            return draft.decision(seat, ev.OpeningInfluence(seat=seat, card=card), clause="A-4.5")
        case c.NoInfluence():
            return draft.decision(seat, ev.OpeningInfluence(seat=seat, card=0), clause="A-4.5")
        case c.PlaceInfluence(card=card):
            god = cast(CardData, state.data(card)).god   # (a card of the hand: the catalogue has it)
            return draft.decision(seat, ev.InfluencePlaced(seat=seat, card=card, god=god), clause="A-5.2")
        case c.EndInfluence():
            return draft.decision(seat, ev.InfluenceEnded(seat=seat), clause="A-5.2")
        case c.PlaceUnit(card=card, square=square):
            done = draft.decision(seat, ev.UnitPlaced(seat=seat, card=card, square=square), clause="A-5.3")
            pay_soul(draft, seat, cast(CardData, state.data(card)).lv, "A-5.3", done)
            return done
        case c.PassSet():
            return draft.decision(seat, ev.SetPassed(seat=seat), clause="A-Q6")
        case c.Pass():
            return draft.decision(seat, ev.WindowPassed(seat=seat), clause="A-Q3" if state.step == ACTION else "A-5.4")
        case c.UseGrimoire(card=card, target=target, discard=discard):
            data = state.data(card)
            assert data is not None
            clause = "A-5.4" if data.start else "A-Q3"
            done = draft.decision(seat, ev.GrimoireUsed(seat=seat, card=card, target=target, discard=discard),
                                  clause=clause)
            pay_soul(draft, seat, data.cost_soul, "A-2.5", done)
            if discard:
                draft.rule("A-2.5", done, ev.CardDiscarded(seat=seat, card=discard), seat=seat)
            if data.skill is not None:
                apply(draft, seat, card, data.skill, target, clause, done)
            return done
        case c.ChooseActor(card=card):
            return draft.decision(seat, ev.ActorChosen(seat=seat, card=card), clause="A-5.5")
        case c.Wait(card=card):
            return draft.decision(seat, ev.UnitWaited(seat=seat, card=card), clause="A-6.2")
        case c.Move(card=card, square=square):
            return draft.decision(seat, ev.UnitMoved(seat=seat, card=card, square=square), clause="A-6.1")
        case c.UseSkill(card=card, target=target):
            data = state.data(card)
            assert data is not None and data.skill is not None
            done = draft.decision(seat, ev.SkillUsed(seat=seat, card=card, target=target), clause="A-6.3")
            pay_soul(draft, seat, data.skill.cost, "A-6.3", done)
            if data.skill.icon == "NEXT":
                draft.rule("A-Q2", done, ev.NextScheduled(seat=seat, card=card), seat=seat)
            else:
                apply(draft, seat, card, data.skill, target, "A-6.3", done)
            return done
        case c.Attack(card=card, target=target):
            done = draft.decision(seat, ev.Attacked(seat=seat, card=card, target=target), clause="A-6.4")
            s = draft.state
            attacker = s.side(seat).unit(card)
            defender = s.side(other(seat)).unit(target)
            assert attacker is not None and defender is not None
            deal(draft, target, max(0, at(s, attacker) - df(s, defender)), "A-8.1", done)
            return done
        case c.AttackBattlefield(card=card, square=square):
            done = draft.decision(seat, ev.BattlefieldAttacked(seat=seat, card=card, square=square), clause="A-6.5")
            opp = other(seat)
            # A-Q10: a unit never stands on a destroyed square, so "no units" means none anywhere
            assert not any(state.side(opp).destroyed[u.square - 1] for u in state.side(opp).units)
            victim = state.side(opp).squares[square - 1]
            hit = draft.rule("A-6.5", done, ev.BattlefieldDestroyed(seat=opp, square=square, card=victim), seat=opp)
            data = draft.state.data(victim)
            if data is not None and data.skill is not None and data.skill.icon == "SOUL":
                fired = draft.rule("A-6.5", hit, ev.SkillFired(seat=opp, card=victim, icon="SOUL"), seat=opp)
                apply(draft, opp, victim, data.skill, 0, "A-6.5", fired)
            if draft.state.side(opp).life == 0:
                lose(draft, opp, "battlefield", "A-1.1", hit)
            return done
        case c.DiscardForSoul(card=card):
            done = draft.decision(seat, ev.DiscardedForSoul(seat=seat, card=card), clause="A-5.6")
            gain_soul(draft, seat, 1, "A-5.6", done)
            return done
        case c.EndDiscards():
            done = draft.decision(seat, ev.DiscardsEnded(seat=seat), clause="A-5.6")
            if not LIMIT_BOTH and seat != state.turn_seat:  # pragma: no cover - A-Q8 alternative
                draft.rule("A-Q8", done, ev.HandChecked(seat=seat, size=len(state.side(seat).hand)), seat=seat)
            return done
        case c.DiscardToLimit(card=card):
            return draft.decision(seat, ev.DiscardedToLimit(seat=seat, card=card), clause="A-5.6")
    raise Illegal("A-5", f"{command!r} is not a decision of this game")  # pragma: no cover


@implements("A-2.5", "A-3.1", "A-3.2", "A-4.1", "A-5.2", "A-5.3", "A-5.5", "A-5.6", "A-6.1", "A-6.3", "A-6.4", "A-6.5",
            "A-7.2", "A-10.2", "A-Q2", "A-Q3", "A-Q4")
def why_illegal(state: State, seat: int, command: c.Command) -> tuple[str, str]:
    """The clause that forbids ``command`` now, and why, in words."""
    if state.outcome is not None:
        return "A-1", "the match is over"
    if seat not in awaiting(state):
        return waiting_clause(state), f"the rules wait for {sorted(awaiting(state)) or 'nobody'}, not seat {seat}"
    side = state.side(seat)
    step = state.step
    match command:
        case c.Mulligan():
            return "A-4.1", "the mulligan is decided once, at setup"
        case c.PlaceInfluence(card=card):
            if step not in (OPENING, INFLUENCE):
                return "A-5.2", "influence is placed only in the influence phase"
            data = state.data(card)
            if card not in side.hand or data is None:
                return "A-5.2", f"card {card} is not in seat {seat}'s hand"
            if not data.unit:
                return "A-2.5", f"{data.name} is a grimoire; a grimoire cannot be used as influence"
            return "A-5.2", f"{data.god} already got its one influence card this phase"
        case c.PlaceUnit(card=card, square=square):
            if step != SET:
                return "A-5.3", "units are placed only in the set phase"
            data = state.data(card)
            if card not in side.hand or data is None:
                return "A-5.3", f"card {card} is not in seat {seat}'s hand"
            if not 1 <= square <= SQUARES:
                return "A-3.1", f"square {square} does not exist (1-6)"
            if side.destroyed[square - 1]:
                return "A-3.2", f"square {square} is destroyed and no longer works"
            if square not in working_empty(side):
                return "A-5.3", f"square {square} already holds a unit"
            why = placeable(state, seat, data)
            reasons = {"A-2.5": f"{data.name} is a grimoire, not a unit",
                       "A-5.3": f"{data.god} influence {influence(state, seat, data.god)} is below LV {data.lv}",
                       "A-10.2": f"{len(side.soul)} soul power cannot pay LV {data.lv}",
                       "A-Q4": f"a unit named {data.name} is already on the field"}
            return why or "A-5.3", reasons.get(why, "not placeable now")
        case c.UseGrimoire(card=card):
            data = state.data(card)
            if card not in side.hand or data is None or data.unit:
                return "A-2.5", f"card {card} is not a grimoire in seat {seat}'s hand"
            if state.sub != WINDOW:
                return "A-Q3", "grimoires are used only in a grimoire window"
            if data.start != (step == START):
                return "A-Q2", "START grimoires only in the start phase; others only in the action phase"
            if influence(state, seat, data.god) < data.lv:
                return "A-Q3", f"{data.god} influence is below LV {data.lv}"
            return "A-2.5", "its cost cannot be paid or its target is not valid"
        case c.Attack(card=card, target=target):
            u = side.unit(card)
            if step != ACTION or state.sub != ACT or card != state.acting or u is None:
                return "A-5.5", f"unit {card} is not the unit acting now"
            if not state.side(other(seat)).units:
                return "A-6.4", "a normal attack needs an opposing unit"
            if not attack_targets(state, seat, u):
                return "A-6.4", "a back-row unit may not attack while its own front row holds a unit"
            return "A-7.2", f"unit {target} is not on the opponent's front line"
        case c.AttackBattlefield():
            if step == ACTION and state.sub == ACT and state.side(other(seat)).units:
                return "A-6.5", "a battlefield attack is allowed only when the opponent has no units"
            return "A-6.5", "not a battlefield attack allowed now"
        case c.Move(square=square):
            if step == ACTION and state.sub == ACT and 1 <= square <= SQUARES and side.destroyed[square - 1]:
                return "A-3.2", f"square {square} is destroyed"
            return "A-6.1", "a unit moves only as its action, to an empty working own square"
        case c.UseSkill():
            return "A-6.3", "no ACTION skill usable now (not acting, cost or target)"
        case c.ChooseActor():
            return "A-5.5", "not a tied unit of this seat that may act next"
        case c.DiscardForSoul() | c.EndDiscards():
            return "A-5.6", "discarding for soul happens in the end phase"
        case c.DiscardToLimit():
            return "A-5.6", f"the hand is within the limit of {HAND_LIMIT} or this is not the end phase"
    return waiting_clause(state), f"{type(command).__name__} is not a decision seat {seat} may take now"


def waiting_clause(state: State) -> str:
    """The clause that says whose decision it is now."""
    return {MULLIGAN: "A-4.1", OPENING: "A-4.5", INFLUENCE: "A-5.2", SET: "A-Q6", START: "A-5.4",
            ACTION: "A-5.5", END: "A-5.6"}.get(state.step, "A-5")
