"""(Re)generate the WORLFARD regression corpus in this directory, deterministically.

- ``bot-<deck>-vs-<deck>-s<N>.kifu.jsonl``: bot matches over every ordered pair of preset decks;
- ``W-<clause>-<ruling>.kifu.jsonl``: one short scenario per tricky ruling, started from a
  prepared position (a header ``start`` state, recorded as one setup event) and a few decisions;
  ``W-….probes.json`` beside it lists decisions the engine must refuse (the record holds only
  what was accepted).

Each scenario states what it demonstrates, and generation fails if today's engine does not do
it, so a ruling that changed is caught here too. Usage (from the repository root)::

    .venv/bin/python replays/worlfard/make.py              # everything
    .venv/bin/python replays/worlfard/make.py bots         # only the bot matches
    .venv/bin/python replays/worlfard/make.py W-6.4 W-11   # scenarios whose names start so
    .venv/bin/python replays/worlfard/make.py --check      # write nothing; list what would change

After an intended rules change, prefer ``kifu audit --rerecord replays/`` (it keeps every
recorded decision); regenerate with this script what it leaves alone.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard import commands as c
from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.decks import DeckList
from kifu.domain.worlfard.state import Combat, State, Tower, Unit
from kifu.domain.worlfard.vocabulary import Phase, PhaseName
from kifu.tools import corpus
from kifu.tools.corpus import ANY_SEAT, Cmd, Labels, Refused, Scenario, Step, cited, none, one

HERE = Path(__file__).parent
RULES = find_ruleset("worlfard")


def match_id(name: str) -> str:
    return corpus.match_id("worlfard", name)


# -- scenario positions ---------------------------------------------------------------------------
# Vanilla starter cards only (no skills), so each scenario shows its one ruling and nothing else.
DECK_A = DeckList(name="scenario-fire-wind", hearts=("紅蓮の剣士", "疾風の鷹", "大地の戦士"), cards=tuple(
    n for n in ("紅蓮の剣士", "炎獄の番犬", "焔の巨兵", "火蜥蜴サラマン", "疾風の鷹", "翠嵐の弓手", "嵐竜ゲイル",
                "大地の戦士", "影の暗殺者", "冥府の亡霊", "闇夜の蝙蝠", "曙光の妖精", "天罰の騎士") for _ in range(3)
) + ("双属の精霊",))
DECK_B = DeckList(name="scenario-water-earth", hearts=("潮騒の槍兵", "聖堂の守り手", "ディプテラ"), cards=tuple(
    n for n in ("潮騒の槍兵", "深海の大亀", "蒼氷の魔導師", "水妖ウンディーネ", "岩窟のゴーレム", "ドラムトーテム",
                "山嶺の巨獣", "聖堂の守り手", "光翼の天使", "ディプテラ", "風土の旅人", "魔王の眷属", "闇夜の蝙蝠")
    for _ in range(3)) + ("双属の精霊",))


def opening(seed: int, name: str) -> Match:
    """A real match after the order choice (seat 1 goes first) and two kept hands."""
    match = Match.create(RULES, match_id=match_id(name), seed=seed, decks=[DECK_A, DECK_B],
                         players=("alice", "bruno"))
    (chooser,) = match.awaiting
    match.submit(chooser, c.ChooseOrder(go_first=chooser == 1))
    match.submit(1, c.Mulligan(redraw=False))
    match.submit(2, c.Mulligan(redraw=False))
    return match


class Board:
    """A position built from a real opening: named cards are moved out of a seat's deck (or
    hand) into the zone a scenario needs, so every card stays in exactly one zone."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.cards: dict[str, int] = {}   # label -> card id, for steps and checks

    def _side(self, seat: int, **fields: Any) -> None:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **fields)
        self.state = replace(self.state, sides=tuple(sides))

    def take(self, seat: int, name: str) -> int:
        side = self.state.side(seat)
        for zone in ("deck", "hand"):
            cards: tuple[int, ...] = getattr(side, zone)
            for card in cards:
                if self.state.name(card) == name:
                    self._side(seat, **{zone: tuple(x for x in cards if x != card)})
                    return card
        raise LookupError(f"seat {seat} has no {name} left in deck or hand")

    def turn(self, phase: PhaseName, seat: int = 1, turn: int = 3) -> Board:
        self.state = replace(self.state, phase=phase, turn=turn, turn_seat=seat, tower_set=False)
        return self

    def clear_hands(self) -> Board:
        for seat in (1, 2):
            side = self.state.side(seat)
            self._side(seat, hand=(), deck=side.deck + side.hand)
        return self

    def hand(self, seat: int, name: str, label: str = "") -> int:
        card = self.take(seat, name)
        self._side(seat, hand=self.state.side(seat).hand + (card,))
        self.cards[label or name] = card
        return card

    def soul(self, seat: int, *names: str) -> tuple[int, ...]:
        cards = tuple(self.take(seat, n) for n in names)
        self._side(seat, soul=self.state.side(seat).soul + cards)
        return cards

    def unit(self, seat: int, line: int, name: str, *, label: str = "", damage: int = 0,
             broken: bool = False) -> int:
        card = self.take(seat, name)
        stage = list(self.state.side(seat).stage)
        assert stage[line - 1] is None
        stage[line - 1] = Unit(card=card, damage=damage, broken=broken)
        self._side(seat, stage=tuple(stage))
        self.cards[label or name] = card
        return card

    def tower(self, seat: int, line: int, *names: str, broken: bool = False) -> None:
        cards = tuple(self.take(seat, n) for n in names)
        towers = list(self.state.side(seat).towers)
        towers[line - 1] = Tower(cards=towers[line - 1].cards + cards, broken=broken)
        self._side(seat, towers=tuple(towers))

    def hearts(self, seat: int, broken: tuple[int, ...] = ()) -> None:
        hearts = tuple(replace(h, broken=i in broken) for i, h in enumerate(self.state.side(seat).hearts))
        self._side(seat, hearts=hearts)

    def life(self, seat: int, life: int) -> None:
        self._side(seat, life=life)

    def empty_deck(self, seat: int) -> None:
        side = self.state.side(seat)
        self._side(seat, deck=(), grave=side.grave + side.deck)

    def to_grave(self, seat: int, name: str, label: str = "") -> int:
        card = self.take(seat, name)
        self._side(seat, grave=self.state.side(seat).grave + (card,))
        self.cards[label or name] = card
        return card


def auto_pass(match: Match) -> None:
    """Reaction windows nobody in a scenario uses: both players pass (W-13.1)."""
    while match.outcome is None:
        if not match.awaiting:
            return
        (seat,) = match.awaiting
        if c.Pass() not in match.legal(seat):
            return
        match.submit(seat, c.Pass())


def start(s: Scenario, seed: int) -> tuple[Match, Labels]:
    """A scenario's match: from its prepared position (built on a real opening), or a plain setup."""
    if not s.prepared:
        return Match.create(RULES, match_id=match_id(s.name), seed=seed, decks=[DECK_A, DECK_B],
                            players=("alice", "bruno")), {}
    board = Board(opening(seed, s.name).state)
    s.build(board)
    return Match.create(RULES, match_id=match_id(s.name), seed=seed, decks=[DECK_A, DECK_B],
                        players=("alice", "bruno"), start=board.state), board.cards


# -- the scenarios --------------------------------------------------------------------------------
def _main(b: Board) -> None:
    b.clear_hands()
    b.turn(Phase.MAIN1)


def _battle(b: Board) -> None:
    b.clear_hands()
    b.turn(Phase.BATTLE)


def s_redundant_tower(b: Board) -> None:
    _main(b)
    b.tower(1, 1, "火蜥蜴サラマン", "火蜥蜴サラマン", "火蜥蜴サラマン")
    b.tower(1, 2, "闇夜の蝙蝠", "闇夜の蝙蝠")
    b.hand(1, "炎獄の番犬", "hound")


def s_soul_exact(b: Board) -> None:
    _main(b)
    b.tower(1, 1, "火蜥蜴サラマン", "火蜥蜴サラマン")
    souls = b.soul(1, "曙光の妖精", "闇夜の蝙蝠")
    b.cards["soul1"], b.cards["soul2"] = souls
    b.hand(1, "炎獄の番犬", "hound")


def s_short_payment(b: Board) -> None:
    _main(b)
    b.tower(1, 1, "火蜥蜴サラマン", "火蜥蜴サラマン")
    b.tower(1, 2, "闇夜の蝙蝠")
    b.hand(1, "炎獄の番犬", "hound")


def s_keeper_breaks(b: Board) -> None:
    _main(b)
    b.tower(1, 1, "火蜥蜴サラマン", "火蜥蜴サラマン")
    b.unit(1, 1, "大地の戦士", label="keeper")
    b.hand(1, "紅蓮の剣士", "swordsman")


def s_broken_keeper(b: Board) -> None:
    _main(b)
    b.tower(1, 1, "火蜥蜴サラマン", "火蜥蜴サラマン")
    b.unit(1, 1, "大地の戦士", label="keeper", broken=True)
    b.tower(1, 2, "闇夜の蝙蝠", "闇夜の蝙蝠")
    b.hand(1, "紅蓮の剣士", "swordsman")


def s_one_tower(b: Board) -> None:
    _main(b)
    b.hand(1, "火蜥蜴サラマン", "first")
    b.hand(1, "闇夜の蝙蝠", "second")


def s_move(b: Board) -> None:
    _main(b)
    b.unit(1, 2, "大地の戦士", label="warrior")


def s_sleep(b: Board) -> None:
    _main(b)
    b.tower(1, 1, "火蜥蜴サラマン", "火蜥蜴サラマン")
    b.hand(1, "紅蓮の剣士", "swordsman")


def s_first_turn(b: Board) -> None:
    b.clear_hands()
    b.turn(Phase.MAIN1, seat=1, turn=1)


def s_target_range(b: Board) -> None:
    _battle(b)
    b.unit(1, 3, "紅蓮の剣士", label="swordsman")


def s_diagonal(b: Board) -> None:
    _battle(b)
    b.unit(1, 2, "曙光の妖精", label="fairy")


def s_evade_too_slow(b: Board) -> None:
    _battle(b)
    b.unit(1, 2, "疾風の鷹", label="hawk")
    b.unit(2, 2, "潮騒の槍兵", label="lancer")


def s_evade(b: Board) -> None:
    _battle(b)
    b.unit(1, 2, "紅蓮の剣士", label="swordsman")
    b.unit(2, 2, "ディプテラ", label="diptera")


def s_blocker_range(b: Board) -> None:
    _battle(b)
    b.unit(1, 2, "大地の戦士", label="warrior")
    b.unit(2, 4, "蒼氷の魔導師", label="mage")
    b.unit(2, 5, "潮騒の槍兵", label="lancer")


def s_hearts_bottom_up(b: Board) -> None:
    _battle(b)
    b.unit(1, 3, "火蜥蜴サラマン", label="salamander")   # STR 2
    b.hearts(2, broken=(1,))


def s_hearts_then_life(b: Board) -> None:
    _battle(b)
    b.unit(1, 3, "嵐竜ゲイル", label="gale")            # STR 5


def s_heart_recovers(b: Board) -> None:
    _main(b)
    b.hearts(2, broken=(0, 2))


def s_str_minus_def(b: Board) -> None:
    _battle(b)
    b.unit(1, 2, "大地の戦士", label="warrior")
    b.unit(2, 2, "聖堂の守り手", label="guardian")


def s_negative_def(b: Board) -> None:
    _battle(b)
    b.unit(1, 2, "炎獄の番犬", label="hound")
    b.unit(2, 2, "潮騒の槍兵", label="lancer")


def s_never_below_zero(b: Board) -> None:
    _battle(b)
    b.unit(1, 2, "曙光の妖精", label="fairy")
    b.unit(2, 2, "深海の大亀", label="turtle")


def s_keeper_element(b: Board) -> None:
    _battle(b)
    b.unit(1, 2, "大地の戦士", label="warrior")
    b.tower(2, 2, "水妖ウンディーネ")
    b.unit(2, 2, "潮騒の槍兵", label="lancer")


def s_deck_out(b: Board) -> None:
    _main(b)
    b.empty_deck(2)


def s_life_zero(b: Board) -> None:
    _battle(b)
    b.unit(1, 3, "紅蓮の剣士", label="swordsman")
    b.hearts(2, broken=(0, 1, 2))
    b.life(2, 2)


def s_attacker_left(b: Board) -> None:
    b.clear_hands()
    b.turn(Phase.BATTLE)
    gone = b.to_grave(1, "紅蓮の剣士", "swordsman")
    b.unit(2, 2, "潮騒の槍兵", label="lancer")
    b.state = replace(b.state, combat=Combat(attacker=2, attacker_card=gone, target=2, step="defend"))


def _cmd(factory: Callable[..., Any], **fields: Any) -> Cmd:
    """A command whose fields may name a card by its label: card="hound" → the hound's id."""
    def make(labels: dict[str, int]) -> Any:
        def resolve(value: Any) -> Any:
            if isinstance(value, str) and value in labels:
                return labels[value]
            if isinstance(value, tuple):
                return tuple(resolve(v) for v in value)
            return value
        return factory(**{k: resolve(v) for k, v in fields.items()})
    return make


def attack(line: int, target: int) -> tuple[Step, Step]:
    return Step(1, _cmd(c.Attack, line=line)), Step(1, _cmd(c.Target, line=target))


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("W-6.4-redundant-tower-rejected", "a payment may not include a source it does not need", s_redundant_tower,
             (Refused(1, _cmd(c.Summon, card="hound", line=3, towers=(1, 2)), "W-6.4",
                      "HT3 alone pays LV3: the HT2 tower is redundant"),
              Step(1, _cmd(c.Summon, card="hound", line=3, towers=(1,)))),
             lambda es, k: one(es, ev.CostPaid, cost=3, generated=3, towers=(1,))),
    Scenario("W-6.4-soul-completes-exact-cost", "souls are worth 1 each and may complete a cost exactly", s_soul_exact,
             (Refused(1, _cmd(c.Summon, card="hound", line=3, towers=(1,), souls=("soul1", "soul2")), "W-6.4",
                      "HT2 + 2 souls overpays LV3 and either soul is redundant"),
              Step(1, _cmd(c.Summon, card="hound", line=3, towers=(1,), souls=("soul1",)))),
             lambda es, k: one(es, ev.CostPaid, cost=3, generated=3)),
    Scenario("W-6.1-payment-short-of-cost-rejected", "the sources must generate at least the cost", s_short_payment,
             (Refused(1, _cmd(c.Summon, card="hound", line=3, towers=(1,)), "W-6.1", "HT2 does not pay LV3"),
              Step(1, _cmd(c.Summon, card="hound", line=3, towers=(1, 2)))),
             lambda es, k: one(es, ev.CostPaid, cost=3, generated=3, towers=(1, 2))),
    Scenario("W-6.3-keeper-breaks-with-its-tower", "breaking a tower for cost breaks its keeper too", s_keeper_breaks,
             (Step(1, _cmd(c.Summon, card="swordsman", line=3, towers=(1,))),),
             lambda es, k: cited(es, "W-6.3", ev.KeeperBroken)),
    Scenario("W-6.3-broken-keeper-holds-its-tower", "a tower whose keeper is broken cannot be broken for cost",
             s_broken_keeper,
             (Refused(1, _cmd(c.Summon, card="swordsman", line=3, towers=(1,)), "W-6.3",
                      "the keeper on line 1 is broken"),
              Step(1, _cmd(c.Summon, card="swordsman", line=3, towers=(2,)))),
             lambda es, k: one(es, ev.CostPaid, towers=(2,))),
    Scenario("W-7.1-one-tower-per-turn", "a player sets up at most one tower per turn", s_one_tower,
             (Step(1, _cmd(c.SetTower, card="first", line=1)),
              Refused(1, _cmd(c.SetTower, card="second", line=2), "W-7.1", "a tower was already set this turn")),
             lambda es, k: one(es, ev.TowerSet, line=1, height=1)),
    Scenario("W-8.2-move-breaks-the-unit", "a unit moves to an adjacent empty spot only, and breaks", s_move,
             (Refused(1, _cmd(c.Move, line=2, to=4), "W-8.2", "line 4 is not adjacent to line 2"),
              Step(1, _cmd(c.Move, line=2, to=3))),
             lambda es, k: one(es, ev.UnitMoved, line=2, to=3) and cited(es, "W-8.2", ev.UnitBroken)),
    Scenario("W-9.1-summoned-unit-sleeps-until-end-phase", "a new unit is asleep: it cannot attack; sleep ends at the "
             "end phase", s_sleep,
             (Step(1, _cmd(c.Summon, card="swordsman", line=3, towers=(1,))),
              Step(1, _cmd(c.Proceed, to="battle")),
              Refused(1, _cmd(c.Attack, line=3), "W-9.1", "the unit summoned this turn is asleep"),
              Step(1, _cmd(c.Proceed, to="end"))),
             lambda es, k: cited(es, "W-9.1", ev.SleepRemoved)),
    Scenario("W-5.2-no-battle-on-the-first-turn", "the first player skips the battle phase of their first turn",
             s_first_turn,
             (Refused(1, _cmd(c.Proceed, to="battle"), "W-5.2", "turn 1 of the first player"),
              Step(1, _cmd(c.Proceed, to="end"))),
             lambda es, k: one(es, ev.TurnBegan, turn=2, seat=2)),
    Scenario("W-12.2-target-beyond-agi-rejected", "the target spot must be within the attacker's AGI", s_target_range,
             (Step(1, _cmd(c.Attack, line=3)),
              Refused(1, _cmd(c.Target, line=4), "W-12.2", "spot 4 is at distance 2 from line 3; AGI 1"),
              Step(1, _cmd(c.Target, line=3)),
              Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.TargetDeclared, line=3, distance=1)),
    Scenario("W-Q2-diagonal-spot-is-two-away", "Manhattan distance: the diagonal enemy spot is 2 away", s_diagonal,
             (Step(1, _cmd(c.Attack, line=2)),
              Refused(1, _cmd(c.Target, line=4), "W-12.2", "spot 4 is 3 away from line 2; AGI 2"),
              Step(1, _cmd(c.Target, line=3)),
              Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.TargetDeclared, line=3, distance=2)),
    Scenario("W-12.4-evade-needs-agi-of-the-attacker", "only a unit with AGI at least the attacker's may evade",
             s_evade_too_slow,
             (*attack(2, 2),
              Refused(2, _cmd(c.Evade), "W-12.4", "the lancer's AGI 1 is below the hawk's AGI 3"),
              Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.UnitDestroyed, card=k["hawk"])),
    Scenario("W-12.4-evade-turns-the-attack-on-the-player", "an evading unit breaks and the attacker hits the player",
             s_evade,
             (*attack(2, 2), Step(2, _cmd(c.Evade))),
             lambda es, k: one(es, ev.DefenseFixed, on_player=True) and one(es, ev.PlayerAttacked, seat=2)),
    Scenario("W-12.4-blocker-within-its-agi", "a blocker's distance to the target spot must be within its AGI",
             s_blocker_range,
             (*attack(2, 2),
              Refused(2, _cmd(c.Block, line=5), "W-12.4", "the lancer on line 5 is 3 away; AGI 1"),
              Step(2, _cmd(c.Block, line=4))),
             lambda es, k: one(es, ev.BlockDeclared, line=4, distance=2)),
    Scenario("W-11.2-hearts-break-bottom-up", "ready hearts absorb damage from the bottom of the pile up",
             s_hearts_bottom_up,
             (*attack(3, 3), Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.HeartsBroken, seat=2, indexes=(2, 0)) and none(es, ev.LifeLost)),
    Scenario("W-11.2-hearts-absorb-then-life", "damage beyond the ready hearts is lost from life", s_hearts_then_life,
             (*attack(3, 3), Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.HeartsBroken, seat=2, indexes=(2, 1, 0))
                           and one(es, ev.LifeLost, seat=2, amount=2)),
    Scenario("W-11.3-top-most-broken-heart-recovers", "at the start phase the top-most broken heart recovers",
             s_heart_recovers,
             (Step(1, _cmd(c.Proceed, to="end")),),
             lambda es, k: one(es, ev.HeartRecovered, seat=2, index=0)),
    Scenario("W-12.6-damage-is-str-minus-def", "combat damage is STR reduced by the receiver's DEF", s_str_minus_def,
             (*attack(2, 2), Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.CombatDamage, card=k["guardian"], amount=2, STR=3, DEF=1)),
    Scenario("W-12.6-negative-def-increases-damage", "a negative DEF adds to the damage received", s_negative_def,
             (*attack(2, 2), Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.CombatDamage, card=k["hound"], amount=3, DEF=-1)
             and one(es, ev.UnitDestroyed, card=k["hound"])),
    Scenario("W-12.6-damage-never-below-zero", "DEF above STR leaves 0 damage, not a negative amount",
             s_never_below_zero,
             (*attack(2, 2), Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.CombatDamage, card=k["turtle"], amount=0)),
    Scenario("W-7.3-keeper-of-its-element-gets-vit", "a keeper sharing its tower's element has VIT+1",
             s_keeper_element,
             (*attack(2, 2), Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.CombatDamage, card=k["lancer"], amount=3)
             and none(es, ev.UnitDestroyed, card=k["lancer"])),
    Scenario("W-1.1-deck-out-loses", "a player who cannot draw at their start phase loses", s_deck_out,
             (Step(1, _cmd(c.Proceed, to="end")),),
             lambda es, k: one(es, ev.DeckOut, seat=2) and one(es, ev.MatchEnded, winner=1)),
    Scenario("W-1.1-life-zero-loses", "a player at life 0 or less loses", s_life_zero,
             (*attack(3, 3), Step(2, _cmd(c.NoDefense))),
             lambda es, k: one(es, ev.PlayerLost, seat=2) and one(es, ev.MatchEnded, winner=1)),
    Scenario("W-12.7-attacker-gone-combat-stops", "if a combat unit has left the field the combat stops",
             s_attacker_left,
             (Step(2, _cmd(c.NoDefense)),),
             lambda es, k: cited(es, "W-12.7") and none(es, ev.CombatDamage)),
    Scenario("W-4.4-mulligan-once-each", "each player may redraw their opening hand once, first player first",
             lambda b: None,
             (Step(ANY_SEAT, _cmd(c.ChooseOrder, go_first=True)),
              Step(ANY_SEAT, _cmd(c.Mulligan, redraw=True)),
              Step(ANY_SEAT, _cmd(c.Mulligan, redraw=False))),
             lambda es, k: cited(es, "W-4.4", ev.HandReturned) and one(es, ev.MulliganDeclined),
             prepared=False),
)


def main(argv: list[str] | None = None) -> int:
    return corpus.main(argv, here=HERE, doc=__doc__ or "",
                       bots=lambda: corpus.bot_matches(RULES, seeds=(1, 2)),
                       scenarios=lambda prefixes: corpus.scenarios(SCENARIOS, prefixes, start, auto_pass))


if __name__ == "__main__":
    sys.exit(main())
