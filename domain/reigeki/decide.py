"""The rules of reigeki: validation of each decision and everything that follows it, to rest.

Every consequence is an event citing its clause (``draft.rule``). Where the seed is silent the
digest's proposal sits behind one constant or function here, named for its R-Q clause.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any, cast

import msgspec

from kifu.domain.core.clauses import implements
from kifu.domain.core.draft import Draft
from kifu.domain.core.errors import Illegal

from . import commands as c
from . import events as e
from .cards import HIDDEN_CARD, Card, Skill, catalog
from .decks import DeckList
from .state import BACK, FRONT, LEADER_PLACE, Battle, State, Unit, other

HAND = 5
DRAW = 2
REIRYOKU_MAX = 5
HAND_LIMIT = 8
DAMAGE_LOSS = 7
GUARD_MINUS = 2        # each guard lowers the attacker's power by 2
LEADER_THRESHOLD = 3   # R-Q3 / R-3.1: the leader is hit only by power greater than 3

# R-Q1: adjacency is orthogonal (areas sharing an edge) inside one player's 2×3 stage.
# Places: 1 2 3 front row, 4 5 6 back row.
ADJACENCY = "orthogonal"
_ORTHO = {1: (2, 4), 2: (1, 3, 5), 3: (2, 6), 4: (1, 5), 5: (2, 4, 6), 6: (3, 5)}
_KING = {1: (2, 4, 5), 2: (1, 3, 4, 5, 6), 3: (2, 5, 6), 4: (1, 2, 5), 5: (1, 2, 3, 4, 6), 6: (2, 3, 5)}
NEIGHBOURS = _ORTHO if ADJACENCY == "orthogonal" else _KING


# -- reading the state --------------------------------------------------------------------------
def card_of(state: State, card: int) -> Card:
    if card <= 0:
        return HIDDEN_CARD
    keys = state.sides[card // 100 - 1].keys
    i = card % 100
    return catalog()[keys[i]] if i < len(keys) and keys[i] else HIDDEN_CARD


def is_reigeki(state: State, card: int) -> bool:
    return card_of(state, card).type == "reigeki"


@implements("R-7.1", "R-Q2")
def adjacent_count(state: State, seat: int, place: int) -> int:
    """R-7.1 / R-Q2: own cards (the leader and characters; a stack counts once) next to ``place``."""
    stage = state.side(seat).stage
    return sum(1 for p in NEIGHBOURS[place] if stage[p - 1] is not None)


@implements("R-Q15")
def power_graze(state: State, unit: Unit) -> tuple[int, int]:
    """A character's current power and graze: its top card's printed numbers (R-Q15) plus effects."""
    card = card_of(state, unit.card)
    p, g = card.power, card.graze
    for m in state.mods:
        if m.card == unit.card:
            p += m.power
            g += m.graze
    return p, g


@implements("R-8.3", "R-Q7")
def attack_power(state: State) -> int:
    """R-8.3 / R-Q7: the attacker's power after effects and guards, floored at 0."""
    b = state.battle
    assert b is not None
    unit = state.side(state.active).stage[b.attacker_place - 1]
    base = power_graze(state, unit)[0] if unit is not None and unit.card == b.attacker else 0
    return max(0, base - GUARD_MINUS * b.guards)


def can_attack_from(state: State, place: int, unit: Unit) -> bool:
    """R-8.1: front-row characters, and back-row characters with ハイレンジ; never the leader."""
    if unit.leader or unit.burst:
        return False
    return place in FRONT or (place in BACK and card_of(state, unit.card).highrange)


@implements("R-3.3", "R-Q4")
def spell_allowed(state: State, seat: int) -> bool:
    """R-3.3 / R-Q4: one spell per turn for each player, in any turn (the defender's too)."""
    return state.side(seat).spell_turn != state.turn


def spell_level(card: Card, flip: bool) -> int:
    """R-7.3 / R-Q8: the level to pay, one lower with a damage flip, never below 1."""
    return max(1, card.lv - (1 if flip else 0))


def awaiting(state: State) -> frozenset[int]:
    if state.result is not None:
        return frozenset()
    if state.phase == "mulligan":
        for seat in (state.first, other(state.first)):
            if not state.side(seat).mulliganed:
                return frozenset((seat,))
        return frozenset()
    if state.phase in ("guard", "spell"):
        return frozenset((other(state.active),))
    if state.phase in ("step", "main", "attack", "end"):
        return frozenset((state.active,))
    return frozenset()


def waiting_clause(state: State) -> str:
    return {"mulligan": "R-5.4", "step": "R-6.4", "main": "R-6.5", "attack": "R-8.2", "guard": "R-8.3",
            "spell": "R-8.4", "end": "R-6.7"}.get(state.phase, "R-6")


# -- setup ---------------------------------------------------------------------------------------
@implements("R-5", "R-5.1", "R-5.2", "R-5.3", "R-5.4")
def begin(header: Any, state: State, draft: Draft[State, Any]) -> None:
    """R-5: each player shuffles the opponent's decks (R-5.1), leaders front-centre (R-5.2), a
    seeded coin decides who goes first (R-5.3), both draw 5 (R-5.4)."""
    decks = [d if isinstance(d, DeckList) else msgspec.convert(d, DeckList) for d in header.decks]
    for seat, deck in enumerate(decks, start=1):
        keys = ("",) + deck.deck + deck.ex + (deck.leader,)
        ids = [seat * 100 + i for i in range(1, len(keys))]
        main = ids[:len(deck.deck)]
        ex = ids[len(deck.deck):len(deck.deck) + len(deck.ex)]
        draft.setup("R-5.1", e.DecksShuffled(seat=seat, keys=keys, deck=draft.rng.shuffled(main),
                                             exdeck=draft.rng.shuffled(ex)), seat=other(seat))
    for seat in (1, 2):
        draft.setup("R-5.2", e.LeaderPlaced(seat=seat, card=seat * 100 + len(draft.state.side(seat).keys) - 1,
                                            place=LEADER_PLACE), seat=seat)
    draft.setup("R-5.3", e.FirstPlayer(seat=1 + draft.rng.below(2)))
    for seat in (1, 2):
        draft.setup("R-5.4", e.Drew(seat=seat, cards=draft.state.side(seat).deck[:HAND]), seat=seat)


# -- losing --------------------------------------------------------------------------------------
@implements("R-1.1", "R-Q11")
def check_losses(draft: Draft[State, Any], cause: int) -> bool:
    """R-1 / R-1.1 / R-Q11: a deck at 0 loses at once (checked before 7 damage); both at once: a draw."""
    s = draft.state
    if s.result is not None:
        return True
    losers: dict[int, tuple[str, str]] = {}
    for seat in (1, 2):
        side = s.side(seat)
        if not side.deck:
            losers[seat] = ("deck-out", "R-Q11")
        elif len(side.damage) >= DAMAGE_LOSS:
            losers[seat] = ("7 damage", "R-1.1")
    if not losers:
        return False
    for seat, (reason, clause) in sorted(losers.items()):
        draft.rule(clause, cause, e.Lost(seat=seat, reason=reason), seat=seat)
    if len(losers) == 2:
        draft.rule("R-Q11", cause, e.GameOver(termination="both lost at once"))
    else:
        loser, (reason, clause) = next(iter(losers.items()))
        draft.rule(clause, cause, e.GameOver(termination=reason, winner=other(loser)))
    return True


def draw(draft: Draft[State, Any], seat: int, n: int, clause: str, cause: int) -> None:
    cards = draft.state.side(seat).deck[:n]
    if cards:
        draft.rule(clause, cause, e.Drew(seat=seat, cards=cards), seat=seat)


@implements("R-2.4", "R-Q10", "R-C5")
def damage(draft: Draft[State, Any], seat: int, n: int, clause: str, cause: int) -> None:
    """R-2.4: per damage the top deck card goes face up to the damage zone; a 霊撃 goes face up to
    the 霊力 zone instead and cancels that damage (R-C5; R-Q10: even above 5)."""
    for _ in range(n):
        deck = draft.state.side(seat).deck
        if not deck:
            return
        top = deck[0]
        if is_reigeki(draft.state, top):
            draft.rule("R-2.4", cause, e.ReigekiCharged(seat=seat, card=top), seat=seat)
        else:
            draft.rule(clause, cause, e.DamageTaken(seat=seat, card=top), seat=seat)


@implements("R-2.3", "R-Q10")
def charge(draft: Draft[State, Any], seat: int, clause: str, cause: int) -> None:
    """R-2.3 / R-Q10: the top Ex-deck card face down into 霊力, unless 霊力 holds 5 or the Ex deck is empty."""
    side = draft.state.side(seat)
    if len(side.reiryoku) < REIRYOKU_MAX and side.exdeck:
        draft.rule(clause, cause, e.Charged(seat=seat, card=side.exdeck[0]), seat=seat)


# -- turn structure ------------------------------------------------------------------------------
@implements("R-6", "R-6.1", "R-6.2", "R-6.3", "R-6.4")
def start_turn(draft: Draft[State, Any], seat: int, cause: int) -> None:
    """R-6: start (R-6.1), draw 2 (R-6.2), charge (R-6.3), then the step phase waits (R-6.4)."""
    s = draft.state
    draft.rule("R-6", cause, e.TurnBegan(seat=seat, turn=s.turn + 1), seat=seat)
    draft.rule("R-6.1", cause, e.PhaseBegan(phase="start"))
    burst = tuple(i + 1 for i, u in enumerate(draft.state.side(seat).stage) if u is not None and u.burst)
    if burst:
        draft.rule("R-6.1", cause, e.Reloaded(seat=seat, places=burst), seat=seat)
    draft.rule("R-6.2", cause, e.PhaseBegan(phase="draw"))
    draw(draft, seat, DRAW, "R-6.2", cause)
    if check_losses(draft, cause):
        return
    draft.rule("R-6.3", cause, e.PhaseBegan(phase="charge"))
    charge(draft, seat, "R-6.3", cause)
    draft.rule("R-6.4", cause, e.PhaseBegan(phase="step"))


@implements("R-6.7")
def to_end_phase(draft: Draft[State, Any], cause: int) -> None:
    draft.rule("R-6.7", cause, e.PhaseBegan(phase="end"))
    if len(draft.state.side(draft.state.active).hand) <= HAND_LIMIT:
        finish_turn(draft, cause)


@implements("R-6.7")
def finish_turn(draft: Draft[State, Any], cause: int) -> None:
    """R-6.7: effects without a stated duration end (R-C9: 特記 ones stay); the opponent's turn."""
    s = draft.state
    ending = tuple(m.card for m in s.mods if not m.lasting)
    if ending:
        draft.rule("R-6.7", cause, e.EffectsEnded(cards=ending))
    start_turn(draft, other(s.active), cause)


@implements("R-5.5", "R-6.6")
def to_battle(draft: Draft[State, Any], cause: int) -> None:
    s = draft.state
    if s.turn == 1:      # the first player has no battle phase on the first turn
        draft.rule("R-5.5", cause, e.PhaseBegan(phase="battle-skipped"))
        to_end_phase(draft, cause)
        return
    draft.rule("R-6.6", cause, e.PhaseBegan(phase="attack"))


# -- the decisions -------------------------------------------------------------------------------
def decide(state: State, seat: int, command: Any, draft: Draft[State, Any]) -> None:
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise Illegal("R-6", f"unknown decision {command!r}")
    handler(state, seat, command, draft)


def _phase(state: State, seat: int, phases: tuple[str, ...], clause: str, what: str) -> None:
    if state.phase not in phases:   # the clause of the step the rules are in says what it takes
        raise Illegal(waiting_clause(state), f"{what} is not possible in the {state.phase} phase/step")
    if seat not in awaiting(state):
        raise Illegal(clause, f"seat {seat} may not decide now")


@implements("R-5.4")
def _mulligan(state: State, seat: int, cmd: c.Mulligan, draft: Draft[State, Any]) -> None:
    _phase(state, seat, ("mulligan",), "R-5.4", "a mulligan")
    side = state.side(seat)
    if cmd.redraw:
        deck = draft.rng.shuffled(side.deck + side.hand)
        cause = draft.decision(seat, e.HandReturned(seat=seat, cards=side.hand, deck=deck), clause="R-5.4")
        draw(draft, seat, HAND, "R-5.4", cause)
    else:
        cause = draft.decision(seat, e.HandKept(seat=seat), clause="R-5.4")
    if not awaiting(draft.state):
        start_turn(draft, draft.state.first, cause)


@implements("R-2.2", "R-6.4", "R-Q1", "R-Q6")
def _move(state: State, seat: int, cmd: c.Move, draft: Draft[State, Any]) -> None:
    """R-6.4 / R-Q6: one step per card, one card at a time; the leader may step onto an own
    character, which is discarded (R-C8)."""
    _phase(state, seat, ("step",), "R-6.4", "moving")
    side = state.side(seat)
    if cmd.source not in NEIGHBOURS or cmd.to not in NEIGHBOURS:
        raise Illegal("R-2.2", f"places are 1..6, got {cmd.source} -> {cmd.to}")
    unit = side.stage[cmd.source - 1]
    if unit is None:
        raise Illegal("R-6.4", f"no card of yours stands in area {cmd.source}")
    if unit.card in state.moved:
        raise Illegal("R-Q6", "each card moves at most one area per step phase")
    if cmd.to not in NEIGHBOURS[cmd.source]:
        raise Illegal("R-Q1", f"area {cmd.to} is not next to area {cmd.source}")
    there = side.stage[cmd.to - 1]
    if there is not None and not unit.leader:
        raise Illegal("R-6.4", "a character cannot move into an occupied area")
    # R-6.4 / R-Q6: the leader may enter an occupied area of its own stage; the character there
    # (with an LvEx, both cards) is discarded, recorded in the same event as ``displaced``
    draft.decision(seat, e.Moved(seat=seat, card=unit.card, source=cmd.source, to=cmd.to,
                                 displaced=there.card if there is not None else 0), clause="R-6.4")


@implements("R-2.2", "R-6.5", "R-7.1", "R-7.2")
def _play(state: State, seat: int, cmd: c.Play, draft: Draft[State, Any]) -> None:
    """R-7: a character from hand into an area by adjacency (R-7.1), an LvEx onto its Lv3 (R-7.2)."""
    _phase(state, seat, ("main",), "R-6.5", "playing a character")
    side = state.side(seat)
    if cmd.card not in side.hand:
        raise Illegal("R-6.5", f"card {cmd.card} is not in your hand")
    card = card_of(state, cmd.card)
    if card.type != "character":
        raise Illegal("R-7.1", f"{card.key} is not a character")
    if cmd.place not in NEIGHBOURS:
        raise Illegal("R-2.2", f"places are 1..6, got {cmd.place}")
    there = side.stage[cmd.place - 1]
    if card.level == "Ex":
        under = check_lvex(state, seat, card, there)
        draft.decision(seat, e.Played(seat=seat, card=cmd.card, place=cmd.place, on=under.card), clause="R-7.2")
        return
    if there is not None:
        raise Illegal("R-7.1", f"area {cmd.place} is not empty")
    n = adjacent_count(state, seat, cmd.place)
    if n < card.lv:
        raise Illegal("R-7.1", f"Lv{card.lv} needs {card.lv} of your cards next to area {cmd.place}; it has {n}")
    draft.decision(seat, e.Played(seat=seat, card=cmd.card, place=cmd.place), clause="R-7.1")


@implements("R-7.2")
def check_lvex(state: State, seat: int, card: Card, there: Unit | None) -> Unit:
    """R-7.2: an LvEx goes on a same-named Lv3 that did not enter the stage this turn (``there``, returned)."""
    if there is None or there.leader or there.under:
        raise Illegal("R-7.2", "an LvEx goes only on top of a Lv3 character")
    below = card_of(state, there.card)
    if below.level != 3 or below.printed_name != card.printed_name:
        raise Illegal("R-7.2", f"an LvEx goes on a Lv3 named {card.printed_name}, not on {below.key}")
    if there.entered == state.turn:
        raise Illegal("R-7.2", "the Lv3 under an LvEx must not have been played this turn")
    return there


# -- spells --------------------------------------------------------------------------------------
@implements("R-3.3", "R-7.3", "R-Q4", "R-Q8")
def check_cast(state: State, seat: int, cmd: c.Cast) -> Card:
    side = state.side(seat)
    if not spell_allowed(state, seat):
        raise Illegal("R-3.3", "one spell per turn (R-Q4: this turn's spell is used)")
    if cmd.card not in side.reiryoku:
        raise Illegal("R-3.3", f"card {cmd.card} is not in your 霊力 zone")
    card = card_of(state, cmd.card)
    if card.type != "spell":
        raise Illegal("R-3.3", f"{card.key} is not a spell")
    if cmd.flip:
        if cmd.flip not in side.damage or cmd.flip in side.flipped:
            raise Illegal("R-Q8", "only a face-up card of your damage zone can be turned face down")
        if card.lv <= 1:
            raise Illegal("R-Q8", "a spell's level is never lowered below 1")
    level = spell_level(card, bool(cmd.flip))
    pay = list(cmd.pay)
    if cmd.card in pay or len(set(pay)) != len(pay) or any(p not in side.reiryoku for p in pay):
        raise Illegal("R-7.3", "pay with other, distinct cards of your 霊力 zone")
    if len(pay) != level - 1:
        raise Illegal("R-7.3", f"a Lv{level} spell is paid with itself and {level - 1} other 霊力, "
                               f"not {len(pay)}")
    skill = card.targeted
    if skill is not None:
        check_target(state, seat, skill, cmd)
    elif cmd.target or cmd.target_seat or cmd.to:
        raise Illegal("R-7.3", f"{card.key} takes no target")
    return card


@implements("R-3.1", "R-7.3", "R-Q1")
def check_target(state: State, seat: int, skill: Skill, cmd: c.Cast) -> None:
    want = seat if skill.target == "own" else other(seat)
    if cmd.target_seat != want or cmd.target not in NEIGHBOURS:
        raise Illegal("R-7.3", f"the spell targets a character of seat {want}")
    unit = state.side(want).stage[cmd.target - 1]
    if unit is None or unit.leader:
        raise Illegal("R-3.1", "the target must be a character (the leader is unaffected by card effects)")
    if skill.op == "destroy" and power_graze(state, unit)[1] > skill.max_graze:
        raise Illegal("R-7.3", f"the target's graze is above {skill.max_graze}")
    if skill.op == "move":
        if cmd.to not in NEIGHBOURS[cmd.target] or state.side(want).stage[cmd.to - 1] is not None:
            raise Illegal("R-Q1", "a moved character goes to an empty adjacent area")
    elif cmd.to:
        raise Illegal("R-7.3", "only a move names a destination")


@implements("R-6.5", "R-7.3", "R-8.4")
def _cast(state: State, seat: int, cmd: c.Cast, draft: Draft[State, Any]) -> None:
    if state.phase == "spell":
        _phase(state, seat, ("spell",), "R-8.4", "a spell")
    else:
        _phase(state, seat, ("main",), "R-6.5", "a spell")
    card = check_cast(state, seat, cmd)
    level = spell_level(card, bool(cmd.flip))
    cause = draft.decision(seat, e.SpellCast(seat=seat, card=cmd.card, pay=cmd.pay, flip=cmd.flip, level=level,
                                             target_seat=cmd.target_seat, target=cmd.target, to=cmd.to),
                           clause="R-7.3")
    if cmd.flip:
        draft.rule("R-7.3", cause, e.DamageFlipped(seat=seat, card=cmd.flip), seat=seat)
    if state.phase == "spell" and card.guard:
        guard(draft, seat, cmd.card, "spell", card.guard, "R-8.4", cause)
    for skill in card.skill:
        if skill.when == "cast":
            run_skill(draft, seat, cmd.card, skill, cause, "R-7.3", cmd)
            if draft.state.result is not None:
                return
    if state.phase == "spell":
        after_spell_step(draft, cause)


# -- skills (one interpreter for the small vocabulary of cards.toml) -----------------------------
@implements("R-C6", "R-C7", "R-C8", "R-C9", "R-C10")
def run_skill(draft: Draft[State, Any], seat: int, source: int, skill: Skill, cause: int, clause: str,
              cmd: c.Cast | None = None) -> None:
    """Runs one skill: R-C7 triggers (attack/attacked/win/lose), R-C6 spells, R-C8 moves,
    R-C9 lasting (特記) effects, R-C10 damage that can deck a player out."""
    s = draft.state
    op = skill.op
    if op in ("power", "graze") and skill.target == "self":
        if _on_stage(s, seat, source) is None:
            return
        draft.rule(clause, cause, e.Modified(seat=seat, card=source, power=skill.n if op == "power" else 0,
                                             graze=skill.n if op == "graze" else 0, lasting=skill.lasting),
                   seat=seat)
    elif op in ("buff", "graze"):
        assert cmd is not None
        unit = s.side(cmd.target_seat).stage[cmd.target - 1]
        if unit is not None:
            draft.rule("R-C9" if skill.lasting else clause, cause,
                       e.Modified(seat=cmd.target_seat, card=unit.card, power=skill.n if op == "buff" else 0,
                                  graze=skill.n if op == "graze" else 0, lasting=skill.lasting),
                       seat=cmd.target_seat)
    elif op == "move":
        assert cmd is not None
        unit = s.side(cmd.target_seat).stage[cmd.target - 1]
        if unit is not None:
            draft.rule("R-C8", cause, e.Moved(seat=cmd.target_seat, card=unit.card, source=cmd.target, to=cmd.to),
                       seat=cmd.target_seat)
    elif op == "destroy":
        assert cmd is not None
        leave(draft, cmd.target_seat, cmd.target, clause, cause)
    elif op == "destroy_all":
        foe = other(seat)
        for place in range(1, 7):
            unit = draft.state.side(foe).stage[place - 1]
            if unit is not None and not unit.leader and power_graze(draft.state, unit)[1] <= skill.max_graze:
                leave(draft, foe, place, clause, cause)
    elif op == "draw":
        draw(draft, seat, skill.n, clause, cause)
        check_losses(draft, cause)
    elif op == "charge":
        for _ in range(skill.n):
            charge(draft, seat, clause, cause)
    elif op == "damage":
        damage(draft, other(seat), skill.n, clause, cause)
        check_losses(draft, cause)
    elif op == "damage_both":
        damage(draft, seat, skill.n, clause, cause)
        damage(draft, other(seat), skill.n, clause, cause)
        check_losses(draft, cause)


def _on_stage(state: State, seat: int, card: int) -> int | None:
    for i, u in enumerate(state.side(seat).stage):
        if u is not None and u.card == card:
            return i + 1
    return None


@implements("R-7.2", "R-Q15")
def leave(draft: Draft[State, Any], seat: int, place: int, clause: str, cause: int) -> None:
    """A character is discarded; an LvEx leaves its Lv3 on the stage (R-7.2, R-Q15)."""
    unit = draft.state.side(seat).stage[place - 1]
    if unit is None or unit.leader:
        return
    draft.rule(clause, cause, e.CharacterLeft(seat=seat, card=unit.card, place=place, stays=unit.under), seat=seat)


# -- battle --------------------------------------------------------------------------------------
@implements("R-2.2", "R-3.1", "R-8.1", "R-8.2")
def _attack(state: State, seat: int, cmd: c.Attack, draft: Draft[State, Any]) -> None:
    _phase(state, seat, ("attack",), "R-8.2", "an attack")
    if cmd.attacker not in NEIGHBOURS or cmd.target not in NEIGHBOURS:
        raise Illegal("R-2.2", "places are 1..6")
    unit = state.side(seat).stage[cmd.attacker - 1]
    if unit is None:
        raise Illegal("R-8.2", f"no character of yours in area {cmd.attacker}")
    if unit.leader:
        raise Illegal("R-3.1", "the leader only moves; it never attacks")
    if unit.burst:
        raise Illegal("R-8.2", "only a reloaded character can attack")
    if not can_attack_from(state, cmd.attacker, unit):
        raise Illegal("R-8.1", "a back-row character attacks only with ハイレンジ")
    target = state.side(other(seat)).stage[cmd.target - 1]
    if target is None:
        raise Illegal("R-8.2", f"the opponent has nothing in area {cmd.target}")
    cause = draft.decision(seat, e.AttackDeclared(seat=seat, attacker=unit.card, attacker_place=cmd.attacker,
                                                  target=target.card, target_place=cmd.target, at=draft.next_seq),
                           clause="R-8.2")
    draft.rule("R-8.3", cause, e.StepBegan(step="guard"))
    if not _can_guard(draft.state, other(seat)):
        to_spell_step(draft, cause)


def _can_guard(state: State, seat: int) -> bool:
    side = state.side(seat)
    return bool(side.hand) or any(u is not None and not u.burst and not u.leader and card_of(state, u.card).guard
                                  for u in side.stage)


def guard(draft: Draft[State, Any], seat: int, card: int, source: str, guards: int, clause: str,
          cause: int) -> None:
    b = draft.state.battle
    assert b is not None
    after = max(0, attack_power(draft.state) - GUARD_MINUS * guards)
    draft.rule(clause, cause, e.Guarded(seat=seat, card=card, source=source, guards=guards, power=after,
                                        at=draft.next_seq), seat=seat)


@implements("R-3.4", "R-8.3", "R-Q7")
def _guard(state: State, seat: int, cmd: c.Guard, draft: Draft[State, Any]) -> None:
    """R-8.3 / R-Q7: any hand card is a guard (−2 power); a 霊撃 from hand nullifies the attack (R-3.4)."""
    _phase(state, seat, ("guard",), "R-8.3", "a guard")
    if cmd.card not in state.side(seat).hand:
        raise Illegal("R-8.3", f"card {cmd.card} is not in your hand")
    if is_reigeki(state, cmd.card):
        cause = draft.decision(seat, e.Nullified(seat=seat, card=cmd.card), clause="R-3.4")
        end_battle(draft, "nullified by 霊撃", "R-3.4", cause)
        return
    after = max(0, attack_power(state) - GUARD_MINUS)
    cause = draft.decision(seat, e.Guarded(seat=seat, card=cmd.card, source="hand", guards=1, power=after,
                                           at=draft.next_seq), clause="R-8.3",
                           cause=_battle_cause(cast(Battle, state.battle).cause, 0, draft) or None)  # (guard step)
    if not _can_guard(draft.state, seat):
        to_spell_step(draft, cause)


@implements("R-8.3", "R-Q14")
def _guard_with(state: State, seat: int, cmd: c.GuardWith, draft: Draft[State, Any]) -> None:
    """R-8.3 / R-Q14: a reloaded ガードx character in any row is burst to count as x guards."""
    _phase(state, seat, ("guard",), "R-8.3", "a guard")
    unit = state.side(seat).stage[cmd.place - 1] if cmd.place in NEIGHBOURS else None
    card = card_of(state, unit.card) if unit is not None else None
    if unit is None or unit.leader or card is None or not card.guard:
        raise Illegal("R-Q14", f"no ガードx character of yours in area {cmd.place}")
    if unit.burst:
        raise Illegal("R-Q14", "a ガードx character guards only while reloaded")
    cause = draft.decision(seat, e.Burst(seat=seat, card=unit.card, place=cmd.place), clause="R-Q14")
    guard(draft, seat, unit.card, "stage", card.guard, "R-8.3", cause)
    if not _can_guard(draft.state, seat):
        to_spell_step(draft, cause)


@implements("R-8.4")
def to_spell_step(draft: Draft[State, Any], cause: int) -> None:
    draft.rule("R-8.4", cause, e.StepBegan(step="spell"))
    defender = other(draft.state.active)
    if not spell_allowed(draft.state, defender) or not cast_options(draft.state, defender):
        after_spell_step(draft, cause)


@implements("R-8.5", "R-8.6", "R-8.7", "R-8.8", "R-Q3", "R-Q12", "R-Q13")
def after_spell_step(draft: Draft[State, Any], cause: int) -> None:
    """R-8.5 .. R-8.8: effect step 1, the battle step, effect step 2, the end step."""
    s = draft.state
    b = s.battle
    assert b is not None
    attacker_seat, defender = s.active, other(s.active)
    draft.rule("R-8.5", cause, e.StepBegan(step="effect1"))
    attacker = _on_stage(s, attacker_seat, b.attacker)
    if attacker is not None:
        for skill in card_of(s, b.attacker).skill:
            if skill.when == "attack":
                run_skill(draft, attacker_seat, b.attacker, skill, cause, "R-8.5")
    target_unit = draft.state.side(defender).stage[b.target_place - 1]
    if target_unit is not None and not target_unit.leader and target_unit.card == b.target:
        for skill in card_of(s, b.target).skill:
            if skill.when == "attacked":
                run_skill(draft, defender, b.target, skill, cause, "R-8.5")
    if draft.state.result is not None:
        return
    draft.rule("R-8.6", cause, e.StepBegan(step="battle"))
    s = draft.state
    attacker_unit = s.side(attacker_seat).stage[b.attacker_place - 1]
    target_unit = s.side(defender).stage[b.target_place - 1]
    if attacker_unit is None or attacker_unit.card != b.attacker or target_unit is None \
            or target_unit.card != b.target:
        end_battle(draft, "no result", "R-Q13", cause)
        return
    power = attack_power(s)
    if target_unit.leader:
        success = power > LEADER_THRESHOLD
        resolved = draft.rule("R-Q3", _battle_cause(b.cause, cause, draft),
                              e.BattleResolved(power=power, graze=LEADER_THRESHOLD, success=success, leader=True))
        if success:
            damage(draft, defender, 1, "R-8.6", resolved)
            if check_losses(draft, cause):
                return
        draft.rule("R-8.7", cause, e.StepBegan(step="effect2"))   # R-Q12: a leader hit is no win or loss
        end_battle(draft, "leader hit" if success else "failed", "R-8.8", cause)
        return
    graze = power_graze(s, target_unit)[1]
    success = power >= graze
    resolved = draft.rule("R-8.6", _battle_cause(b.cause, cause, draft),
                          e.BattleResolved(power=power, graze=graze, success=success))
    if success:
        leave(draft, defender, b.target_place, "R-8.6", resolved)
    draft.rule("R-8.7", cause, e.StepBegan(step="effect2"))
    if success:
        if _on_stage(draft.state, attacker_seat, b.attacker) is not None:
            for skill in card_of(s, b.attacker).skill:
                if skill.when == "win":
                    run_skill(draft, attacker_seat, b.attacker, skill, cause, "R-8.7")
                    if draft.state.result is not None:
                        return
        for skill in card_of(s, b.target).skill:
            if skill.when == "lose":
                run_skill(draft, defender, b.target, skill, cause, "R-8.7")
                if draft.state.result is not None:
                    return
    end_battle(draft, "success" if success else "failed", "R-8.8", cause)


def _battle_cause(recorded: int, cause: int, draft: Draft[State, Any]) -> int:
    """The battle step cites the last guard (or the declaration) as its cause, so ``why`` on the
    damage shows the guard and the comparison; a position prepared mid-battle falls back."""
    return recorded if 0 < recorded < draft.next_seq else cause


@implements("R-8.8")
def end_battle(draft: Draft[State, Any], result: str, clause: str, cause: int) -> None:
    """R-8.8: the end step; back to the attack step."""
    draft.rule("R-8.8", cause, e.StepBegan(step="end"))
    draft.rule(clause, cause, e.BattleEnded(result=result))
    draft.rule("R-8.8", cause, e.StepBegan(step="attack"))


@implements("R-6.7")
def _discard(state: State, seat: int, cmd: c.Discard, draft: Draft[State, Any]) -> None:
    _phase(state, seat, ("end",), "R-6.7", "a discard")
    hand = state.side(seat).hand
    if len(hand) <= HAND_LIMIT:
        raise Illegal("R-6.7", "discard only from a hand of more than 8")
    if cmd.card not in hand:
        raise Illegal("R-6.7", f"card {cmd.card} is not in your hand")
    cause = draft.decision(seat, e.Discarded(seat=seat, cards=(cmd.card,), source="hand"), clause="R-6.7")
    if len(draft.state.side(seat).hand) <= HAND_LIMIT:
        finish_turn(draft, cause)


def _proceed(state: State, seat: int, cmd: c.Proceed, draft: Draft[State, Any]) -> None:
    phase = state.phase
    clause = waiting_clause(state)
    _phase(state, seat, ("step", "main", "attack", "guard", "spell"), clause, "proceeding")
    cause = draft.decision(seat, e.PhaseBegan(phase=_NEXT[phase]), clause=clause)
    if phase == "step":
        return
    if phase == "main":
        to_battle(draft, cause)
    elif phase == "attack":
        to_end_phase(draft, cause)
    elif phase == "guard":
        to_spell_step(draft, cause)
    elif phase == "spell":
        after_spell_step(draft, cause)


# -- what may be cast: the spell step asks whether the defender can cast anything,
# and ``legal`` lists the same casts ---------------------------------------------------------------
def distinct_cards(state: State, cards: tuple[int, ...]) -> list[int]:
    seen: set[str] = set()
    out = []
    for card in cards:
        key = card_of(state, card).key
        if key and key not in seen:
            seen.add(key)
            out.append(card)
    return out


def _targets(state: State, seat: int, card: Any) -> list[tuple[int, int, int]]:
    skill = card.targeted
    if skill is None:
        return [(0, 0, 0)]
    want = seat if skill.target == "own" else other(seat)
    stage = state.side(want).stage
    out: list[tuple[int, int, int]] = []
    for p, unit in enumerate(stage, start=1):
        if unit is None or unit.leader:
            continue
        if skill.op == "destroy" and power_graze(state, unit)[1] > skill.max_graze:
            continue
        if skill.op == "move":
            out.extend((want, p, to) for to in NEIGHBOURS[p] if stage[to - 1] is None)
        else:
            out.append((want, p, 0))
    return out


def cast_options(state: State, seat: int) -> list[Any]:
    """R-7.3: each spell in 霊力, paid with itself and level−1 others (distinct by name), with or
    without one damage flip (R-Q8), on each valid target."""
    if not spell_allowed(state, seat):
        return []
    side = state.side(seat)
    faceup = [d for d in side.damage if d not in side.flipped]
    out: list[Any] = []
    for spell in distinct_cards(state, tuple(r for r in side.reiryoku if card_of(state, r).type == "spell")):
        card = card_of(state, spell)
        targets = _targets(state, seat, card)
        if not targets:
            continue
        others = [r for r in side.reiryoku if r != spell]
        flips = [0] + ([faceup[-1]] if faceup and card.lv > 1 else [])
        for flip in flips:
            need = spell_level(card, bool(flip)) - 1
            if need > len(others):
                continue
            seen: set[tuple[str, ...]] = set()
            for pay in combinations(others, need):
                names = tuple(sorted(card_of(state, p).key for p in pay))
                if names in seen:
                    continue
                seen.add(names)
                out.extend(c.Cast(card=spell, pay=pay, flip=flip, target_seat=ts, target=t, to=to)
                           for ts, t, to in targets)
    return out


_NEXT = {"step": "main", "main": "battle", "attack": "battle-over", "guard": "guard-done", "spell": "spell-done"}


_HANDLERS: dict[type, Any] = {
    c.Mulligan: _mulligan, c.Move: _move, c.Play: _play, c.Cast: _cast, c.Attack: _attack,
    c.Guard: _guard, c.GuardWith: _guard_with, c.Discard: _discard, c.Proceed: _proceed,
}
