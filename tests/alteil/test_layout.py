"""The layout of an alteil view: both battlefields, units, influence per god, soul counts, and the
action order with whose unit acts next (drawn by the generic terminal renderer)."""
from __future__ import annotations

from alteil_scenario import RULES, Position, c
from rich.console import Console

from kifu.cli import render
from kifu.domain.core.layout import Counter, Grid, Note


def _draw(layout) -> str:  # type: ignore[no-untyped-def]
    console = Console(width=160, record=True)
    console.print(render.board(layout, ("p1", "p2")))
    return console.export_text()


def test_layout_shows_both_battlefields_influence_soul_and_the_action_order() -> None:
    p = Position()
    a = p.unit(1, "火炎の戦士", 1)
    p.unit(1, "光の見習い騎士", 5)
    p.unit(2, "闇の斥候", 2, damage=1)
    p.influence(1, "水の衛兵")
    p.soul(2, 3)
    p.destroy(2, 6)
    m = p.window(1).match()
    m.submit(1, c.Pass())
    for seat in (None, 1, 2):
        layout = RULES.presentation.layout(RULES.decider.view(m.state, seat))
        assert [panel.seat for panel in layout.seats] == [1, 2]
        for panel in layout.seats:
            grids = [x for x in panel.parts if isinstance(x, Grid)]
            assert len(grids) == 1 and grids[0].rows == 2 and grids[0].cols == 3
            counters = {x.id: x.value for x in panel.parts if isinstance(x, Counter)}
            assert {"soul", "life", "influence-Lifes", "influence-Lotia", "influence-Gouen",
                    "influence-Falkau"} <= set(counters)
        counters2 = {x.id: x.value for x in layout.seats[1].parts if isinstance(x, Counter)}
        assert counters2["soul"] == 3 and counters2["life"] == 5
        notes = [x.text for x in layout.board if isinstance(x, Note)]
        assert notes and notes[0].startswith("action order: 闇の斥候")
        text = _draw(layout)
        assert "闇の斥候" in text and "action order" in text and "destroyed" in text
    assert a


def test_layout_shows_who_is_choosing_a_sealed_opening_influence() -> None:
    p = Position()
    knight = p.hand(1, "光の見習い騎士")[0]
    p.hand(2, "水の衛兵")
    m = p.at(step="opening", actor=0, turn=0, turn_seat=0).match()
    m.submit(1, c.PlaceInfluence(card=knight))
    layout = RULES.presentation.layout(RULES.decider.view(m.state, 2))
    assert layout.chosen == (1,) and layout.choosing == (2,)
    assert "光の見習い騎士" not in _draw(layout)
