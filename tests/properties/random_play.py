"""One random match of a ruleset, decision by decision, for the property tests that check a
shortcut at every decision: two of the ruleset's random bots choosing from what its ``options``
shows, from two of its preset decks."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kifu.domain.core.bot import Seen
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Ruleset


def random_decisions(ruleset: Ruleset[Any, Any, Any], seed: int, decks: tuple[str, str], match_id: str,
                     limit: int = 20_000) -> Iterator[tuple[Match, int, Any]]:
    """Yields (the match, the seat to decide, what it is shown) before each decision, then
    submits the seat's bot's choice from it; ends when the match does (an error if it does
    not within ``limit`` decisions)."""
    match = Match.create(ruleset, match_id=match_id, seed=seed, decks=[ruleset.content.load_deck(d) for d in decks],
                         players=("p1", "p2"))
    bot = ruleset.content.bots["random"]
    bots = {1: bot(seed), 2: bot(seed ^ 0x5DEECE66D)}
    for _ in range(limit):
        if match.outcome is not None:
            return
        seat = match.deciding
        assert seat in (1, 2)
        shown = ruleset.speedups.options(match.state, seat)
        yield match, seat, shown
        match.submit(seat, bots[seat].choose(Seen(seat, shown)))
    raise AssertionError(f"no outcome after {limit} decisions")
