"""Both directions of redaction, measured on in-process random matches of one ruleset.

A *zeroed reference* is an int the seat's copy of an event holds as HIDDEN where the judge's copy
holds a card id. It is *over-hidden* when the game itself shows that card to the seat on both sides
of the event: the ruleset's own ``view`` (before the core's scrub) names it before and after (a
card seen on one side only may be hidden in the event: a hand shuffled back into a deck). A
*counted option* is a pending choice's option list sent to a seat with a HIDDEN entry in it: the
list's length tells how many hidden cards qualify. ``python tests/trust/scrub_audit.py`` prints
the figures per ruleset (the issue's before/after).
"""
from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from kifu.domain.core.commit import ChoiceRevealed, ChoiceSealed, PositionPrepared
from kifu.domain.core.driver import DecisionLimit, drive
from kifu.domain.core.match import Match, record_evolve
from kifu.domain.core.roles import HIDDEN
from kifu.domain.core.ruleset import Ruleset, find_ruleset, ruleset_names
from kifu.domain.core.visibility import redacted

_CORE = (ChoiceSealed, ChoiceRevealed, PositionPrepared)   # the core's own redactions: not card scrubs


DECKS = {"worlfard": ("dawn-dusk", "four-winds")}   # 召喚術師 (issue 24's count) is in dawn-dusk


@dataclass
class Figures:
    matches: int = 0
    events: int = 0
    zeroed: int = 0
    over_hidden: int = 0
    counted: int = 0
    examples: list[str] = field(default_factory=list)

    def line(self, name: str) -> str:
        return (f"{name}: {self.matches} matches, {self.events} seat events, {self.zeroed} zeroed references, "
                f"{self.over_hidden} over-hidden (own or public), {self.counted} counted option lists")


def shown_cards(value: Any, key: str | None = None) -> Iterator[int]:
    """Every card id a view shows: the ints under ``id`` or ``card`` keys of its JSON form (every
    ruleset's view shows a card as ``{"id": …, "name": …}`` or under ``card``). A target packed
    with a place is not a card shown on its own."""
    if isinstance(value, msgspec.Struct):
        value = msgspec.to_builtins(value)
    if isinstance(value, dict):
        for k, v in value.items():
            yield from shown_cards(v, k)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from shown_cards(v, key)
    elif isinstance(value, int) and not isinstance(value, bool) and value != HIDDEN and key in ("id", "card"):
        yield value


def zeroed(judge: Any, seat: Any) -> Iterator[int]:
    """The card ids of ``judge`` that ``seat`` (the same value redacted) holds as HIDDEN."""
    if isinstance(judge, dict) and isinstance(seat, dict):
        for key, value in judge.items():
            if key in seat:
                yield from zeroed(value, seat[key])
    elif isinstance(judge, (list, tuple)) and isinstance(seat, (list, tuple)):
        if len(judge) == len(seat):
            for a, b in zip(judge, seat, strict=True):
                yield from zeroed(a, b)
    elif isinstance(judge, int) and not isinstance(judge, bool) and seat == HIDDEN and judge != HIDDEN:
        yield judge


def counted(value: Any) -> int:
    """How many option lists (``options`` keys) hold a HIDDEN entry."""
    if isinstance(value, dict):
        here = 1 if isinstance(value.get("options"), (list, tuple)) and HIDDEN in value["options"] else 0
        return here + sum(counted(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(counted(v) for v in value)
    return 0


def play(rules: Ruleset[Any, Any, Any], seed: int, limit: int = 3000) -> Match[Any, Any, Any]:
    presets = rules.content.presets()
    rng = random.Random(seed)
    decks = [rules.content.load_deck(d) for d in DECKS.get(rules.name) or (rng.choice(presets), rng.choice(presets))]
    match = Match.create(rules, match_id=f"audit-{seed}", seed=seed, players=("ann", "bob"), decks=decks)
    try:
        drive(match, {s: rules.content.bots["random"](seed * 2 + s) for s in (1, 2)}, limit=limit)
    except DecisionLimit:
        pass       # a long match: what it played so far is as good a sample
    return match


def audit(rules: Ruleset[Any, Any, Any], match: Match[Any, Any, Any], figures: Figures) -> None:
    """Add one match's figures: every event of both seats' streams against the judge's."""
    initial = rules.decider.initial_state(match.header)
    evolve = record_evolve(rules)
    figures.matches += 1
    for seat in (1, 2):
        state = initial
        for judge, mine in zip(match.envelopes, redacted(rules, initial, match.envelopes, seat), strict=True):
            before, state = state, evolve(state, judge.event)
            figures.events += 1
            body = msgspec.to_builtins(mine.event)
            figures.counted += counted(body)
            if isinstance(judge.event, _CORE):
                continue
            gone = list(zeroed(msgspec.to_builtins(judge.event), body))
            if not gone:
                continue
            figures.zeroed += len(gone)
            view = rules.decider.view
            seen = set(shown_cards(view(before, seat))) & set(shown_cards(view(state, seat)))
            for card in gone:
                if card in seen:
                    figures.over_hidden += 1
                    if len(figures.examples) < 5:
                        figures.examples.append(f"seat {seat} seq {judge.seq} {type(judge.event).__name__}: "
                                                f"card {card} zeroed, shown to it by the game")


def measure(name: str, seeds: range) -> Figures:
    rules = find_ruleset(name)
    figures = Figures()
    for seed in seeds:
        audit(rules, play(rules, seed), figures)
    return figures


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for ruleset in ruleset_names():
        f = measure(ruleset, range(58, 58 + n))
        print(f.line(ruleset))
        for ex in f.examples[:2]:
            print("   ", ex)
