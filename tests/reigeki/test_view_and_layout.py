"""The view and layout: both stages with leaders, hands (a count for the opponent), 霊力 (face down
for the opponent), damage zones, Ex decks and the battle step; redaction and mask."""
from __future__ import annotations

from kifu.domain.core.layout import Counter, Grid, Note, Zone

from .scenario import RULES, Pos, c


def _part(panel, kind, id_):  # type: ignore[no-untyped-def]
    return next(p for p in panel.parts if isinstance(p, kind) and p.id == id_)


def _position():  # type: ignore[no-untyped-def]
    p = Pos(phase="attack")
    p.stage(1, 1, "魂魄妖夢")
    p.stage(1, 5, "霧雨魔理沙・Ex", under="霧雨魔理沙")
    p.hand(1, "チルノ")
    p.hand(2, "毛玉")
    p.hand(2, "大妖精")
    spell = p.reiryoku(2, "霊符「夢想封印」")
    reigeki = p.reiryoku(2, "霊撃")
    dmg = p.damage(2)
    p.side(2, flipped=(dmg,))
    m = p.match()
    m.submit(1, c.Attack(attacker=1, target=2))
    return m, spell, reigeki, dmg


def test_layout_shows_both_stages_hands_reiryoku_damage_and_the_battle() -> None:
    m, spell, reigeki, dmg = _position()
    layout = RULES.presentation.layout(RULES.decider.view(m.state, 1))
    assert layout.step == "guard" and layout.awaiting == (2,) and layout.active == 1
    mine, theirs = layout.panel(1), layout.panel(2)
    grid = _part(mine, Grid, "stage")
    assert (grid.rows, grid.cols) == (2, 3)
    cells = {(cell.row, cell.col): cell for cell in grid.cells}
    assert cells[(1, 2)].label == "leader"
    assert [f.name for f in cells[(2, 2)].cards] == ["霧雨魔理沙", "霧雨魔理沙・Ex"]     # the LvEx on its Lv3
    assert _part(theirs, Grid, "stage").cells[0].label == "leader"
    hand = _part(theirs, Zone, "hand")
    assert hand.show == "count" and hand.count == 2 and all(f.hidden for f in hand.cards)
    assert [f.name for f in _part(mine, Zone, "hand").cards] == ["チルノ"]
    reiryoku = _part(theirs, Zone, "reiryoku")
    assert [f.id for f in reiryoku.cards] == [0, reigeki]                             # spells face down, 霊撃 up
    damage = _part(theirs, Zone, "damage")
    assert damage.cards[0].id == dmg and "face down" in damage.cards[0].marks
    assert _part(theirs, Counter, "damage").value == 1 and _part(theirs, Zone, "exdeck").count > 0
    note = next(p for p in layout.board if isinstance(p, Note))
    assert "attacks" in note.text and "guard" in note.text
    judge = RULES.presentation.layout(RULES.decider.view(m.state, None))
    assert [f.id for f in _part(judge.panel(2), Zone, "reiryoku").cards] == [spell, reigeki]


def test_mask_hides_what_the_seat_cannot_know() -> None:
    m, spell, reigeki, _ = _position()
    masked = RULES.visibility.mask(m.state, 1)
    assert set(masked.side(2).hand) == {0} and masked.side(2).reiryoku == (0, reigeki)
    assert set(masked.side(1).deck) == {0} and masked.side(1).hand == m.state.side(1).hand


def test_card_names_played_and_catalogue() -> None:
    m, *_ = _position()
    names = RULES.presentation.card_names(m.state)
    unit = m.state.side(1).stage[0]
    assert names(unit.card) == "魂魄妖夢"
    assert {row.name for row in RULES.content.catalogue().rows} >= {"霊撃", "毛玉", "「永夜返し」"}
    assert "P" in [col.title for col in RULES.content.catalogue().columns]
