"""A WORLFARD match that lasts: the benchmark's long record (no natural match reaches 10,000
events, decks run out first). The engine's own setup (shuffle, hearts, coin) of two preset
decks repeated 10×, then 1,000 life per player; the core records it as one prepared position.

The longest (``longest``, 100,000 events and more): the decks repeated 25× (1,400–1,500 cards a
seat, so its later cards have wide ids: ``vocabulary.card_id``) and 1,000,000 life."""
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
LONGEST_COPIES = 25
LONGEST_LIFE = 1_000_000


def long_match(rules: Ruleset[Any, Any, Any], seed: int, copies: int = COPIES, life: int = LIFE
               ) -> tuple[list[Any], Any]:
    """The two preset decks and the prepared position; ``rules`` is WORLFARD's ruleset, passed in
    by ``ruleset.build`` (this module sits below it, so it cannot import it)."""
    base = [decks.load(name) for name in decks.preset_names()[:2]]
    big = tuple(msgspec.structs.replace(deck, cards=deck.cards * copies) for deck in base)
    setup = Match.start(rules, Header(
        match_id=str(uuid.UUID(int=10_000 + seed)), ruleset=rules.name, rules_version=rules.rules_version,
        card_set=cards.card_set_digest(), seed=seed, players=("random", "random"), decks=big))
    state = setup.state
    prepared = msgspec.structs.replace(
        state, sides=tuple(msgspec.structs.replace(side, life=life) for side in state.sides))
    return base, prepared


def longest(rules: Ruleset[Any, Any, Any], seed: int) -> tuple[list[Any], Any]:
    """The long match with 25 copies of each deck and a million life: 100,000 events and more."""
    return long_match(rules, seed, LONGEST_COPIES, LONGEST_LIFE)
