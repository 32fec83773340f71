"""The view, its layout (the grid with pieces, masters, territories and the stack) and redaction."""
from __future__ import annotations

from kifu.domain.core.layout import Grid, Note, Zone, cell_name
from kifu.domain.core.roles import HIDDEN
from kifu.domain.masters import events as ev
from kifu.domain.masters.view import layout, mask, redact, view

from .scenario import Pos, c, of


def test_the_layout_draws_the_grid_with_pieces_masters_territories_and_the_stack():
    p = Pos().phase("main1").mana(1, 2)
    spear = p.piece(1, "槍兵", "c3", tapped=True)
    p.piece(2, "剣士", "c4")
    ball = p.hand(1, "火球")
    p.do(1, c.Cast(card=ball, target="c4"))
    lay = layout(view(p.state, 1))
    grid = next(part for part in lay.board if isinstance(part, Grid))
    assert (grid.rows, grid.cols) == (6, 5)
    cells = {cell_name(grid, cell): cell for cell in grid.cells}
    assert cells["c3"].cards[0].id == spear and "tapped" in cells["c3"].cards[0].marks
    assert cells["c1"].cards[0].name == "master 1" and cells["c6"].cards[0].name == "master 2"
    assert cells["a1"].owner == 1 and cells["e6"].owner == 2
    stack = next(part for part in lay.board if isinstance(part, Zone) and part.id == "stack")
    assert [f.id for f in stack.cards] == [ball]
    assert lay.step == "main 1" and lay.awaiting == (2,)     # M-2.1: the cast passed priority


def test_the_layout_shows_the_combat_and_the_opponents_hand_as_a_count():
    p = Pos().phase("action")
    a = p.piece(1, "剣士", "c3")
    p.piece(2, "槍兵", "c4")
    p.do(1, c.Move(piece=a, path=("c4",)))
    lay = layout(view(p.state, 1))
    assert any(isinstance(part, Note) and "attacks" in part.text for part in lay.board)
    hand2 = next(part for part in lay.panel(2).parts if isinstance(part, Zone) and part.id == "hand")
    assert hand2.show == "count" and not hand2.cards


def test_face_down_mana_and_deck_order_are_hidden_from_both_seats():
    p = Pos()
    top = p.state.side(1).deck[0]
    envs = p.do(1, c.Charge())
    charged = of(envs, ev.ManaCharged)[0]
    assert redact(charged, 1).event.card == HIDDEN and redact(charged, 2).event.card == HIDDEN
    assert redact(charged, None).event.card == top
    assert view(p.state, 1).sides[0].mana[0].id == HIDDEN
    shuffled = of(p.base.envelopes, ev.DeckShuffled)[0]
    assert set(redact(shuffled, 1).event.order) == {HIDDEN}
    masked = mask(p.state, 1)
    assert set(masked.side(1).deck) == {HIDDEN} and set(masked.side(2).hand) == {HIDDEN}
    assert masked.side(1).hand == p.state.side(1).hand
