"""A long alteil match for the benchmark (the ``long_match`` hook): no natural match gets near
10,000 events (seven deaths, six squares or the deck end it within ~2,500). The engine's own setup
(shuffles, squares, hands) of two preset decks changed so that random play keeps going: each keeps
its first ``UNITS`` units and then its grimoires over and over, to ``CARDS`` cards (so its later
cards have wide ids: ``vocabulary.card_id``). Few units, few deaths and battlefield attacks; the
soul payments cycle the deck (A-10.2) while it runs down to deck-out (A-1.3)."""
from __future__ import annotations

import uuid
from typing import Any

import msgspec

from kifu.domain.core.header import Header
from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import Ruleset

from .cards import card_set_digest, catalog
from .decks import DeckList, load, preset_names

UNITS = 4
CARDS = 2_000


def _long(deck: DeckList) -> DeckList:
    known = catalog()
    units = [name for name in deck.cards if known[name].unit][:UNITS]
    grimoires = [name for name in deck.cards if not known[name].unit]
    cards = units + grimoires * (CARDS // max(1, len(grimoires)) + 1)
    return msgspec.structs.replace(deck, cards=tuple(cards[:CARDS]))


def long_match(rules: Ruleset[Any, Any, Any], seed: int) -> tuple[list[Any], Any]:
    """The two preset decks of ``seed`` and the prepared position (``rules``: alteil's ruleset,
    passed in by ``ruleset.build``, which this module sits below)."""
    names = preset_names()
    base = [load(names[seed % len(names)]), load(names[(seed + 1) % len(names)])]
    setup = Match.start(rules, Header(
        match_id=str(uuid.UUID(int=10_000 + seed)), ruleset=rules.name, rules_version=rules.rules_version,
        card_set=card_set_digest(), seed=seed, players=("random", "random"), decks=tuple(_long(d) for d in base)))
    return base, setup.state
