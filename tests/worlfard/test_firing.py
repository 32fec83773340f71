"""``_firing``: the triggered skills of a card, kept per printed card by zone and timing, must be
the ones its definition lists when filtered from scratch."""
from __future__ import annotations

from typing import get_args

from kifu.domain.worlfard.cards import catalog
from kifu.domain.worlfard.firing import TRIGGER_CLAUSE, _firing
from kifu.domain.worlfard.skills import Trigger, Zone


def test_every_cards_firing_skills_are_its_definitions() -> None:
    whens = set(get_args(Trigger)) | set(TRIGGER_CLAUSE) | {"cast"}
    for d in catalog().values():
        for zone in get_args(Zone):
            for when in sorted(whens):
                expected = tuple(i for i, skill in enumerate(d.skill)
                                 if skill.when == when and skill.zone == zone and skill.mark == "・")
                assert _firing(d, when, zone) == expected, (d.name, when, zone)
                assert _firing(d, when, zone) == expected   # once more, from the table
