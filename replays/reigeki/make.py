"""(Re)generate the reigeki regression corpus in this directory, deterministically.

- ``bot-<deck>-vs-<deck>-s<N>.kifu.jsonl``: random-bot matches over every ordered pair of presets;
- ``R-<clause>-<ruling>.kifu.jsonl``: one short scenario per ruling, started from a prepared
  position (built on a real setup, recorded as one setup event) and a few decisions;
  ``R-….probes.json`` beside it lists decisions the engine must refuse.

Generation fails if today's engine does not show a scenario's ruling. Usage (repository root)::

    .venv/bin/python replays/reigeki/make.py              # everything
    .venv/bin/python replays/reigeki/make.py bots         # only the bot matches
    .venv/bin/python replays/reigeki/make.py R-7.3        # scenarios whose names start so
    .venv/bin/python replays/reigeki/make.py --check      # write nothing; list what would change
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.reigeki import commands as c
from kifu.domain.reigeki import events as ev
from kifu.domain.reigeki.decide import card_of
from kifu.domain.reigeki.state import State, Unit
from kifu.tools import corpus
from kifu.tools.corpus import ANY_SEAT, Cmd, Labels, Refused, Scenario, Step, cited, none, one

HERE = Path(__file__).parent
RULES = find_ruleset("reigeki")
DECKS = [RULES.content.load_deck("scarlet"), RULES.content.load_deck("hakurei")]


def match_id(name: str) -> str:
    return corpus.match_id("reigeki", name)


class Board:
    """A position built on a real setup: opening hands back into the decks, then named cards moved
    out of a seat's deck or Ex deck into the zone a scenario needs (every card stays in one zone)."""

    def __init__(self, state: State) -> None:
        sides = [replace(s, deck=s.hand + s.deck, hand=(), mulliganed=True) for s in state.sides]
        self.state = replace(state, sides=(sides[0], sides[1]), first=1, active=1, turn=3, phase="main")
        self.cards: dict[str, int] = {}

    def _side(self, seat: int, **fields: Any) -> None:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **fields)
        self.state = replace(self.state, sides=(sides[0], sides[1]))

    def take(self, seat: int, key: str) -> int:
        side = self.state.side(seat)
        for zone in ("deck", "exdeck"):
            cards: tuple[int, ...] = getattr(side, zone)
            for card in cards:
                if card_of(self.state, card).key == key:
                    self._side(seat, **{zone: tuple(x for x in cards if x != card)})
                    return card
        raise LookupError(f"seat {seat} has no {key} left")

    def phase(self, phase: str) -> Board:
        self.state = replace(self.state, phase=phase)
        return self

    def put(self, seat: int, zone: str, key: str, label: str = "") -> int:
        card = self.take(seat, key)
        self._side(seat, **{zone: getattr(self.state.side(seat), zone) + (card,)})
        self.cards[label or key] = card
        return card

    def top(self, seat: int, key: str, label: str = "") -> int:
        card = self.take(seat, key)
        self._side(seat, deck=(card,) + self.state.side(seat).deck)
        self.cards[label or key] = card
        return card

    def damage(self, seat: int, n: int) -> None:
        for _ in range(n):
            key = next(card_of(self.state, d).key for d in self.state.side(seat).deck
                       if card_of(self.state, d).type == "character")
            self.put(seat, "damage", key, label=f"damage{seat}")

    def unit(self, seat: int, place: int, key: str, label: str = "", entered: int = 1, burst: bool = False,
             under: str = "") -> int:
        card = self.take(seat, key)
        below = self.take(seat, under) if under else 0
        if under:
            self.cards[under] = below
        stage = list(self.state.side(seat).stage)
        stage[place - 1] = Unit(card=card, under=below, entered=entered, burst=burst,
                                under_entered=entered if below else 0)
        self._side(seat, stage=tuple(stage))
        self.cards[label or key] = card
        return card


def start(s: Scenario, seed: int) -> tuple[Match, Labels]:
    if not s.prepared:
        return Match.create(RULES, match_id=match_id(s.name), seed=seed, decks=DECKS,
                            players=("alice", "bruno")), {}
    setup = Match.create(RULES, match_id=match_id(s.name), seed=seed, decks=DECKS, players=("alice", "bruno"))
    board = Board(setup.state)
    s.build(board)
    return Match.create(RULES, match_id=match_id(s.name), seed=seed, decks=DECKS, players=("alice", "bruno"),
                        start=board.state), board.cards


def _cmd(kind: type, **fields: Any) -> Cmd:
    """A command whose string fields name scenario labels (card ids known once the board is built)."""
    def build(k: Labels) -> Any:
        out = {}
        for name, value in fields.items():
            if isinstance(value, str):
                out[name] = k[value]
            elif isinstance(value, tuple):
                out[name] = tuple(k[v] for v in value)
            else:
                out[name] = value
        return kind(**out)
    return build


# -- positions ------------------------------------------------------------------------------------
def s_lv3_spell(b: Board) -> None:
    b.put(1, "reiryoku", "紅魔「スカーレットデビル」", "devil")
    for i, key in enumerate(("幻想「花鳥風月」", "霊符「夢想封印」", "結界「光と闇の網目」")):
        b.put(1, "reiryoku", key, f"r{i}")
    b.unit(1, 1, "チルノ", "cirno")


def s_lv5_spell(b: Board) -> None:
    b.put(1, "reiryoku", "「永夜返し」", "spell")
    for i, key in enumerate(("幻想「花鳥風月」", "霊符「夢想封印」", "結界「光と闇の網目」", "幻符「殺人ドール」")):
        b.put(1, "reiryoku", key, f"r{i}")
    b.put(1, "damage", "妖精メイド", "dmg")
    b.unit(2, 1, "チルノ", "weak")
    b.unit(2, 3, "八雲紫", "yukari")


def s_guarded_leader_attack(b: Board) -> None:
    b.phase("attack")
    b.unit(1, 1, "霧雨魔理沙", "marisa")
    b.put(2, "hand", "毛玉", "guard")
    b.put(2, "hand", "妖精メイド", "spare")
    b.top(2, "チルノ", "top")


def s_reigeki_guard(b: Board) -> None:
    b.phase("attack")
    b.unit(1, 1, "霧雨魔理沙", "marisa")
    b.put(2, "hand", "霊撃", "reigeki")


def s_reigeki_damage(b: Board) -> None:
    b.phase("attack")
    b.unit(1, 1, "チルノ", "cirno")
    b.top(2, "霊撃", "reigeki")


def s_equal_graze(b: Board) -> None:
    b.phase("attack")
    b.unit(1, 1, "妖精メイド", "maid")           # power 3
    b.unit(2, 1, "小悪魔", "koakuma")            # graze 3


def s_power_three(b: Board) -> None:
    b.phase("attack")
    b.unit(1, 1, "妖精メイド", "maid")


def s_lvex_same_turn(b: Board) -> None:
    b.unit(1, 1, "チルノ")
    b.unit(1, 3, "妖精メイド")
    b.unit(1, 4, "大妖精")
    b.unit(1, 6, "ルーミア")
    b.put(1, "hand", "霧雨魔理沙", "lv3")
    b.put(1, "hand", "霧雨魔理沙・Ex", "ex")


def s_lv3_neighbours(b: Board) -> None:
    b.unit(1, 1, "チルノ")
    b.unit(1, 3, "妖精メイド")
    b.put(1, "hand", "八雲紫", "yukari")
    b.put(1, "hand", "大妖精", "fairy")
    b.put(1, "hand", "ルーミア", "rumia")


def s_leader_step(b: Board) -> None:
    b.phase("step")
    b.unit(1, 1, "チルノ", "cirno")
    b.unit(1, 3, "妖精メイド", "maid")


def s_both_lose(b: Board) -> None:
    for seat in (1, 2):
        b.damage(seat, 6)
        b.top(seat, "毛玉", f"top{seat}")
    b.put(1, "reiryoku", "夢符「二重結界」", "barrier")
    b.put(1, "reiryoku", "霊符「夢想封印」", "p1")
    b.put(1, "reiryoku", "結界「光と闇の網目」", "p2")


def s_one_spell(b: Board) -> None:
    b.put(1, "reiryoku", "霊符「夢想封印」", "draw")
    b.put(1, "reiryoku", "結界「光と闇の網目」", "guard")


def s_highrange(b: Board) -> None:
    b.phase("attack")
    b.unit(1, 4, "チルノ", "cirno")
    b.unit(1, 6, "小悪魔", "wriggle")


def s_attacker_destroyed(b: Board) -> None:
    b.phase("attack")
    b.unit(1, 1, "チルノ", "cirno")
    b.put(2, "reiryoku", "幻符「殺人ドール」", "doll")
    b.put(2, "reiryoku", "霊符「夢想封印」", "pay")
    b.put(2, "hand", "毛玉", "guard")
    b.put(2, "hand", "妖精メイド", "spare")


def s_lvex_leaves(b: Board) -> None:
    b.state = replace(b.state, active=2)
    b.unit(1, 5, "霧雨魔理沙・Ex", "ex", under="霧雨魔理沙")
    b.put(2, "reiryoku", "恋符「マスタースパーク」", "spark")
    b.put(2, "reiryoku", "霊符「夢想封印」", "p1")
    b.put(2, "reiryoku", "結界「光と闇の網目」", "p2")


def s_hand_limit(b: Board) -> None:
    b.phase("attack")
    for i, key in enumerate(("毛玉",) * 6 + ("チルノ", "妖精メイド", "大妖精")):
        b.put(1, "hand", key, f"h{i}")


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("R-7.3-lv3-spell-is-the-spell-and-two-others", "seed example 1: a Lv3 spell discards itself and 2 others",
             s_lv3_spell,
             (Refused(1, _cmd(c.Cast, card="devil", pay=("r0",), target_seat=1, target=1),
                      "R-7.3", "one other is short"),
              Step(1, _cmd(c.Cast, card="devil", pay=("r0", "r1"), target_seat=1, target=1))),
             lambda es, k: one(es, ev.SpellCast, card=k["devil"], level=3) and cited(es, "R-C9", ev.Modified)),
    Scenario("R-7.3-lv1-spell-is-the-spell-only", "seed example 2: a Lv1 spell discards only itself", s_one_spell,
             (Refused(1, _cmd(c.Cast, card="draw", pay=("guard",)), "R-7.3", "a Lv1 spell takes no other 霊力"),
              Step(1, _cmd(c.Cast, card="draw"))),
             lambda es, k: one(es, ev.SpellCast, card=k["draw"], level=1, pay=())),
    Scenario("R-7.3-lv5-spell-three-others-and-a-flip", "seed example 3: Lv5 = the spell, 3 others and 1 damage flip",
             s_lv5_spell,
             (Refused(1, _cmd(c.Cast, card="spell", pay=("r0", "r1", "r2")),
                      "R-7.3", "without the flip it needs 4 others"),
              Step(1, _cmd(c.Cast, card="spell", pay=("r0", "r1", "r2"), flip="dmg"))),
             lambda es, k: one(es, ev.SpellCast, card=k["spell"], level=4) and one(es, ev.DamageFlipped, card=k["dmg"])
             and one(es, ev.CharacterLeft, card=k["weak"]) and none(es, ev.CharacterLeft, card=k["yukari"])),
    Scenario("R-8.3-guarded-attack-still-hits-the-leader",
             "a guard lowers power 6 to 4, still above the leader's 3: the top card is flipped into damage",
             s_guarded_leader_attack,
             (Step(1, _cmd(c.Attack, attacker=1, target=2)), Step(2, _cmd(c.Guard, card="guard")),
              Step(2, _cmd(c.Proceed))),
             lambda es, k: one(es, ev.Guarded, card=k["guard"], power=4)
             and one(es, ev.BattleResolved, power=4, graze=3, success=True, leader=True)
             and one(es, ev.DamageTaken, card=k["top"])),
    Scenario("R-3.4-reigeki-guard-nullifies", "a 霊撃 from hand nullifies an attack of any power", s_reigeki_guard,
             (Step(1, _cmd(c.Attack, attacker=1, target=2)), Step(2, _cmd(c.Guard, card="reigeki"))),
             lambda es, k: one(es, ev.Nullified, card=k["reigeki"]) and none(es, ev.BattleResolved)),
    Scenario("R-2.4-reigeki-damage-goes-to-reiryoku", "a 霊撃 turned up by damage goes to 霊力 and cancels it",
             s_reigeki_damage,
             (Step(1, _cmd(c.Attack, attacker=1, target=2)),),
             lambda es, k: one(es, ev.ReigekiCharged, card=k["reigeki"]) and none(es, ev.DamageTaken)),
    Scenario("R-8.6-power-equal-to-graze-succeeds", "power 3 against graze 3 discards the defender", s_equal_graze,
             (Step(1, _cmd(c.Attack, attacker=1, target=1)),),
             lambda es, k: one(es, ev.BattleResolved, power=3, graze=3, success=True)
             and one(es, ev.CharacterLeft, card=k["koakuma"])),
    Scenario("R-Q3-power-3-does-not-hurt-the-leader", "the leader is hit only by power greater than 3", s_power_three,
             (Step(1, _cmd(c.Attack, attacker=1, target=2)),),
             lambda es, k: one(es, ev.BattleResolved, power=3, success=False, leader=True)
                           and none(es, ev.DamageTaken)),
    Scenario("R-7.2-lvex-not-on-a-lv3-played-this-turn", "an LvEx needs a same-named Lv3 from an earlier turn",
             s_lvex_same_turn,
             (Step(1, _cmd(c.Play, card="lv3", place=5)),
              Refused(1, _cmd(c.Play, card="ex", place=5), "R-7.2", "the Lv3 entered this turn")),
             lambda es, k: one(es, ev.Played, card=k["lv3"], place=5) and none(es, ev.Played, card=k["ex"])),
    Scenario("R-7.1-lv3-needs-three-neighbours", "a Lv3 needs 3 own cards next to its area", s_lv3_neighbours,
             (Refused(1, _cmd(c.Play, card="yukari", place=5), "R-7.1", "area 5 sees only the leader"),
              Step(1, _cmd(c.Play, card="fairy", place=4)), Step(1, _cmd(c.Play, card="rumia", place=6)),
              Step(1, _cmd(c.Play, card="yukari", place=5))),
             lambda es, k: one(es, ev.Played, card=k["yukari"], place=5)),
    Scenario("R-6.4-leader-steps-onto-own-character", "the leader may enter an own character's area, discarding it",
             s_leader_step,
             (Refused(1, _cmd(c.Move, source=1, to=2), "R-6.4", "a character cannot enter an occupied area"),
              Step(1, _cmd(c.Move, source=2, to=1))),
             lambda es, k: one(es, ev.Moved, displaced=k["cirno"], to=1)),
    Scenario("R-Q11-both-lose-at-once-is-a-draw", "both players reaching 7 damage in one ruling: a draw", s_both_lose,
             (Step(1, _cmd(c.Cast, card="barrier", pay=("p1", "p2"))),),
             lambda es, k: one(es, ev.Lost, seat=1) and one(es, ev.Lost, seat=2) and one(es, ev.GameOver, winner=0)),
    Scenario("R-3.3-one-spell-per-turn", "a player uses at most one spell per turn", s_one_spell,
             (Step(1, _cmd(c.Cast, card="draw")),
              Refused(1, _cmd(c.Cast, card="guard"), "R-3.3", "this turn's spell is used")),
             lambda es, k: one(es, ev.SpellCast, card=k["draw"])),
    Scenario("R-8.1-back-row-attacks-need-highrange",
             "only ハイレンジ characters attack from the back row", s_highrange,
             (Refused(1, _cmd(c.Attack, attacker=4, target=2), "R-8.1", "no ハイレンジ"),
              Step(1, _cmd(c.Attack, attacker=6, target=2))),
             lambda es, k: one(es, ev.AttackDeclared, attacker=k["wriggle"])),
    Scenario("R-Q13-attacker-destroyed-in-the-spell-step", "an attacker gone before the battle step: no result",
             s_attacker_destroyed,
             (Step(1, _cmd(c.Attack, attacker=1, target=2)), Step(2, _cmd(c.Guard, card="guard")),
              Step(2, _cmd(c.Proceed)), Step(2, _cmd(c.Cast, card="doll", pay=("pay",), target_seat=1, target=1))),
             lambda es, k: one(es, ev.BattleEnded, result="no result") and none(es, ev.BattleResolved)),
    Scenario("R-7.2-lvex-leaves-its-lv3-behind", "a discarded LvEx leaves the Lv3 beneath it on the stage",
             s_lvex_leaves,
             (Step(2, _cmd(c.Cast, card="spark", pay=("p1", "p2"), target_seat=1, target=5)),),
             lambda es, k: one(es, ev.CharacterLeft, card=k["ex"], stays=k["霧雨魔理沙"])),
    Scenario("R-6.7-hand-limit-eight", "the end phase discards down to 8", s_hand_limit,
             (Step(1, _cmd(c.Proceed)), Refused(1, _cmd(c.Proceed), "R-6.7", "the hand holds 9"),
              Step(1, _cmd(c.Discard, card="h0"))),
             lambda es, k: one(es, ev.Discarded, cards=(k["h0"],)) and cited(es, "R-6", ev.TurnBegan)),
    Scenario("R-5.4-mulligan-once-each", "each player may redraw the opening hand once, first player first",
             lambda b: None,
             (Step(ANY_SEAT, _cmd(c.Mulligan, redraw=True)), Step(ANY_SEAT, _cmd(c.Mulligan, redraw=False))),
             lambda es, k: cited(es, "R-5.4", ev.HandReturned) and one(es, ev.HandKept), prepared=False),
)


def main(argv: list[str] | None = None) -> int:
    return corpus.main(argv, here=HERE, doc=__doc__ or "",
                       bots=lambda: corpus.bot_matches(RULES, seeds=(1, 2)),
                       scenarios=lambda prefixes: corpus.scenarios(SCENARIOS, prefixes, start))


if __name__ == "__main__":
    sys.exit(main())
