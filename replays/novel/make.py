"""(Re)generate the novel regression corpus in this directory, deterministically.

- ``bot-<deck>-vs-<deck>-s<N>.kifu.jsonl``: random-bot matches over every ordered pair of presets;
- ``N-<clause>-<ruling>.kifu.jsonl``: one short scenario per ruling, started from a prepared
  position built out of the preset decks named in the header (every card stays in one zone),
  then sealed choices played through the core (seal, reveal, decide). ``….probes.json`` beside
  a record lists choices the engine must refuse.

Usage (from the repository root)::

    .venv/bin/python replays/novel/make.py              # everything
    .venv/bin/python replays/novel/make.py bots         # only the bot matches
    .venv/bin/python replays/novel/make.py N-6.5        # scenarios whose names start so
    .venv/bin/python replays/novel/make.py --check      # write nothing; list what would change
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.novel import events as ev
from kifu.domain.novel.commands import Act, Done, Pick, Reveal
from kifu.domain.novel.state import State
from kifu.tools import corpus
from kifu.tools.corpus import Labels, Refused, Scenario, Step, none, one

HERE = Path(__file__).parent
RULES = find_ruleset("novel")


class Board:
    """A position made from the real first-phase state of two preset decks: named cards are moved
    out of a seat's deck into the zone a scenario needs."""

    def __init__(self, state: State, turn: int = 2) -> None:
        self.state = replace(state, phase="select", turn=turn)
        self.cards: Labels = {}

    def _take(self, seat: int, name: str) -> int:
        for c in self.state.cards:
            if c.owner == seat and c.name == name and c.zone == "deck":
                return c.id
        raise LookupError(f"seat {seat} has no {name} left in its deck")

    def _set(self, cid: int, **fields: Any) -> None:
        cards = list(self.state.cards)
        cards[cid - 1] = replace(cards[cid - 1], **fields)
        self.state = replace(self.state, cards=tuple(cards))

    def _row(self, seat: int, row: str, cid: int) -> None:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **{row: getattr(sides[seat - 1], row) + (cid,)})
        self.state = replace(self.state, sides=tuple(sides))

    def put(self, seat: int, row: str, name: str, label: str = "", hp: int | None = None) -> int:
        cid = self._take(seat, name)
        self._set(cid, zone=row, summoned=0, **({"hp": hp} if hp is not None else {}))
        self._row(seat, row, cid)
        self.cards[label or name] = cid
        return cid

    def magic(self, seat: int, name: str, label: str = "") -> int:
        cid = self._take(seat, name)
        self._set(cid, zone="magic", summoned=0, face_down=True)
        self._row(seat, "magic", cid)
        self.cards[label or name] = cid
        return cid

    def grave(self, seat: int, name: str, label: str = "", **stats: int) -> int:
        cid = self._take(seat, name)
        self._set(cid, zone="grave", hp=0, summoned=0, **stats)
        self.cards[label or name] = cid
        return cid

    def deck(self, seat: int, name: str, label: str) -> int:
        cid = self._take(seat, name)
        self.cards[label] = cid
        return cid

    def only(self, seat: int, *names: str) -> None:
        """Empty the seat's deck into the graveyard except for the named cards (one copy each)."""
        keep = {self._take(seat, n) for n in names}
        for c in self.state.cards:
            if c.owner == seat and c.zone == "deck" and c.id not in keep:
                self._set(c.id, zone="grave")


DECKS: dict[str, tuple[str, str]] = {}


def start(s: Scenario, seed: int) -> tuple[Match, Labels]:
    d1, d2 = DECKS.get(s.name, ("tide-flame", "tide-flame"))
    decks = [RULES.content.load_deck(d1), RULES.content.load_deck(d2)]
    first = Match.create(RULES, match_id=corpus.match_id("novel", s.name), seed=seed, decks=decks,
                         players=("alice", "bruno"))
    board = Board(first.state)
    s.build(board)
    return Match.create(RULES, match_id=corpus.match_id("novel", s.name), seed=seed, decks=decks,
                        players=("alice", "bruno"), start=board.state), board.cards


def pick(label: str, target: str = "", face_down: bool = False) -> Any:
    return lambda k: Pick(card=k[label], target=k[target] if target else 0, face_down=face_down)


def act(card: str, target: str) -> Any:
    return lambda k: Act(card=k[card], target=k[target])


def done() -> Any:
    return lambda k: Done()


def select(*picks: tuple[int, Any]) -> tuple[Step, ...]:
    """Sealed rounds: each seat's picks in order, then Done for both."""
    by_seat: dict[int, list[Any]] = {1: [], 2: []}
    for seat, p in picks:
        by_seat[seat].append(p)
    steps: list[Step] = []
    rounds = max(len(by_seat[1]), len(by_seat[2])) + 1
    for r in range(rounds):
        for seat in (1, 2):
            queue = by_seat[seat]
            if r < len(queue):
                steps.append(Step(seat, queue[r]))
            elif r == len(queue):
                steps.append(Step(seat, done()))
    return tuple(steps)


def scenario(name: str, decks: tuple[str, str], ruling: str, build: Any, steps: Any, check: Any) -> Scenario:
    DECKS[name] = decks
    return Scenario(name, ruling, build, tuple(steps), check)


# -- the scenarios --------------------------------------------------------------------------------
def b_worked_example(b: Board) -> None:
    b.put(1, "front", "水の槍兵", "lancer")
    b.put(2, "front", "火の衛兵", "guard")
    b.put(2, "front", "火の衛兵", "guard2")
    b.deck(1, "鉄の盾", "shield")
    b.deck(2, "鉄の盾", "shield2")


def b_mutual(b: Board) -> None:
    b.put(1, "front", "水の槍兵", "lancer", hp=10)
    b.put(2, "front", "焔の姫ホムラ", "homura", hp=10)
    b.deck(1, "火球", "fb1")
    b.deck(2, "火球", "fb2")


def b_cancel(b: Board) -> None:
    b.put(1, "front", "火の衛兵", "guard")
    b.put(2, "front", "水の槍兵", "lancer")
    b.deck(1, "癒しの光", "heal")
    b.deck(2, "火球", "fireball")


def b_collapse(b: Board) -> None:
    b.put(1, "front", "水の槍兵", "lancer")
    b.put(2, "front", "火の衛兵", "guard")
    b.put(2, "back", "野戦の衛生兵", "medic")
    b.deck(1, "鉄の盾", "shield")
    b.deck(2, "火球", "fb")


def b_equipment(b: Board) -> None:
    b.put(1, "front", "火の衛兵", "guard", hp=20)
    b.put(1, "front", "火の衛兵", "guard2")
    b.put(2, "front", "水の槍兵", "lancer")
    b.deck(1, "不死鳥の羽", "plume")
    b.deck(2, "鉄の盾", "shield")


def b_tie(b: Board) -> None:
    b.put(1, "front", "水の槍兵", "lancer")
    b.put(2, "front", "旅の剣士", "sword")
    b.deck(1, "堅守", "guard_up")
    b.deck(2, "脆弱化", "weaken")


def b_face_down(b: Board) -> None:
    b.put(1, "front", "水の槍兵", "lancer")
    b.magic(1, "火球", "fb")
    b.put(2, "front", "火の衛兵", "guard")
    b.deck(1, "鉄の盾", "shield")
    b.deck(2, "鉄の盾", "shield2")


def b_nothing(b: Board) -> None:
    b.put(1, "front", "水の槍兵", "lancer")
    b.put(2, "front", "火の衛兵", "guard")
    b.put(2, "front", "火の衛兵", "guard2")
    b.only(1, "火球")
    b.deck(1, "火球", "fb")
    b.deck(2, "鉄の盾", "shield2")


def b_limit(b: Board) -> None:
    b.state = replace(b.state, turn=100)
    b.put(1, "back", "野戦の衛生兵", "medic1")
    b.put(2, "back", "野戦の衛生兵", "medic2")
    b.deck(1, "癒しの光", "heal1")
    b.deck(2, "癒しの光", "heal2")


def b_summon_turn(b: Board) -> None:
    b.put(1, "front", "旅の剣士", "sword")
    b.put(2, "front", "旅の剣士", "sword2")
    b.deck(1, "土の巨人", "giant")
    b.deck(2, "閃光", "flash")


def b_budget(b: Board) -> None:
    b.put(1, "front", "雷の射手", "archer")
    b.put(2, "front", "雷の射手", "archer2")
    b.deck(1, "氷の術士", "mage")
    b.deck(1, "雷の射手", "archer3")
    b.deck(2, "風の斥候", "scout")


def b_fizzle(b: Board) -> None:
    b.put(1, "front", "水の槍兵", "lancer")
    b.put(2, "front", "水の槍兵", "lancer2", hp=10)
    b.put(2, "front", "土の巨人", "giant")
    b.deck(1, "火球", "fb")
    b.deck(2, "活性", "vigor")


def b_revive(b: Board) -> None:
    b.put(1, "front", "雷の射手", "archer")
    b.grave(1, "雷神ライデン", "raiden", max_hp=110, atk=55)
    b.put(2, "front", "雷の射手", "archer2")
    b.deck(1, "再誕の祈り", "rebirth")
    b.deck(2, "長弓", "bow")


def b_range(b: Board) -> None:
    b.put(1, "back", "氷の術士", "mage")
    b.put(1, "front", "雷の射手", "archer")
    b.put(2, "front", "風の斥候", "scout")
    b.put(2, "back", "風の斥候", "scout2")
    b.deck(1, "倍化", "double")
    b.deck(2, "倍化", "double2")


SCENARIOS = (
    scenario("N-8.3-water-atk-50-vs-fire-def-10-is-90", ("tide-flame", "tide-flame"),
             "the seed's worked example: ATK 50 water against DEF 10 fire deals 50×2−10 = 90", b_worked_example,
             (*select((1, pick("shield", "lancer")), (2, pick("shield2", "guard2"))), Step(1, act("lancer", "guard"))),
             lambda es, k: one(es, ev.HpChanged, card=k["guard"], damage=90)),
    scenario("N-6.5-equal-agi-mutual-kill", ("tide-flame", "tide-flame"),
             "equal AGI on both sides: both seal their pick, both skills fire together, both die; neither side "
             "has a character at turn end: a draw (N-4.1)", b_mutual,
             (*select((1, pick("fb1", face_down=True)), (2, pick("fb2", face_down=True))),
              Step(1, act("lancer", "homura")), Step(2, act("homura", "lancer"))),
             lambda es, k: one(es, ev.Died, card=k["lancer"]) and one(es, ev.Died, card=k["homura"])
             and one(es, ev.MatchEnded, termination="no characters", winner=0)),
    scenario("N-6.4-damage-and-heal-at-once-cancel", ("tide-flame", "tide-flame"),
             "火球 (30 − DEF 10 = 20 damage) and 癒しの光 (20 heal) land in one category: they cancel", b_cancel,
             select((1, pick("heal", "guard")), (2, pick("fireball", "guard"))),
             lambda es, k: one(es, ev.HpChanged, card=k["guard"], damage=20, heal=20, hp=70)),
    scenario("N-7.3-empty-front-row-promotes-the-back-row", ("tide-flame", "tide-flame"),
             "the whole front row dies: the back-row medic becomes the front row", b_collapse,
             (*select((1, pick("shield", "lancer")), (2, pick("fb", face_down=True))),
              Step(1, act("lancer", "guard"))),
             lambda es, k: one(es, ev.Died, card=k["guard"]) and one(es, ev.Moved, card=k["medic"], row="front")),
    scenario("N-6.2-equipment-stays-attached-in-the-graveyard", ("tide-flame", "tide-flame"),
             "a character dies with its equipment: both go to the graveyard, the equipment still attached and "
             "the raised stats kept", b_equipment,
             (*select((1, pick("plume", "guard")), (2, pick("shield", "lancer"))),
              Step(2, act("lancer", "guard"))),
             lambda es, k: one(es, ev.Equipped, card=k["plume"], target=k["guard"])
             and one(es, ev.Died, card=k["guard"]) and none(es, ev.CardSpent, card=k["plume"])),
    scenario("N-Q5-same-category-tie-break-recorded", ("rainbow", "earth-wind"),
             "DEF×2 (cost 3) and DEF×0.5 (cost 2) on one character in category 3: higher cost first, recorded "
             "as OrderFixed; 5×2 = 10, ×0.5 = 5", b_tie,
             select((1, pick("guard_up", "lancer")), (2, pick("weaken", "lancer"))),
             lambda es, k: one(es, ev.OrderFixed, category=3, cards=(k["guard_up"], k["weaken"]))
             and one(es, ev.StatChanged, card=k["lancer"], stat="def", before=10, after=5)),
    scenario("N-Q6-face-down-magic-revealed-later", ("tide-flame", "tide-flame"),
             "a 火球 set face down in an earlier turn is turned up at no cost with its target and resolves",
             b_face_down,
             select((1, lambda k: Reveal(card=k["fb"], target=k["guard"])), (1, pick("shield", "lancer")),
                    (2, pick("shield2", "guard"))),
             lambda es, k: one(es, ev.MagicFlipped, card=k["fb"])
                           and one(es, ev.HpChanged, card=k["guard"], damage=10)),
    scenario("N-4.2-no-playable-card-loses", ("tide-flame", "tide-flame"),
             "seat 1 plays its last card; at the next turn start it has nothing to play and loses", b_nothing,
             (*select((1, pick("fb", face_down=True)), (2, pick("shield2", "guard"))),
              Step(1, act("lancer", "guard")), Step(2, act("guard2", "lancer"))),
             lambda es, k: one(es, ev.Lost, seat=1)
                           and one(es, ev.MatchEnded, termination="nothing to play", winner=2)),
    scenario("N-4.3-draw-after-turn-100", ("tide-flame", "tide-flame"),
             "two healers cannot end the game: after the end phase of turn 100 it is a draw", b_limit,
             (*select((1, pick("heal1", "medic1")), (2, pick("heal2", "medic2"))),
              Step(1, act("medic1", "medic1")), Step(2, act("medic2", "medic2"))),
             lambda es, k: one(es, ev.MatchEnded, termination="turn limit", winner=0)),
    scenario("N-6.1-no-action-on-the-summon-turn", ("earth-wind", "earth-wind"),
             "a character summoned this turn cannot act", b_summon_turn,
             (*select((1, pick("giant")), (2, pick("flash", "sword"))),),
             lambda es, k: one(es, ev.CannotAct, card=k["giant"], reason="summoned this turn")
             and one(es, ev.Stunned, card=k["sword"])),
    scenario("N-5.2.1-six-cost-and-one-card-a-turn", ("storm-ice", "storm-ice"),
             "Done before any card is refused; after 3 + 3 cost nothing more fits in 6", b_budget,
             (Refused(1, done(), "N-5.2.1", "at least one card must be played each turn"),
              Step(1, pick("mage")), Step(2, pick("scout")), Step(1, pick("archer3")),
              Refused(1, pick("archer3"), "N-5.2.1", "a second choice this round: seat 1 has already sealed"),
              Step(2, done()), Step(1, done())),
             lambda es, k: one(es, ev.Summoned, card=k["mage"]) and one(es, ev.Summoned, card=k["archer3"])),
    scenario("N-Q11-target-gone-fizzles", ("tide-flame", "rainbow"),
             "seat 2's 活性 (category 5) targets a character seat 1's 火球 kills in category 4: it fizzles and is "
             "spent", b_fizzle,
             select((1, pick("fb", "lancer2")), (2, pick("vigor", "lancer2"))),
             lambda es, k: one(es, ev.Died, card=k["lancer2"]) and one(es, ev.MagicFizzled, card=k["vigor"])
             and one(es, ev.CardSpent, card=k["vigor"])),
    scenario("N-Q9-revive-reads-kept-stats", ("storm-ice", "storm-ice"),
             "再誕の祈り brings ライデン back with its kept max HP 110 and ATK 55, at full HP", b_revive,
             select((1, pick("rebirth", "raiden")), (2, pick("bow", "archer2"))),
             lambda es, k: one(es, ev.Revived, card=k["raiden"], hp=110)),
    scenario("N-7.2-range-two-reaches-the-enemy-front-only", ("storm-ice", "storm-ice"),
             "a back-row range-2 mage may target the enemy front (distance 2) but not the back (distance 3)",
             b_range,
             (*select((1, pick("double", "mage")), (2, pick("double2", "scout"))),
              Step(2, act("scout", "mage")), Step(2, act("scout2", "archer")), Step(1, act("archer", "scout2")),
              Refused(1, act("mage", "scout2"), "N-7.2", "distance 3 > range 2: the mage cannot reach it"),
              Step(1, act("mage", "scout"))),
             lambda es, k: one(es, ev.Acted, card=k["mage"], target=k["scout"])
             and none(es, ev.Died, card=k["scout2"])),
)


def main(argv: list[str] | None = None) -> int:
    return corpus.main(argv, here=HERE, doc=__doc__ or "",
                       bots=lambda: corpus.bot_matches(RULES, seeds=(1, 2)),
                       scenarios=lambda prefixes: corpus.scenarios(SCENARIOS, prefixes, start))


if __name__ == "__main__":
    sys.exit(main())
