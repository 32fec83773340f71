"""W-3 areas and field, with the geometry proposals W-Q1 (five lines), W-Q2 (distance), W-Q3 (moves)."""
from __future__ import annotations

from scenario import Phase, Position, c, illegal, one

from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.geometry import adjacent, distance, lines
from kifu.domain.worlfard.view import view


def test_W_3_2_each_player_has_five_lines_of_stage_table_and_tower_spots():
    """W-Q1 proposal: five lines, each with one stage, one table and one tower spot."""
    state = Position().state
    assert list(lines()) == [1, 2, 3, 4, 5]
    for side in state.sides:
        assert len(side.stage) == len(side.table) == len(side.towers) == 5


def test_W_3_2_a_line_outside_the_field_is_refused():
    p = Position()
    (card,) = p.hand(1, "火蜥蜴サラマン")
    p.pile(1, 1, 1)
    m = p.build()
    illegal(m, 1, c.Summon(card=card, line=6, towers=(1,)), "W-3.2")
    illegal(m, 1, c.Summon(card=card, line=0, towers=(1,)), "W-3.2")
    illegal(m, 1, c.SetTower(card=card, line=6), "W-3.2")
    illegal(m, 1, c.Summon(card=card, line=2, towers=(7,)), "W-3.2")


def test_W_3_3_stage_spot_holds_one_unit():
    p = Position()
    p.unit(1, 2, "大地の戦士")
    (card,) = p.hand(1, "火蜥蜴サラマン")
    p.pile(1, 1, 1)
    m = p.build()
    illegal(m, 1, c.Summon(card=card, line=2, towers=(1,)), "W-3.3")
    assert all(cmd.line != 2 for cmd in m.legal(1) if isinstance(cmd, c.Summon))
    envs = m.submit(1, c.Summon(card=card, line=3, towers=(1,)))
    assert one(envs, ev.UnitSummoned).event.line == 3


def test_W_3_1_hand_is_seen_by_its_owner_only_and_no_deck_order_by_anyone():
    state = Position().state
    for seat in (1, 2):
        v = view(state, seat)
        mine, theirs = v.sides[seat - 1], v.sides[2 - seat]
        assert [r.id for r in mine.hand] == list(state.side(seat).hand)
        assert theirs.hand is None and theirs.hand_count == len(state.side(3 - seat).hand)
        assert mine.deck is None and theirs.deck is None
        assert mine.deck_count == len(state.side(seat).deck)
    judge = view(state, None)
    assert [r.id for r in judge.sides[1].deck] == list(state.side(2).deck)


def test_W_Q2_attack_distance_front_is_1_diagonal_is_2():
    assert distance(3, 3, across=True) == 1
    assert distance(3, 2, across=True) == distance(3, 4, across=True) == 2
    assert distance(1, 5, across=True) == 5
    assert distance(3, 2, across=True, metric="chebyshev") == 1   # the switchable alternative
    p = Position()
    p.unit(1, 3, "紅蓮の剣士")    # AGI 1
    p.unit(1, 1, "炎獄の番犬")    # AGI 2
    p.unit(1, 5, "ディプテラ")    # AGI 3
    p.at(Phase.BATTLE, seat=1)
    m = p.build()

    def reach(line: int) -> list[int]:
        match = p.build()
        match.submit(1, c.Attack(line=line))
        return [t.line for t in match.legal(1)]

    assert reach(3) == [3]
    assert reach(1) == [1, 2]
    assert reach(5) == [3, 4, 5]
    m.submit(1, c.Attack(line=3))
    illegal(m, 1, c.Target(line=2), "W-12.2")
    envs = m.submit(1, c.Target(line=3))
    assert one(envs, ev.TargetDeclared).event == ev.TargetDeclared(seat=1, line=3, distance=1, agi=1)


def test_W_Q2_block_distance_runs_along_the_blockers_own_row():
    assert distance(2, 3, across=False) == 1
    assert distance(1, 3, across=False) == 2
    assert distance(3, 3, across=False) == 0   # the unit on the target spot needs no range


def test_W_Q3_move_adjacency_is_left_or_right_in_ones_own_row():
    assert adjacent(1) == (2,)
    assert adjacent(3) == (2, 4)
    assert adjacent(5) == (4,)
