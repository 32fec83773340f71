"""``legal`` asks the yes-or-no ``can_*`` predicates and the table-backed ``State.card``;
``decide`` asks the ``may_*`` permissions and their reasons. These check, at every state of
random matches, that the two say the same, so ``legal`` and ``decide`` cannot drift apart."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from kifu.domain.masters import board
from kifu.domain.masters import permissions as pm
from kifu.domain.masters.cards import UNKNOWN, catalog
from kifu.domain.masters.state import State
from kifu.domain.masters.vocabulary import MAIN_PHASES

from .test_properties import deck_pairs, new_match, play, seeds

DEFS = catalog()


def _agree(state: State) -> None:
    for seat in (1, 2):
        main = pm.sorcery_time(state, seat, MAIN_PHASES)
        assert main == (pm.may_summon(state, seat) is None) == (pm.may_cast(state, seat) is None)
        assert pm.sorcery_time(state, seat, ("action",)) == (pm.may_move_piece(state, seat) is None)
        assert pm.can_activate(state, seat) == (pm.may_activate(state, seat) is None)
        assert pm.can_ambush(state, seat) == (pm.may_ambush(state, seat) is None)
        assert pm.can_move_master(state, seat) == (pm.may_move_master(state, seat) is None)
        assert pm.can_charge_piece(state, seat) == (pm.may_charge_piece(state, seat) is None)
    for cid in (0, 1, 99, 100, 150, 199, 200, 299, *range(100, 100 + len(state.names[0])),
                *range(200, 200 + len(state.names[1]))):
        assert state.card(cid) is DEFS.get(state.name(cid), UNKNOWN), cid
    assert state.card(300) is state.card(1000) is UNKNOWN     # no third seat


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, decks=deck_pairs)
def test_the_yes_or_no_permissions_and_card_table_agree_with_decide_s(seed, decks):
    match = new_match(seed, decks)
    _agree(match.state)
    refused = 0
    for _ in play(match, seed):
        _agree(match.state)
        refused += not pm.sorcery_time(match.state, 1, MAIN_PHASES)
    assert refused > 0          # the refusals were reached, not only the yeses


def test_every_square_is_named_as_before():
    for sq in board.SQUARES:
        assert board.name(sq) == f"{'abcdefghij'[sq % 10 - 1]}{sq // 10}"
        assert board.parse(board.name(sq)) == sq
    assert board.name(0) == ""
