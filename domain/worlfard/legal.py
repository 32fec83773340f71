"""``legal``: exactly the decisions the rules allow a seat now, payments and targets included."""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from itertools import product
from typing import Any, cast

from msgspec.structs import replace

from kifu.domain.core.memo import Memo, Slot
from kifu.domain.core.options import Options

from . import commands as c
from .card_facts import Facts, match_facts
from .card_facts import Table as CardTable
from .combat import blockers, evader
from .combat import targets as attack_targets
from .decide import awaiting
from .field import all_negated, touched
from .geometry import adjacent, lines
from .hearts import heart_souls, top_heart
from .payment import NO_PAYMENTS, Payer, Payments, payer
from .spells import cast_cost, cast_refused, on_own_spot
from .state import State
from .stats import unit_stat
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
        out.add(_PASS)
        out.head = 1
        side = state.sides[seat - 1]
        facts = match_facts(state.names)
        heart = top_heart(state, seat)
        if _holds_short(seat, side.hand, facts) or (heart and facts[heart].short):   # (W-10.2: nothing else)
            spots = [line for line, spell in enumerate(side.table, 1) if spell is None]
            if spots:
                _casts(out, state, seat, facts, _Pays(state, seat), spots)
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
    proceeds = _proceeds(proceed_targets(state))
    out.add(proceeds)
    out.tail = len(proceeds)
    return out


_PASS = (c.Pass(),)
_PROCEEDS: Memo[tuple[str, ...], tuple[c.Command, ...]] = Memo("worlfard.proceeds", bound=256)


def _proceeds(targets: tuple[str, ...]) -> tuple[c.Command, ...]:
    """The Proceed decisions to ``targets`` (a handful of phase lists recur, so each is built once)."""
    found = _PROCEEDS.get(targets)
    if found is None:
        found = _PROCEEDS[targets] = tuple(c.Proceed(to=cast(c.Step, to)) for to in targets)
    return found


def _holds_short(seat: int, hand: tuple[int, ...], facts: CardTable) -> bool:
    """Whether ``hand`` holds a Short Spell, the only kind cast in a reaction window (W-10.2). A
    window passes back and forth over the same hands, so each seat's last answer is kept by its
    hand (the same object until a card comes or goes) and the match's card table."""
    slot = _shorts[seat - 1]
    last = slot.value
    if last[0] is not hand or last[1] is not facts:
        last = slot.value = (hand, facts, any(facts[card].short for card in hand))
    return last[2]


# per seat: (the hand asked about, the card table, whether it holds a Short Spell)
_shorts: tuple[Slot[tuple[tuple[int, ...] | None, CardTable | None, bool]], ...] = (
    Slot("worlfard.holds_short.1", (None, None, False)), Slot("worlfard.holds_short.2", (None, None, False)))


def _holds_spell(seat: int, hand: tuple[int, ...], facts: CardTable) -> bool:
    """Whether ``hand`` holds a spell (half the main phase's hands hold none, and then no cast
    is listed from the hand): kept per seat by its hand, as ``_holds_short``."""
    slot = _spells[seat - 1]
    last = slot.value
    if last[0] is not hand or last[1] is not facts:
        last = slot.value = (hand, facts, not all(facts[card].unit for card in hand))
    return last[2]


# per seat: (the hand asked about, the card table, whether it holds a spell)
_spells: tuple[Slot[tuple[tuple[int, ...] | None, CardTable | None, bool]], ...] = (
    Slot("worlfard.holds_spell.1", (None, None, False)), Slot("worlfard.holds_spell.2", (None, None, False)))


class _Pays:
    """The payer of one seat now (``payer``: a table of payments by cost, read ``pay[cost]``):
    its towers and souls looked at once per ``legal``, and only if some decision needs paying."""

    __slots__ = ("_state", "_seat", "_ready", "_pay")

    def __init__(self, state: State, seat: int, ready: list[int] | None = None) -> None:
        self._state, self._seat, self._ready = state, seat, ready
        self._pay: Payer | None = None

    def payer(self) -> Payer:
        pay = self._pay
        if pay is None:
            pay = self._pay = payer(self._state, self._seat, self._ready)
        return pay


def _main_actions(out: Options, state: State, seat: int) -> None:
    side = state.sides[seat - 1]
    stage, towers, hand = side.stage, side.towers, side.hand
    known = match_facts.last     # (the match asked last, read without a call: this runs at most decisions)
    facts: CardTable = known[1] if known[0] is state.names else match_facts(state.names)
    if not state.tower_set:
        open_lines = [line for line, tower in enumerate(towers, 1) if len(tower.cards) < TOWER_MAX]
        out.add_product(len(hand) * len(open_lines), partial(_set_tower, hand, open_lines))
    # one pass over the stage row: empty spots, moves, activated skills, and the towers that may
    # break (W-6.3: whole and ready, with no keeper or a ready one)
    empty: list[int] = []
    moves: list[c.Command] = []
    sources: list[int] = []
    ready: list[int] = []
    for line, unit in enumerate(stage, 1):
        tower = towers[line - 1]
        if unit is None:
            empty.append(line)
            if tower.cards and not tower.broken:
                ready.append(line)
            continue
        if not unit.broken:
            if tower.cards and not tower.broken:
                ready.append(line)
            if unit.status not in _NO_MOVE:    # a moving unit is ready, not asleep, not raging
                for to, move in _MOVES[line]:
                    if stage[to - 1] is None:
                        moves.append(move)
                # and may activate a skill unless every skill of it is negated (``why_not``)
                if facts[unit.card].activated and not all_negated(state, seat, line):
                    sources.append(unit.card)
    pays_for = _Pays(state, seat, ready)
    hearts = side.hearts
    heart = hearts[0].card if hearts and hearts[0].face_up else None     # (``top_heart``)
    if empty:
        pay: Payer | None = None
        for card in hand:
            f = facts[card]
            if f.unit:
                if pay is None:
                    pay = pays_for.payer()
                pays = pay[f.lv]
                if pays is not NO_PAYMENTS:
                    _add_paid(out, pays, "line", empty, c.Summon(card=card, line=0))
        if heart and facts[heart].unit:   # the face-up top heart, paying one more soul (W-11.4)
            lv = facts[heart].lv
            if pay is None:
                pay = pays_for.payer()
            if pay[lv] is not NO_PAYMENTS:
                for extra in heart_souls(state, seat, heart):
                    pays = pay.without(extra)[lv]      # (its souls are not the extra)
                    _add_paid(out, pays, "line", empty, c.Summon(card=heart, line=0, heart=True, heart_soul=extra))
    spots: list[int] = []        # and one over the table row: its empty spots, activated skills
    line = 0
    for spell in side.table:
        line += 1
        if spell is None:
            spots.append(line)
        elif facts[spell.card].activated and not spell.broken and not spell.waiting:
            sources.append(spell.card)
    if spots:
        kept = _spells[seat - 1].value        # (``_holds_spell`` read inline)
        holds = kept[2] if kept[0] is hand and kept[1] is facts else _holds_spell(seat, hand, facts)
        if holds or (heart and not facts[heart].unit):
            _casts(out, state, seat, facts, pays_for, spots)      # (only a spell is cast: W-10.1)
    if sources:
        _activations(out, state, seat, facts, pays_for, sources)
    if moves:
        out.add(moves)


def _casts(out: Options, state: State, seat: int, facts: CardTable, pays_for: _Pays, spots: list[int]) -> None:
    """Every spell cast open to ``seat`` now: card × empty table spot × payment × targets (× heart
    soul). A card's targets are listed only once some spot has a payment for it."""
    if state.window is None:      # W-10.2: outside a reaction window every spell kind is alike
        refused = cast_refused(state, seat, short=False)
        blocked = (refused, refused)
    else:
        blocked = (cast_refused(state, seat, short=False), cast_refused(state, seat, short=True))
    if blocked[0] and blocked[1]:
        return
    side = state.sides[seat - 1]
    tops: list[Facts | None] | None = None       # the top card of each line's tower (W-6.5), once needed
    heart = top_heart(state, seat)
    for card in ((*side.hand, heart) if heart else side.hand):
        f = facts[card]
        if f.unit or blocked[f.short]:
            continue
        if tops is None:
            tops = [facts[tower.cards[-1]] if tower.cards else None for tower in side.towers]
            pay = pays_for.payer()
        paid = [(line, pays) for line in spots if (pays := pay[cast_cost(f, tops[line - 1])]) is not NO_PAYMENTS]
        if not paid:
            continue
        skill = f.aim
        choices: list[tuple[int, ...]] = _UNAIMED
        placing = None                  # a spell that puts a spell on a spot: not on the one it is cast to
        if skill is not None:
            choices = [(t,) for t in options_of(state, skill, seat, card)]
            if not choices:
                continue
            if f.places_spell:
                placing = skill
        if card == heart:    # (a card is in one zone: the hand or the hearts)
            extras = heart_souls(state, seat, card)
            for line, pays in paid:
                aimed = [t for t in choices if not on_own_spot(placing, line, t[0])] if placing else choices
                out.add([c.Cast(card=card, line=line, towers=towers, souls=souls, targets=chosen, heart=True,
                                heart_soul=extra)
                         for (towers, souls), chosen, extra in product(pays, aimed, extras) if extra not in souls])
        else:
            for line, pays in paid:
                aimed = [t for t in choices if not on_own_spot(placing, line, t[0])] if placing else choices
                _add_paid(out, pays, "targets", aimed, c.Cast(card=card, line=line))


def _activations(out: Options, state: State, seat: int, facts: CardTable, pays_for: _Pays, sources: list[int]) -> None:
    """Every activated (!) skill of the units and spells ``sources`` (stage first, then table),
    which ``_main_actions`` found ready to use them (``why_not`` in the turn player's main
    phase, read off the rows it passes over anyway), paid and aimed."""
    pay = pays_for.payer()
    for card in sources:
        for index, skill in facts[card].activated:
            pays = pay[skill.cost]
            if pays is NO_PAYMENTS:
                continue
            choices: list[tuple[int, ...]] = _UNAIMED
            if skill.target is not None:
                choices = [(t,) for t in options_of(state, skill, seat, card)]
            _add_paid(out, pays, "targets", choices, c.Activate(card=card, skill=index))


_UNAIMED: list[tuple[int, ...]] = [()]
_NO_MOVE = (Status.SLEEP, Status.RAGE)
_MOVES = {line: tuple((to, c.Move(line=line, to=to)) for to in adjacent(line)) for line in lines()}


def _set_tower(hand: tuple[int, ...], open_lines: list[int], i: int) -> c.Command:
    """The i-th tower set: every hand card in order, on each open line in turn."""
    return c.SetTower(card=hand[i // len(open_lines)], line=open_lines[i % len(open_lines)])


def _add_paid(out: Options, pays: Payments, field: str, others: Sequence[Any], made: c.Command) -> None:
    """Every payment with every spot or target (``field``: "line" or "targets"), in that order,
    as one product of ``out``: the i-th is ``made`` with them filled in, built when read."""
    size = len(others)
    if field == "line":
        def build(i: int) -> c.Command:
            towers, souls = pays[i // size]
            return replace(made, towers=towers, souls=souls, line=others[i % size])
    else:
        def build(i: int) -> c.Command:
            towers, souls = pays[i // size]
            return replace(made, towers=towers, souls=souls, targets=others[i % size])
    out.add_product(len(pays) * size, build)


def _attacks(state: State, seat: int) -> list[c.Command]:
    out: list[c.Command] = []
    printed = "AGI" not in touched(state)     # then each unit's AGI is its card's (``unit_stat``)
    known = match_facts.last
    facts: CardTable = known[1] if known[0] is state.names else match_facts(state.names)
    for line, unit in enumerate(state.sides[seat - 1].stage, 1):
        if unit is None or unit.broken or unit.status == Status.SLEEP:
            continue
        if (facts[unit.card].card_def.AGI if printed else unit_stat(state, seat, line, "AGI")) >= 1:
            out.append(_ATTACK[line])
    return out


_ATTACK = {line: c.Attack(line=line) for line in lines()}
