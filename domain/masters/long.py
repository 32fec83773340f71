"""A long masters match for the benchmark (the ``long_match`` hook): no natural match gets near
10,000 events (ten life, 40 cards). The engine's own setup (coin, masters, shuffles, hands) of two
preset decks repeated ``COPIES`` times without the special victory (終焉の刻), then ``LIFE`` life per
master; the core records it as one prepared position. The decks pass 100 cards, so their later
cards have wide ids (``vocabulary.card_id``); random play runs to deck-out (M-Q11)."""
from __future__ import annotations

import uuid
from typing import Any

import msgspec

from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Ruleset

from .cards import card_set_digest
from .decks import load, preset_names

COPIES = 5
LIFE = 1_000
LEFT_OUT = frozenset({"終焉の刻"})    # a special victory (M-1.2) would end it within a few thousand events


def long_match(rules: Ruleset[Any, Any, Any], seed: int) -> tuple[list[Any], Any]:
    """The two preset decks of ``seed`` and the prepared position (``rules``: masters' ruleset,
    passed in by ``ruleset.build``, which this module sits below)."""
    names = preset_names()
    base = [load(names[seed % len(names)]), load(names[(seed + 1) % len(names)])]
    big = tuple(msgspec.structs.replace(deck, cards=tuple(n for n in deck.cards if n not in LEFT_OUT) * COPIES)
                for deck in base)
    setup = Match.start(rules, Header(
        match_id=str(uuid.UUID(int=10_000 + seed)), ruleset=rules.name, rules_version=rules.rules_version,
        card_set=card_set_digest(), seed=seed, players=("random", "random"), decks=big))
    state = setup.state
    prepared = msgspec.structs.replace(
        state, sides=tuple(msgspec.structs.replace(side, life=LIFE) for side in state.sides))
    return base, prepared
