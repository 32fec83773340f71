"""(Re)generate the masters regression corpus in this directory, deterministically.

- ``bot-<deck>-vs-<deck>-s<N>.kifu.jsonl``: random-bot matches over every ordered pair of presets;
- ``M-<clause>-<ruling>.kifu.jsonl``: one short scenario per ruling, started from a prepared
  position (a header ``start`` state, recorded as one setup event) and a few decisions;
  ``M-….probes.json`` beside it lists decisions the engine must refuse.

Generation fails if today's engine does not show a scenario's ruling. Usage (repository root)::

    .venv/bin/python replays/masters/make.py              # everything
    .venv/bin/python replays/masters/make.py bots         # only the bot matches
    .venv/bin/python replays/masters/make.py M-8          # scenarios whose names start so
    .venv/bin/python replays/masters/make.py --check      # write nothing; list what would change
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from kifu.domain.core import priority as prio
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.masters import commands as c
from kifu.domain.masters import events as ev
from kifu.domain.masters.board import square
from kifu.domain.masters.cards import catalog
from kifu.domain.masters.decks import DeckList
from kifu.domain.masters.state import Mana, Piece, State
from kifu.tools import corpus
from kifu.tools.corpus import ANY_SEAT, Cmd, Labels, Refused, Scenario, Step, cited, none, one

HERE = Path(__file__).parent
RULES = find_ruleset("masters")
_NAMES = sorted(catalog())
DECK = DeckList(name="every-card", cards=tuple(n for i, n in enumerate(_NAMES) for _ in range(2 if i < 18 else 1)))


def match_id(name: str) -> str:
    return corpus.match_id("masters", name)


def sq(name: str) -> int:
    return square(int(name[1:]), "abcdefghij".index(name[0]) + 1)


def opening(seed: int, name: str) -> Match:
    match = Match.create(RULES, match_id=match_id(name), seed=seed, decks=[DECK, DECK], players=("alice", "bruno"))
    first = match.state.first
    match.submit(first, c.Keep())
    match.submit(3 - first, c.Keep())
    return match


class Board:
    """A position built from a real opening: named cards move out of a seat's deck (or hand)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.cards: dict[str, int] = {}

    def _side(self, seat: int, **fields: Any) -> None:
        sides = list(self.state.sides)
        sides[seat - 1] = replace(sides[seat - 1], **fields)
        self.state = replace(self.state, sides=tuple(sides))

    def take(self, seat: int, name: str) -> int:
        used = set(self.cards.values())
        side = self.state.side(seat)
        for zone in ("deck", "hand"):
            cards: tuple[int, ...] = getattr(side, zone)
            for card in cards:
                if self.state.name(card) == name and card not in used:
                    self._side(seat, **{zone: tuple(x for x in cards if x != card)})
                    return card
        raise LookupError(f"seat {seat} has no {name} left in deck or hand")

    def phase(self, phase: str, active: int = 1, holder: int | None = None) -> Board:
        self.state = replace(self.state, phase=phase, active=active, first=1, turn=3, pending="",  # type: ignore[arg-type]
                             priority=prio.opened(holder or active))
        return self

    def piece(self, seat: int, name: str, where: str, label: str = "", **fields: Any) -> int:
        card = self.take(seat, name)
        self.state = replace(self.state, pieces=self.state.pieces + (Piece(card=card, seat=seat, square=sq(where),
                                                                           **fields),))
        self.cards[label or name] = card
        return card

    def hand(self, seat: int, name: str, label: str = "") -> int:
        card = self.take(seat, name)
        self._side(seat, hand=self.state.side(seat).hand + (card,))
        self.cards[label or name] = card
        return card

    def mana(self, seat: int, n: int) -> None:
        side = self.state.side(seat)
        self._side(seat, deck=side.deck[:len(side.deck) - n],
                   mana=side.mana + tuple(Mana(card=x) for x in side.deck[len(side.deck) - n:]))


def start(s: Scenario, seed: int) -> tuple[Match, Labels]:
    if not s.prepared:
        return Match.create(RULES, match_id=match_id(s.name), seed=seed, decks=[DECK, DECK],
                            players=("alice", "bruno")), {}
    board = Board(opening(seed, s.name).state)
    s.build(board)
    return Match.create(RULES, match_id=match_id(s.name), seed=seed, decks=[DECK, DECK],
                        players=("alice", "bruno"), start=board.state), board.cards


def _cmd(factory: Callable[..., Any], **fields: Any) -> Cmd:
    """A command whose fields may name a card by its label (squares are named as in play: "c4")."""
    def make(labels: dict[str, int]) -> Any:
        def resolve(key: str, value: Any) -> Any:
            if isinstance(value, str) and value in labels:
                return labels[value]
            return value
        return factory(**{k: resolve(k, v) for k, v in fields.items()})
    return make


PASS = Step(ANY_SEAT, lambda labels: c.Pass())


def move(piece: str, *path: str, seat: int = 1) -> Step:
    return Step(seat, _cmd(c.Move, piece=piece, path=path))


# -- the scenarios --------------------------------------------------------------------------------
def s_mutual(b: Board) -> None:
    b.phase("action")
    b.piece(1, "剣士", "c3", "attacker")
    b.piece(2, "剣士", "c4", "defender")


def s_stop(b: Board) -> None:
    b.phase("action")
    b.piece(1, "斥候", "a3", "scout")
    b.piece(2, "石壁の番人", "b4", "wall")


def s_complete(b: Board) -> None:
    b.phase("action")
    b.piece(1, "騎兵", "a3", "rider")
    b.piece(2, "斥候", "c4", "scout")


def s_avoid(b: Board) -> None:
    b.phase("action")
    b.piece(1, "剣士", "c3", "attacker")
    b.piece(2, "霧隠れの忍", "c4", "ninja")
    b.mana(2, 1)


def s_master(b: Board) -> None:
    b.phase("action")
    b.piece(1, "狂戦士", "c5", "berserker")


def s_stack(b: Board) -> None:
    b.phase("action")
    b.piece(2, "剣士", "c4", "target")
    b.piece(2, "盾の術士", "e5", "shield")
    b.piece(1, "火の術士", "a1", "fire")
    b.piece(1, "戦鼓の奏者", "b1", "drum")
    b.mana(1, 3)
    b.mana(2, 1)


def s_discard(b: Board) -> None:
    b.phase("end")
    b.hand(1, "殉教者", "martyr")
    while len(b.state.side(1).hand) < 9:
        b.hand(1, b.state.name(b.state.side(1).deck[0]), f"filler{len(b.state.side(1).hand)}")


def s_empty_deck(b: Board) -> None:
    b.state = replace(b.state, phase="standby", active=1, pending="draw", priority=None)
    side = b.state.side(1)
    b._side(1, deck=(), grave=side.grave + side.deck)


def s_doom(b: Board) -> None:
    b.phase("main1")
    b._side(1, doom=2)
    b.hand(1, "終焉の刻", "end")
    b.mana(1, 3)


def s_summon(b: Board) -> None:
    b.phase("main1")
    b._side(1, master=sq("c3"))
    b.hand(1, "槍兵", "spear")
    b.hand(1, "斥候", "scout")
    b.mana(1, 2)


def s_ambush(b: Board) -> None:
    b.phase("main1")
    b.hand(1, "雷撃", "bolt")
    b.hand(1, "伏兵の弓手", "archer")
    b.mana(1, 5)


def s_charge(b: Board) -> None:
    b.phase("action")
    b.piece(1, "騎兵", "a2", "rider")
    b.piece(2, "石壁の番人", "b4", "wall")


def s_ghost(b: Board) -> None:
    b.phase("action")
    b.piece(1, "剣士", "c3", "attacker")
    b.piece(2, "怨霊", "c4", "ghost")


def _destroyed_both(es: list[Any], k: Labels) -> bool:
    destroyed = [e for e in es if isinstance(e.event, ev.PieceDestroyed)]
    damage = [e for e in es if isinstance(e.event, ev.CombatDamage)]
    return (len(destroyed) == 2 and {e.event.card for e in destroyed} == {k["attacker"], k["defender"]}
            and {e.cause for e in destroyed} == {damage[0].seq} and [e.clause for e in destroyed] == ["M-8.2", "M-8.5"])


def _responded_between(es: list[Any], k: Labels) -> bool:
    """Seat 1's two skills with seat 2's between them, no pass among the three (M-2.1)."""
    decisions = [e for e in es if e.kind == "decision"]
    first = [e.event for e in decisions[:3]]
    return ([type(e).__name__ for e in first] == ["SkillActivated"] * 3
            and [(e.seat, e.card) for e in first] == [(1, k["fire"]), (2, k["shield"]), (1, k["drum"])]
            and all(e.clause == "M-2.1" for e in es if isinstance(e.event, ev.PriorityPassed)))


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("M-8.5-counter-attack-destroys-both", "a counter-attack is simultaneous: both pieces are destroyed by "
             "one combat damage", s_mutual, (move("attacker", "c4"), PASS, PASS), _destroyed_both),
    Scenario("M-8.4-failed-attack-stops-on-the-previous-square", "a defender that survives stops a 2-square move on "
             "the last square of its path", s_stop,
             (move("scout", "a4", "b4"), PASS, PASS, Refused(1, _cmd(c.Move, piece="scout", path=("a5",)), "M-5.2",
                                                            "the stopped attacker counts as moved")),
             lambda es, k: one(es, ev.AttackStopped, card=k["scout"], square="a4") and cited(es, "M-8.4")),
    Scenario("M-8.3-a-kill-completes-the-move", "a destroyed defender is removed and the attacker completes its move",
             s_complete, (move("rider", "b3", "b4", "c4"), PASS, PASS),
             lambda es, k: one(es, ev.MoveCompleted, card=k["rider"], square="c4")),
    Scenario("M-8.1-combat-avoided-by-the-defender", "the defender has priority first and avoids the combat",
             s_avoid, (move("attacker", "c4"), Step(2, _cmd(c.Activate, card="ninja")), PASS, PASS),
             lambda es, k: one(es, ev.CombatAvoided, attacker=k["attacker"], square="c3")
             and none(es, ev.CombatDamage)),
    Scenario("M-Q4-a-piece-attacks-the-master", "a piece entering the master's square deals its final ATK to life and "
             "stops before it", s_master, (move("berserker", "c6"), PASS, PASS),
             lambda es, k: one(es, ev.MasterDamaged, seat=2, amount=5, life=5)
             and one(es, ev.AttackStopped, card=k["berserker"], square="c5")),
    Scenario("M-2.2-a-stack-of-three-resolves-last-in-first-out", "both passing resolves the top; a skill and two "
             "responses resolve in reverse order", s_stack,
             (Step(1, _cmd(c.Activate, card="fire", target="c4")),
              Step(2, _cmd(c.Activate, card="shield", target="c4")),
              Step(1, _cmd(c.Activate, card="drum", target="a1")), PASS, PASS, PASS, PASS, PASS, PASS),
             lambda es, k: [e.event.card for e in es if isinstance(e.event, ev.Resolved)]
             == [k["drum"], k["shield"], k["fire"]]),
    Scenario("M-7.2-hand-limit-discard-is-not-destroy", "discarding down to 8 does not run a when-destroyed skill",
             s_discard, (PASS, PASS, Step(1, _cmd(c.Discard, card="martyr"))),
             lambda es, k: one(es, ev.HandDiscarded, card=k["martyr"]) and none(es, ev.PieceDestroyed)
             and not cited(es, "M-C10")),
    Scenario("M-1.7-mulligan-puts-cards-on-the-bottom", "a player who mulliganed twice puts two cards on the bottom",
             lambda b: None,
             (Step(ANY_SEAT, lambda k: c.Mulligan()), Step(ANY_SEAT, lambda k: c.Mulligan()),
              Step(ANY_SEAT, lambda k: c.Keep())),
             lambda es, k: sum(isinstance(e.event, ev.MulliganTaken) for e in es) == 2, prepared=False),
    Scenario("M-Q11-drawing-from-an-empty-deck-loses", "with an empty deck only draw is possible, and it loses",
             s_empty_deck, (Refused(1, lambda k: c.Charge(), "M-Q11", "nothing to charge"),
                            Step(1, lambda k: c.Draw())),
             lambda es, k: one(es, ev.PlayerLost, seat=1) and one(es, ev.MatchEnded, winner=2)),
    Scenario("M-1.2-special-victory-by-the-third-counter", "the third 刻 counter wins the game", s_doom,
             (Step(1, _cmd(c.Cast, card="end")), PASS, PASS),
             lambda es, k: one(es, ev.DoomAdded, seat=1, count=3) and one(es, ev.MatchEnded, winner=1)),
    Scenario("M-Q5-summon-around-the-master", "a piece is summoned into the own territory or around the master",
             s_summon, (Step(1, _cmd(c.Summon, card="spear", square="c4")), Step(2, lambda k: c.Pass()),
                        Refused(1, _cmd(c.Summon, card="scout", square="a5"), "M-Q5", "neither territory nor around "
                                "the master"), Step(1, _cmd(c.Summon, card="scout", square="e1"))),
             lambda es, k: one(es, ev.PieceSummoned, card=k["spear"], square="c4")),
    Scenario("M-Q7-ambush-with-a-non-empty-stack", "an ambush piece deploys into its territory while a spell waits",
             s_ambush, (Step(1, _cmd(c.Cast, card="bolt")), Step(2, lambda k: c.Pass()),
                        Step(1, _cmd(c.Summon, card="archer", square="b2")), PASS, PASS, PASS, PASS),
             lambda es, k: one(es, ev.PieceSummoned, card=k["archer"], ambush=True) and cited(es, "M-Q7")),
    Scenario("M-8.3-charge-reads-the-original-square",
             "【突撃】 adds the squares from the original square to the square "
             "before the combat", s_charge, (move("rider", "a3", "a4", "b4"), PASS, PASS),
             lambda es, k: one(es, ev.CombatDamage, attacker=k["rider"], dealt=4)),
    Scenario("M-8.2-a-destroyed-piece-runs-its-when-destroyed-skill", "怨霊 destroyed in combat damages the enemy "
             "master", s_ghost, (move("attacker", "c4"), PASS, PASS),
             lambda es, k: one(es, ev.MasterDamaged, seat=1, amount=1) and cited(es, "M-C10", ev.MasterDamaged)),
    Scenario("M-2.1-the-opponent-responds-between-two-declarations", "after a declaration priority passes to the "
             "other master: seat 2 responds to seat 1's skill at once, and seat 1 declares again only after it",
             s_stack,
             (Step(1, _cmd(c.Activate, card="fire", target="c4")),
              Refused(1, _cmd(c.Activate, card="drum", target="a1"), "M-2.1", "seat 2 holds priority"),
              Step(2, _cmd(c.Activate, card="shield", target="c4")),
              Step(1, _cmd(c.Activate, card="drum", target="a1")), PASS, PASS, PASS, PASS, PASS, PASS),
             _responded_between),
)


def main(argv: list[str] | None = None) -> int:
    return corpus.main(argv, here=HERE, doc=__doc__ or "",
                       bots=lambda: corpus.bot_matches(RULES, seeds=(1, 2)),
                       scenarios=lambda prefixes: corpus.scenarios(SCENARIOS, prefixes, start))


if __name__ == "__main__":
    sys.exit(main())
