"""(Re)generate the alteil regression corpus in this directory, deterministically.

- ``bot-<deck>-vs-<deck>-s<N>.kifu.jsonl``: random-bot matches over every ordered pair of presets;
- ``A-<clause>-<ruling>.kifu.jsonl``: one short scenario per ruling, started from a prepared
  position (``kifu.domain.alteil.positions``) and a few decisions; ``A-….probes.json`` beside it lists
  decisions the engine must refuse.

Each scenario states what it shows, and generation fails if today's engine does not show it.
Usage (from the repository root)::

    .venv/bin/python replays/alteil/make.py              # everything
    .venv/bin/python replays/alteil/make.py bots         # only the bot matches
    .venv/bin/python replays/alteil/make.py A-7 A-Q2     # scenarios whose names start so
    .venv/bin/python replays/alteil/make.py --check      # write nothing; list what would change
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kifu.domain.alteil import commands as c
from kifu.domain.alteil import events as ev
from kifu.domain.alteil.positions import Position
from kifu.domain.alteil.vocabulary import END, OPENING, SET, SOUL
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.tools import corpus
from kifu.tools.corpus import Cmd, Labels, Refused, Scenario, Step, cited, none, one

HERE = Path(__file__).parent
RULES = find_ruleset("alteil")


def start(s: Scenario, seed: int) -> tuple[Match, Labels]:
    b = Position()
    s.build(b)
    return b.match(seed, match_id=corpus.match_id("alteil", s.name), players=("alice", "bruno")), b.labels


def _cmd(factory: Callable[..., Any], **fields: Any) -> Cmd:
    """A command whose fields may name a card by its label: card="archer" → the archer's id."""
    def make(labels: Labels) -> Any:
        return factory(**{k: labels.get(v, v) if isinstance(v, str) else v for k, v in fields.items()})
    return make


# -- positions ------------------------------------------------------------------------------------
def s_opening(b: Position) -> None:
    b.labels["knight"], = b.hand(1, "光の見習い騎士")
    b.hand(1, "火球", "火炎の戦士")
    b.labels["scout"], = b.hand(2, "闇の斥候")
    b.hand(2, "水の衛兵")
    b.at(step=OPENING, actor=0, turn=0, turn_seat=0)


def s_tie(b: Position) -> None:
    b.labels["warrior"] = b.unit(1, "火炎の戦士", 1)
    b.labels["knight"] = b.unit(1, "光の見習い騎士", 2)
    b.labels["hexer"] = b.unit(2, "影縫いの呪術師", 4)
    b.window(2)


def s_agi_zero(b: Position) -> None:
    b.labels["scout"] = b.unit(2, "闇の斥候", 2)
    b.labels["bones"] = b.unit(1, "骸骨兵", 1)
    b.labels["lava"] = b.unit(2, "溶岩の巨人", 1)
    b.acting(b.labels["scout"])


def s_front_line(b: Position) -> None:
    b.labels["warrior"] = b.unit(1, "火炎の戦士", 1)
    b.labels["front"] = b.unit(2, "水の衛兵", 2)
    b.labels["back"] = b.unit(2, "骸骨兵", 5)
    b.acting(b.labels["warrior"])


def s_long_range(b: Position) -> None:
    b.labels["archer"] = b.unit(1, "炎の弓兵", 4)
    b.unit(1, "水の衛兵", 1)
    b.labels["front"] = b.unit(2, "水の衛兵", 2)
    b.labels["back"] = b.unit(2, "骸骨兵", 5)
    b.acting(b.labels["archer"])


def s_back_blocked(b: Position) -> None:
    b.labels["rear"] = b.unit(1, "火炎の戦士", 4)
    b.unit(1, "水の衛兵", 1)
    b.labels["foe"] = b.unit(2, "水の衛兵", 2)
    b.acting(b.labels["rear"])


def s_battlefield_soul(b: Position) -> None:
    b.labels["fishman"], *_ = b.squares(2, "深淵の魚人", "水の衛兵", "水の衛兵", "恵みの雨", "恵みの雨", "潮読みの賢者")
    b.labels["warrior"] = b.unit(1, "火炎の戦士", 1)
    b.labels["scout"] = b.unit(1, "闇の斥候", 2, acted=True)
    b.acting(b.labels["warrior"])


def s_death_refund(b: Position) -> None:
    b.labels["warrior"] = b.unit(1, "火炎の戦士", 1)
    b.labels["archer"] = b.unit(2, "炎の弓兵", 1)
    b.acting(b.labels["warrior"])


def s_seventh_death(b: Position) -> None:
    b.zone(2, "cemetery", "骸骨兵", "水の衛兵", "火炎の戦士", "闇の斥候", "炎の弓兵", "陽光の祈祷師")
    b.labels["victim"] = b.unit(2, "闇の斥候", 1)
    b.labels["warrior"] = b.unit(1, "火炎の戦士", 1)
    b.acting(b.labels["warrior"])


def s_influence_short(b: Position) -> None:
    b.labels["giant"], b.labels["archer"] = b.hand(1, "溶岩の巨人", "炎の弓兵")
    b.influence(1, "火炎の戦士", "爆炎の術士")
    b.soul(1, 3)
    b.at(step=SET, actor=1)


def s_named_unique(b: Position) -> None:
    b.unit(2, "『蒼海のミルア』", 1)
    b.labels["mirua"], b.labels["guard"] = b.hand(1, "『蒼海のミルア』", "水の衛兵")
    b.influence(1, "水の衛兵", "潮読みの賢者", "深淵の魚人")
    b.soul(1, 3)
    b.at(step=SET, actor=1)


def s_soul_reduction(b: Position) -> None:
    b.labels["whisper"], b.labels["fodder"] = b.hand(1, "闇の囁き", "水の衛兵")
    b.influence(1, "闇の斥候", "骸骨兵")
    b.soul(2, 3)
    b.labels["scout"] = b.unit(2, "闇の斥候", 1)
    b.window(1)


def s_next(b: Position) -> None:
    b.labels["sage"] = b.unit(1, "潮読みの賢者", 1)
    b.labels["ally"] = b.unit(1, "火炎の戦士", 2, acted=True)
    b.acting(b.labels["sage"])


def s_deck_out(b: Position) -> None:
    b.hand(2, "水の衛兵")
    b.deck(2, 0)
    b.at(step=END, sub=SOUL, actor=2, turn_seat=1)


def s_last_card(b: Position) -> None:
    b.deck(2, 1)
    b.at(step=END, sub=SOUL, actor=2, turn_seat=1)


def _drew_the_last_card(es: list[Any], k: Labels) -> bool:
    """Seat 2's preparation: the draw takes the last card, the soul gain finds none, nobody loses."""
    mine = [e for e in es if getattr(e.event, "seat", 0) == 2
            and isinstance(e.event, ev.CardsDrawn | ev.SoulGained)]
    return ([type(e.event).__name__ for e in mine] == ["CardsDrawn", "SoulGained"]
            and len(mine[0].event.cards) == 1 and mine[1].event.cards == () and mine[1].event.wanted == 1
            and none(es, ev.PlayerLost) and none(es, ev.DrawFailed))


SCENARIOS = (
    Scenario("A-4.5-opening-influence-sealed-then-revealed",
             "both players choose their opening influence in secret; both are revealed and placed together",
             s_opening,
             (Refused(1, _cmd(c.PlaceInfluence, card="scout"), "A-5.2", "not a card of seat 1's hand"),
              Step(1, _cmd(c.PlaceInfluence, card="knight")), Step(2, _cmd(c.PlaceInfluence, card="scout"))),
             lambda es, k: cited(es, "K-seal") and cited(es, "K-reveal")
             and one(es, ev.OpeningInfluence, seat=1, card=k["knight"])
             and one(es, ev.OpeningInfluence, seat=2, card=k["scout"])),
    Scenario("A-5.5-tie-chosen-from-the-turn-player",
             "equal AGI: the turn player chooses first which of its tied units acts (a decision event)", s_tie,
             (Step(2, _cmd(c.Pass)), Step(1, _cmd(c.ChooseActor, card="knight")), Step(1, _cmd(c.Wait, card="knight")),
              Step(1, _cmd(c.Pass)), Step(2, _cmd(c.Pass)), Step(2, _cmd(c.ChooseActor, card="hexer"))),
             lambda es, k: one(es, ev.TieChoice, seat=1, agi=3) and one(es, ev.ActorChosen, seat=1, card=k["knight"])
             and one(es, ev.ActorChosen, seat=2, card=k["hexer"])),
    Scenario("A-5.5-agi-zero-or-less-waits", "units with AGI 0 or less are made to wait", s_agi_zero,
             (Step(2, _cmd(c.Wait, card="scout")),),
             lambda es, k: one(es, ev.UnitWaited, card=k["bones"], forced=True)
             and one(es, ev.UnitWaited, card=k["lava"], forced=True)),
    Scenario("A-7.2-only-the-front-row-while-both-rows-hold-units",
             "with enemy units in both rows, only the front row may be attacked", s_front_line,
             (Refused(1, _cmd(c.Attack, card="warrior", target="back"),
                      "A-7.2", "the back row is behind the front line"),
              Step(1, _cmd(c.Attack, card="warrior", target="front"))),
             lambda es, k: one(es, ev.DamageDealt, card=k["front"], amount=2)),
    Scenario("A-7.1-long-range-hits-the-back-row",
             "a ロングレンジ unit attacks any unit, even from behind its own front row",
             s_long_range, (Step(1, _cmd(c.Attack, card="archer", target="back")),),
             lambda es, k: one(es, ev.DamageDealt, card=k["back"], amount=2)),
    Scenario("A-6.4-back-row-blocked-by-its-own-front-row",
             "a back-row unit cannot attack while its own front row holds a unit", s_back_blocked,
             (Refused(1, _cmd(c.Attack, card="rear", target="foe"), "A-6.4", "its own front row is occupied"),
              Step(1, _cmd(c.Move, card="rear", square=3))),
             lambda es, k: one(es, ev.UnitMoved, card=k["rear"], square=3)),
    Scenario("A-6.5-battlefield-attack-fires-soul",
             "with no enemy units a battlefield card is destroyed, goes to its owner's hand and fires its SOUL skill",
             s_battlefield_soul, (Step(1, _cmd(c.AttackBattlefield, card="warrior", square=1)),),
             lambda es, k: one(es, ev.BattlefieldDestroyed, seat=2, square=1, card=k["fishman"])
             and one(es, ev.SkillFired, card=k["fishman"], icon="SOUL") and one(es, ev.UnitDied, card=k["scout"])),
    Scenario("A-8.2-death-refunds-the-printed-lv", "a dead unit goes to the cemetery and its owner gains LV soul",
             s_death_refund, (Step(1, _cmd(c.Attack, card="warrior", target="archer")),),
             lambda es, k: one(es, ev.UnitDied, card=k["archer"]) and cited(es, "A-8.2", ev.SoulGained)),
    Scenario("A-1.2-seventh-dead-unit-loses", "a player whose seventh unit dies loses", s_seventh_death,
             (Step(1, _cmd(c.Attack, card="warrior", target="victim")),),
             lambda es, k: one(es, ev.PlayerLost, seat=2, reason="deaths")),
    Scenario("A-5.3-influence-below-lv-refused", "a unit needs its god's influence at least its LV", s_influence_short,
             (Refused(1, _cmd(c.PlaceUnit, card="giant", square=1), "A-5.3", "Gouen influence 2 is below LV 3"),
              Step(1, _cmd(c.PlaceUnit, card="archer", square=4))),
             lambda es, k: one(es, ev.UnitPlaced, card=k["archer"]) and one(es, ev.SoulPaid, amount=2)),
    Scenario("A-Q4-a-name-is-unique-across-both-fields",
             "a named unit may not be placed while the same name is on either field", s_named_unique,
             (Refused(1, _cmd(c.PlaceUnit, card="mirua", square=1), "A-Q4", "『蒼海のミルア』 is on seat 2's field"),
              Step(1, _cmd(c.PlaceUnit, card="guard", square=1))),
             lambda es, k: one(es, ev.UnitPlaced, card=k["guard"]) and none(es, ev.UnitPlaced, card=k["mirua"])),
    Scenario("A-10.3-soul-reduction-is-not-a-payment",
             "an effect that reduces soul power returns the cards to the deck top without paying", s_soul_reduction,
             (Step(1, _cmd(c.UseGrimoire, card="whisper", discard="fodder")),),
             lambda es, k: cited(es, "A-10.3", ev.SoulReduced) and none(es, ev.SoulPaid)),
    Scenario("A-Q2-next-fires-at-the-next-start-phase",
             "a NEXT skill used this turn takes effect at the next turn's start phase", s_next,
             (Step(1, _cmd(c.UseSkill, card="sage")), Step(1, _cmd(c.EndDiscards)), Step(2, _cmd(c.EndDiscards)),
              Step(2, _cmd(c.EndInfluence)), Step(2, _cmd(c.PassSet)), Step(1, _cmd(c.PassSet))),
             lambda es, k: one(es, ev.NextScheduled, card=k["sage"])
                           and one(es, ev.SkillFired, card=k["sage"], icon="NEXT")
             and one(es, ev.Modified, card=k["ally"], stat="AT", amount=1)),
    Scenario("A-1.3-failed-draw-loses", "a player who cannot draw at the preparation phase loses", s_deck_out,
             (Step(2, _cmd(c.EndDiscards)),),
             lambda es, k: one(es, ev.DrawFailed, seat=2) and one(es, ev.PlayerLost, seat=2, reason="deck-out")),
    Scenario("A-5.1-one-card-left-draw-before-soul", "preparation draws before it gains soul: with one card left the "
             "player draws it and stays in, the soul gain finds nothing (A-Q7); the other order would lose (A-1.3)",
             s_last_card, (Step(2, _cmd(c.EndDiscards)),), _drew_the_last_card),
)


def main(argv: list[str] | None = None) -> int:
    return corpus.main(argv, here=HERE, doc=__doc__ or "",
                       bots=lambda: corpus.bot_matches(RULES, seeds=(1, 2)),
                       scenarios=lambda prefixes: corpus.scenarios(SCENARIOS, prefixes, start))


if __name__ == "__main__":
    sys.exit(main())
