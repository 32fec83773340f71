"""``evolve``: the dumb fold. One case per event, no checks, no randomness."""
from __future__ import annotations

from msgspec.structs import replace

from domain.core.ruleset import Outcome

from . import events as ev
from .state import Combat, Heart, Side, State, TableSpell, Tower, Unit
from .vocabulary import Phase, Status


def _set_side(state: State, seat: int, side: Side) -> State:
    sides = (side, state.sides[1]) if seat == 1 else (state.sides[0], side)
    return replace(state, sides=sides)


def _with(seq: tuple, index: int, value: object) -> tuple:
    return seq[:index] + (value,) + seq[index + 1:]


def _unit(side: Side, line: int) -> Unit:
    unit = side.stage[line - 1]
    assert unit is not None
    return unit


def _set_unit(side: Side, line: int, unit: Unit | None) -> Side:
    return replace(side, stage=_with(side.stage, line - 1, unit))


_ZONES = ("hand", "deck", "soul", "grave", "seal")


def _take(state: State, seat: int, zone: str, card: int, line: int) -> State:
    side = state.side(seat)
    if zone in _ZONES:
        return _set_side(state, seat, replace(side, **{zone: tuple(c for c in getattr(side, zone) if c != card)}))
    if zone == "stage":
        return _leave_stage(state, seat, line, card)
    if zone == "table":
        return _set_side(state, seat, replace(side, table=_with(side.table, line - 1, None)))
    if zone == "heart":
        return _set_side(state, seat, replace(side, hearts=tuple(h for h in side.hearts if h.card != card)))
    raise ValueError(f"unknown zone {zone}")


def _put(state: State, owner: int, zone: str, card: int) -> State:
    side = state.side(owner)
    return _set_side(state, owner, replace(side, **{zone: getattr(side, zone) + (card,)}))


def _leave_stage(state: State, seat: int, line: int, card: int) -> State:
    """A unit leaving the stage takes every effect on it along (W-14.1)."""
    state = _set_side(state, seat, _set_unit(state.side(seat), line, None))
    if any(e.target == card for e in state.effects):
        state = replace(state, effects=tuple(e for e in state.effects if e.target != card))
    return state


def evolve(state: State, event: ev.Event) -> State:  # noqa: C901 — one flat case per event
    match event:
        case ev.PositionPrepared(state=prepared):
            return prepared
        case ev.DeckShuffled(seat=seat, order=order):
            return _set_side(state, seat, replace(state.side(seat), deck=order))
        case ev.HeartsSet(seat=seat, hearts=hearts):
            side = state.side(seat)
            taken = set(hearts)
            return _set_side(state, seat, replace(
                side, deck=tuple(c for c in side.deck if c not in taken),
                hearts=tuple(Heart(card=c, face_up=i == 0) for i, c in enumerate(hearts))))
        case ev.CoinTossed(winner=winner):
            return replace(state, chooser=winner)
        case ev.OrderChosen(seat=seat, go_first=go_first):
            first = seat if go_first else 3 - seat
            return replace(state, first_seat=first, phase=Phase.MULLIGAN)
        case ev.CardsDrawn(seat=seat, cards=cards):
            side = state.side(seat)
            return _set_side(state, seat, replace(side, deck=side.deck[len(cards):], hand=side.hand + cards))
        case ev.MulliganTaken(seat=seat):
            return _set_side(state, seat, replace(state.side(seat), mulligan="taken"))
        case ev.MulliganDeclined(seat=seat):
            return _set_side(state, seat, replace(state.side(seat), mulligan="kept"))
        case ev.HandReturned(seat=seat, cards=cards):
            side = state.side(seat)
            gone = set(cards)
            return _set_side(state, seat, replace(side, hand=tuple(c for c in side.hand if c not in gone),
                                                  deck=side.deck + cards))
        case ev.GameBegan():
            return state
        case ev.TurnBegan(turn=turn, seat=seat):
            return replace(state, turn=turn, turn_seat=seat, phase=Phase.START, tower_set=False)
        case ev.PhaseBegan(phase=phase):
            return replace(state, phase=phase)
        case ev.Recovered(seat=seat, towers=towers, units=units, tables=tables):
            side = state.side(seat)
            tw = list(side.towers)
            for line in towers:
                tw[line - 1] = replace(tw[line - 1], broken=False)
            st = list(side.stage)
            for line in units:
                st[line - 1] = replace(_unit(side, line), broken=False)
            tb = list(side.table)
            for line in tables:
                tb[line - 1] = replace(tb[line - 1], broken=False)
            return _set_side(state, seat, replace(side, towers=tuple(tw), stage=tuple(st), table=tuple(tb)))
        case ev.DamageRemoved(seat=seat, lines=lines):
            side = state.side(seat)
            st = list(side.stage)
            for line in lines:
                st[line - 1] = replace(_unit(side, line), damage=0)
            return _set_side(state, seat, replace(side, stage=tuple(st)))
        case ev.HeartRecovered(seat=seat, index=index):
            side = state.side(seat)
            return _set_side(state, seat, replace(
                side, hearts=_with(side.hearts, index, replace(side.hearts[index], broken=False))))
        case ev.FirstTurnSkips() | ev.DeckOut() | ev.PhaseLeft() | ev.SummonDeclared():
            return state
        case ev.CardDrawn(seat=seat, card=card):
            side = state.side(seat)
            return _set_side(state, seat, replace(side, deck=side.deck[1:], hand=side.hand + (card,)))
        case ev.SleepRemoved(seat=seat, lines=lines):
            side = state.side(seat)
            st = list(side.stage)
            for line in lines:
                st[line - 1] = replace(_unit(side, line), status=None)
            return _set_side(state, seat, replace(side, stage=tuple(st)))
        case ev.TowerSet(seat=seat, card=card, line=line, broken=broken):
            side = state.side(seat)
            tower = side.towers[line - 1]
            side = replace(side, hand=tuple(c for c in side.hand if c != card),
                           towers=_with(side.towers, line - 1, Tower(cards=tower.cards + (card,), broken=broken)))
            return replace(_set_side(state, seat, side), tower_set=True)
        case ev.CostPaid(seat=seat, towers=towers, souls=souls):
            side = state.side(seat)
            tw = list(side.towers)
            for line in towers:
                tw[line - 1] = replace(tw[line - 1], broken=True)
            spent = set(souls)
            return _set_side(state, seat, replace(
                side, towers=tuple(tw), soul=tuple(c for c in side.soul if c not in spent),
                grave=side.grave + souls))
        case ev.KeeperBroken(seat=seat, line=line) | ev.UnitBroken(seat=seat, line=line):
            side = state.side(seat)
            return _set_side(state, seat, _set_unit(side, line, replace(_unit(side, line), broken=True)))
        case ev.UnitSummoned(seat=seat, card=card, line=line, asleep=asleep):
            side = state.side(seat)
            side = replace(side, hand=tuple(c for c in side.hand if c != card),
                           hearts=tuple(h for h in side.hearts if h.card != card))
            return _set_side(state, seat, _set_unit(side, line, Unit(card=card, status=Status.SLEEP if asleep else None)))
        case ev.UnitMoved(seat=seat, line=line, to=to):
            side = state.side(seat)
            unit = side.stage[line - 1]
            return _set_side(state, seat, _set_unit(_set_unit(side, line, None), to, unit))
        case ev.AttackDeclared(line=line, card=card):
            return replace(state, combat=Combat(attacker=line, attacker_card=card))
        case ev.TargetDeclared(line=line):
            assert state.combat is not None
            return replace(state, combat=replace(state.combat, target=line))
        case ev.BlockDeclared() | ev.EvadeDeclared() | ev.NoDefenseDeclared() | ev.PlayerAttacked():
            return state
        case ev.DefenseFixed(line=line, card=card, on_player=on_player):
            assert state.combat is not None
            return replace(state, combat=replace(state.combat, defended=True, defender=line,
                                                 defender_card=card, on_player=on_player))
        case ev.CombatDamage(seat=seat, line=line, amount=amount):
            side = state.side(seat)
            unit = _unit(side, line)
            return _set_side(state, seat, _set_unit(side, line, replace(unit, damage=unit.damage + amount)))
        case ev.HeartsBroken(seat=seat, indexes=indexes):
            side = state.side(seat)
            hearts = list(side.hearts)
            for i in indexes:
                hearts[i] = replace(hearts[i], broken=True)
            return _set_side(state, seat, replace(side, hearts=tuple(hearts)))
        case ev.LifeLost(seat=seat, life=life):
            return _set_side(state, seat, replace(state.side(seat), life=life))
        case ev.UnitDestroyed(seat=seat, line=line, card=card):
            state = _leave_stage(state, seat, line, card)
            owner = card // 1000
            side = state.side(owner)
            return _set_side(state, owner, replace(side, soul=side.soul + (card,)))
        case ev.UnitVanished(seat=seat, line=line, card=card):
            state = _leave_stage(state, seat, line, card)
            owner = card // 1000
            side = state.side(owner)
            return _set_side(state, owner, replace(side, grave=side.grave + (card,)))
        case ev.CombatEnded():
            return replace(state, combat=None)
        case ev.PlayerLost(seat=seat, reason=reason):
            return _set_side(state, seat, replace(state.side(seat), lost=reason))
        case ev.MatchEnded(termination=termination, winner=winner):
            return replace(state, phase=Phase.OVER, combat=None, choice=None, window=None, queue=(),
                           outcome=Outcome(termination=termination, winner=winner, clause="W-1.1"))
        case ev.SpellResolved(seat=seat, line=line) | ev.SpellFizzled(seat=seat, line=line):
            w = state.window
            if w is not None and w.chain and w.chain[-1] == seat * 10 + line:
                return replace(state, window=replace(w, chain=w.chain[:-1]))
            return state
        case ev.SkillFizzled(queued=True):
            return replace(state, queue=state.queue[1:])
        case (ev.SpellCast() | ev.SkillActivated() | ev.SkillFizzled() | ev.SkillResolved() | ev.PlayerDamaged()
              | ev.DamagePrevented() | ev.DestroyPrevented()):
            return state
        case ev.SpellPlaced(seat=seat, card=card, line=line, targets=targets, waiting=waiting):
            side = state.side(seat)
            side = replace(side, hand=tuple(c for c in side.hand if c != card),
                           table=_with(side.table, line - 1, TableSpell(card=card, targets=targets, waiting=waiting)))
            state = _set_side(state, seat, side)
            if waiting and state.window is not None:
                w = state.window
                state = replace(state, window=replace(w, chain=w.chain + (seat * 10 + line,), passes=0,
                                                      seat=3 - seat))
            return state
        case ev.SpellStays(seat=seat, line=line, since=since):
            side = state.side(seat)
            spell = side.table[line - 1]
            return _set_side(state, seat, replace(side, table=_with(side.table, line - 1,
                                                                    replace(spell, since=since, waiting=False))))
        case ev.SpellBroken(seat=seat, line=line):
            side = state.side(seat)
            return _set_side(state, seat, replace(side, table=_with(side.table, line - 1,
                                                                    replace(side.table[line - 1], broken=True))))
        case ev.CardMoved(card=card, src=src, dst=dst, seat=seat, line=line):
            state = _take(state, seat, src, card, line)
            return _put(state, card // 1000, dst, card)
        case ev.CardsMilled(seat=seat, cards=cards):
            side = state.side(seat)
            gone = set(cards)
            state = _set_side(state, seat, replace(side, deck=tuple(c for c in side.deck if c not in gone)))
            owner = state.side(seat)
            return _set_side(state, seat, replace(owner, grave=owner.grave + cards))
        case ev.HeartCast(seat=seat, card=card, soul=soul):
            side = state.side(seat)
            return _set_side(state, seat, replace(side, soul=tuple(c for c in side.soul if c != soul),
                                                  grave=side.grave + (soul,),
                                                  hearts=tuple(h for h in side.hearts if h.card != card)))
        case ev.HeartRevealed(seat=seat, card=card):
            side = state.side(seat)
            return _set_side(state, seat, replace(side, hearts=tuple(
                replace(h, face_up=True) if h.card == card else h for h in side.hearts)))
        case ev.SkillTriggered(trigger=trigger):
            return replace(state, queue=state.queue + (trigger,))
        case ev.ChoiceAwaited(choice=choice):
            return replace(state, choice=choice, queue=state.queue[1:])
        case ev.TriggerResolves():
            return replace(state, queue=state.queue[1:])
        case ev.TargetsChosen() | ev.SkillDeclined():
            return replace(state, choice=None)
        case ev.EffectAdded(effect=effect):
            return replace(state, effects=state.effects + (effect,))
        case ev.EffectsEnded(ids=ids):
            gone = set(ids)
            return replace(state, effects=tuple(e for e in state.effects if e.id not in gone))
        case ev.StatusGiven(seat=seat, line=line, status=status):
            side = state.side(seat)
            return _set_side(state, seat, _set_unit(side, line, replace(_unit(side, line), status=Status(status))))
        case ev.StatusRemoved(seat=seat, line=line) | ev.RecoveryCancelled(seat=seat, line=line):
            side = state.side(seat)
            return _set_side(state, seat, _set_unit(side, line, replace(_unit(side, line), status=None)))
        case ev.UnitDamaged(seat=seat, line=line, amount=amount):
            side = state.side(seat)
            unit = _unit(side, line)
            return _set_side(state, seat, _set_unit(side, line, replace(unit, damage=unit.damage + amount)))
        case ev.LifeGained(seat=seat, life=life):
            return _set_side(state, seat, replace(state.side(seat), life=life))
        case ev.UnitRegenerated(seat=seat, line=line):
            side = state.side(seat)
            return _set_side(state, seat, _set_unit(side, line, replace(_unit(side, line), damage=0, broken=True)))
        case ev.UnitShifted(seat=seat, line=line, to=to):
            side = state.side(seat)
            unit = side.stage[line - 1]
            return _set_side(state, seat, _set_unit(_set_unit(side, line, None), to, unit))
        case ev.ControlGained(seat=seat, src_line=src_line, line=line):
            loser = state.side(3 - seat)
            unit = loser.stage[src_line - 1]
            state = _set_side(state, 3 - seat, _set_unit(loser, src_line, None))
            return _set_side(state, seat, _set_unit(state.side(seat), line, unit))
        case ev.UnitSummonedFree(seat=seat, card=card, line=line, src=src):
            state = _take(state, seat, src, card, 0)
            return _set_side(state, seat, _set_unit(state.side(seat), line, Unit(card=card)))
        case ev.WindowOpened(window=window):
            return replace(state, window=window)
        case ev.Passed(seat=seat):
            w = state.window
            assert w is not None
            return replace(state, window=replace(w, passes=w.passes + 1, seat=3 - seat))
        case ev.ChainResolving():
            assert state.window is not None
            return replace(state, window=replace(state.window, resolving=True))
        case ev.WindowClosed():
            return replace(state, window=None)
        case ev.CombatStep(step=step):
            assert state.combat is not None
            return replace(state, combat=replace(state.combat, step=step))
    raise TypeError(f"evolve has no case for {type(event).__name__}")
