"""``legal``: exactly the decisions the rules allow a seat now, payments and targets included."""
from __future__ import annotations

from functools import partial
from itertools import product
from typing import Any, Callable, Sequence

from . import commands as c
from .activate import why_not
from .cards import CardDef
from .combat import blockers, evader, targets as attack_targets
from .decide import awaiting
from .geometry import adjacent, lines
from .hearts import heart_souls, top_heart
from .options import Build, Options
from .payment import Payments, payer
from .spells import may_cast_now, on_own_spot, spell_cost, targeting_skill
from .state import State
from .stats import definition, unit_stat
from .targets import options as options_of
from .turns import proceed_targets
from .vocabulary import TOWER_MAX, Phase, Status


def legal(state: State, seat: int) -> list[c.Command]:
    return list(options(state, seat))


def options(state: State, seat: int) -> Options:
    """``legal`` as ``Options``: the payment × spot × target products are built only when read."""
    out = Options()
    if awaiting(state) != seat:
        return out
    match state.phase:
        case Phase.ORDER:
            out.add([c.ChooseOrder(go_first=True), c.ChooseOrder(go_first=False)])
            return out
        case Phase.MULLIGAN:
            out.add([c.Mulligan(redraw=False), c.Mulligan(redraw=True)])
            return out
    if state.choice is not None:
        choice = state.choice
        out.add([c.Choose(targets=(o,)) for o in choice.options] or [c.Choose()])
        if choice.optional:
            out.add([c.Decline()])
            out.tail = 1
        return out
    if state.window is not None:
        out.add([c.Pass()])
        out.head = 1
        _casts(out, state, seat)
        return out
    combat = state.combat
    if combat is not None:
        if combat.step == "target":
            out.add([c.Target(line=line) for line, _ in attack_targets(state)])
        elif combat.step == "defend":
            defences: list[c.Command] = [c.Block(line=line) for line, _, _ in blockers(state)]
            if evader(state) is not None:
                defences.append(c.Evade())
            defences.append(c.NoDefense())
            out.add(defences)
        return out
    if state.phase in (Phase.MAIN1, Phase.MAIN2):
        _main_actions(out, state, seat)
    elif state.phase == Phase.BATTLE:
        out.add(_attacks(state, seat))
    proceeds = [c.Proceed(to=to) for to in proceed_targets(state)]  # type: ignore[arg-type]
    out.add(proceeds)
    out.tail = len(proceeds)
    return out


class _Pays:
    """The payments of one seat now, by cost: its towers and souls looked at once per ``legal``."""

    __slots__ = ("_state", "_seat", "_payer", "_by_cost")

    def __init__(self, state: State, seat: int) -> None:
        self._state, self._seat = state, seat
        self._payer: Callable[[int], Payments] | None = None
        self._by_cost: dict[int, Payments] = {}

    def __call__(self, cost: int) -> Payments:
        found = self._by_cost.get(cost)
        if found is None:
            if self._payer is None:
                self._payer = payer(self._state, self._seat)
            found = self._by_cost[cost] = self._payer(cost)
        return found


def _main_actions(out: Options, state: State, seat: int) -> None:
    side = state.side(seat)
    if not state.tower_set:
        open_lines = [line for line in lines() if side.towers[line - 1].height < TOWER_MAX]
        out.add_product(len(side.hand) * len(open_lines), partial(_set_tower, side.hand, open_lines))
    pays_for = _Pays(state, seat)
    empty = [line for line in lines() if side.stage[line - 1] is None]
    heart = top_heart(state, seat)
    if empty:
        for card in side.hand:
            d = definition(state, card)
            if d.is_unit:
                out.add_product(*_paid(pays_for(d.lv), empty, partial(_summon, card)))
        extras = heart_souls(state, seat, heart) if heart and definition(state, heart).is_unit else []
        if extras:    # the face-up top heart, paying one more soul on top (W-11.4)
            assert heart is not None
            pays = pays_for(definition(state, heart).lv)
            out.add([c.Summon(card=heart, line=line, towers=towers, souls=souls, heart=True, heart_soul=extra)
                     for extra in extras for towers, souls in pays if extra not in souls for line in empty])
    _casts(out, state, seat, pays_for)
    _activations(out, state, seat, pays_for)
    moves = []
    for index, unit in enumerate(side.stage):
        if unit is None or unit.broken or unit.status in (Status.SLEEP, Status.RAGE):
            continue
        line = index + 1
        moves.extend(c.Move(line=line, to=to) for to in adjacent(line) if side.stage[to - 1] is None)
    out.add(moves)


def _casts(out: Options, state: State, seat: int, pays_for: _Pays | None = None) -> None:
    """Every spell cast open to ``seat`` now: card × table spot × payment × targets (× heart soul)."""
    pays_for = _Pays(state, seat) if pays_for is None else pays_for
    side = state.side(seat)
    spots = [line for line in lines() if side.table[line - 1] is None]
    if not spots:
        return
    heart = top_heart(state, seat)
    for card, from_heart in [(card, False) for card in side.hand] + ([(heart, True)] if heart else []):
        d: CardDef = definition(state, card)
        if not d.is_spell or may_cast_now(state, seat, d) is not None:
            continue
        skill = targeting_skill(d)
        choices: list[tuple[int, ...]] = [()]
        if skill is not None:
            choices = [(t,) for t in options_of(state, skill, seat, card)]
            if not choices:
                continue
        extras: list[int | None] = heart_souls(state, seat, card) if from_heart else [None]
        for line in spots:
            pays = pays_for(spell_cost(state, seat, card, line))
            aimed = choices if skill is None else [t for t in choices if not (t and on_own_spot(skill, line, t[0]))]
            if from_heart:
                out.add([c.Cast(card=card, line=line, towers=towers, souls=souls, targets=chosen, heart=True,
                                heart_soul=extra)
                         for (towers, souls), chosen, extra in product(pays, aimed, extras) if extra not in souls])
            else:
                out.add_product(*_paid(pays, aimed, partial(_cast, card, line)))


def _activations(out: Options, state: State, seat: int, pays_for: _Pays) -> None:
    side = state.side(seat)
    sources = [u.card for u in side.stage if u is not None] + [t.card for t in side.table if t is not None]
    for card in sources:
        for index, skill in enumerate(definition(state, card).skill):
            if skill.mark != "!" or why_not(state, seat, card, index) is not None:
                continue
            choices: list[tuple[int, ...]] = [()]
            if skill.target is not None:
                choices = [(t,) for t in options_of(state, skill, seat, card)]
            out.add_product(*_paid(pays_for(skill.cost), choices, partial(_activate, card, index)))


def _paid(pays: Payments, each: Sequence[Any], make: Callable[..., c.Command]) -> tuple[int, Build]:
    """Every payment with every one of ``each`` (a spot or a target), in that order, as a product
    whose i-th decision ``make(towers, souls, one)`` is built when read."""
    size = len(each)

    def build(i: int) -> c.Command:
        towers, souls = pays[i // size]
        return make(towers, souls, each[i % size])

    return len(pays) * size, build


def _set_tower(hand: tuple[int, ...], open_lines: list[int], i: int) -> c.Command:
    """The i-th tower set: every hand card in order, on each open line in turn."""
    return c.SetTower(card=hand[i // len(open_lines)], line=open_lines[i % len(open_lines)])


def _summon(card: int, towers: tuple[int, ...], souls: tuple[int, ...], line: int) -> c.Command:
    return c.Summon(card=card, line=line, towers=towers, souls=souls)


def _cast(card: int, line: int, towers: tuple[int, ...], souls: tuple[int, ...], targets: tuple[int, ...]) -> c.Command:
    return c.Cast(card=card, line=line, towers=towers, souls=souls, targets=targets)


def _activate(card: int, skill: int, towers: tuple[int, ...], souls: tuple[int, ...],
              targets: tuple[int, ...]) -> c.Command:
    return c.Activate(card=card, skill=skill, towers=towers, souls=souls, targets=targets)


def _attacks(state: State, seat: int) -> list[c.Command]:
    out: list[c.Command] = []
    for index, unit in enumerate(state.side(seat).stage):
        if unit is None or unit.broken or unit.status == Status.SLEEP:
            continue
        if unit_stat(state, seat, index + 1, "AGI") >= 1:
            out.append(c.Attack(line=index + 1))
    return out
