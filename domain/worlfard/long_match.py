"""A WORLFARD match that lasts: the benchmark's long record (no natural match reaches 10,000
events, decks run out first). The engine's own setup (shuffle, hearts, coin) of two preset
decks repeated 10×, then 1,000 life per player; the core records it as one prepared position."""
from __future__ import annotations

import uuid
from typing import Any

import msgspec

from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Ruleset

from . import cards, decks

COPIES = 10
LIFE = 1_000


def long_match(rules: Ruleset[Any, Any, Any], seed: int) -> tuple[list[Any], Any]:
    """The two preset decks and the prepared position; ``rules`` is WORLFARD's ruleset, passed in
    by ``ruleset.build`` (this module sits below it, so it cannot import it)."""
    base = [decks.load(name) for name in decks.preset_names()[:2]]
    big = tuple(msgspec.structs.replace(deck, cards=deck.cards * COPIES) for deck in base)
    setup = Match.start(rules, Header(
        match_id=str(uuid.UUID(int=10_000 + seed)), ruleset=rules.name, rules_version=rules.rules_version,
        card_set=cards.card_set_digest(), seed=seed, players=("random", "random"), decks=big))
    state = setup.state
    prepared = msgspec.structs.replace(
        state, sides=tuple(msgspec.structs.replace(side, life=LIFE) for side in state.sides))
    return base, prepared
