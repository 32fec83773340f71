"""Card ids past a deck's 1,000th card (only a prepared position has such a deck: the bench's
longest match): ``card_id`` numbers them above ``WIDE`` and every id below it reads as before, so
no record changes; the longest match plays, folds and audits with them."""
from __future__ import annotations

from kifu.domain.core.match import Match
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard import position
from kifu.domain.worlfard.state import State
from kifu.domain.worlfard.vocabulary import WIDE, card_id, card_index, owner_of
from kifu.projections.audit import audit
from kifu.tools.bench_work import play

RULES = find_ruleset("worlfard")


def test_ids_of_the_first_thousand_cards_are_the_registered_ones() -> None:
    for seat in (1, 2):
        for index in range(1000):
            assert card_id(seat, index) == seat * 1000 + index < WIDE


def test_every_id_gives_back_its_owner_and_position() -> None:
    seen: set[int] = set()
    for seat in (1, 2):
        for index in range(5000):
            cid = card_id(seat, index)
            assert (owner_of(cid), card_index(cid)) == (seat, index)
            assert cid >= 1000       # never a player (1, 2) or a tower (seat*10+line)
            seen.add(cid)
    assert len(seen) == 10_000


def test_the_longest_match_plays_folds_and_audits_with_wide_ids() -> None:
    decks, start = RULES.bench.longest(1)
    assert isinstance(start, State) and max(len(names) for names in start.names) > 1000
    match, _ = play(RULES, 1, decks, start=start, until=3_000)
    assert match.seq >= 3_000
    wide = [card for card in match.state.sides[0].deck + match.state.sides[1].deck if card >= WIDE]
    assert wide, "the shuffled decks hold cards past the 1,000th"
    for card in wide[:50]:
        assert match.state.name(card) == match.state.names[owner_of(card) - 1][card_index(card)]
    position.check(match.state)
    folded = Match.fold(RULES, match.header, match.envelopes)
    assert folded.state == match.state
    assert audit(RULES, match.header, match.envelopes).clean
