"""W-11.2 hearts absorb damage to a player (bottom up, W-Q6); W-11.3 one recovers per start phase."""
from __future__ import annotations

from kifu.domain.worlfard import events as ev

try:                                            # where the rule lives moved as effects arrived
    from kifu.domain.worlfard.ops import damage_player
except ImportError:                             # pragma: no cover
    from kifu.domain.worlfard.combat import damage_player
from scenario import Phase, Position, attack, c, defend, draft_on, kinds, of, one


def _hit_player(attacker: str, broken: tuple[int, ...] = (), seat: int = 1):
    """``seat`` attacks the empty spot 3 of the other seat, whose hearts at ``broken`` are broken."""
    p = Position()
    p.unit(seat, 3, attacker)
    p.hearts(3 - seat, broken=broken).at(Phase.BATTLE, seat=seat)
    m = p.build()
    attack(m, 3, 3)
    return m, defend(m, c.NoDefense())


def test_W_11_2_each_ready_heart_absorbs_one_damage_and_breaks_bottom_up():
    m, envs = _hit_player("ディプテラ")                 # STR 2
    attacked = one(envs, ev.PlayerAttacked)
    assert (attacked.clause, attacked.event) == ("W-12.6", ev.PlayerAttacked(seat=2, STR=2))
    broken = one(envs, ev.HeartsBroken)
    assert (broken.clause, broken.event, broken.cause) == ("W-11.2", ev.HeartsBroken(seat=2, indexes=(2, 1)),
                                                           attacked.seq)
    assert of(envs, ev.LifeLost) == []
    side = m.state.side(2)
    assert side.life == 12 and [h.broken for h in side.hearts] == [False, True, True]


def test_W_11_2_damage_beyond_the_ready_hearts_reaches_life():
    m, envs = _hit_player("紅蓮の剣士", broken=(1, 2))      # STR 3, only the top heart is ready
    assert one(envs, ev.HeartsBroken).event.indexes == (0,)
    lost = one(envs, ev.LifeLost)
    assert (lost.clause, lost.event) == ("W-12.6", ev.LifeLost(seat=2, amount=2, life=10))
    assert all(h.broken for h in m.state.side(2).hearts)


def test_W_11_2_broken_hearts_absorb_nothing():
    m, envs = _hit_player("紅蓮の剣士", broken=(0, 1, 2))
    assert of(envs, ev.HeartsBroken) == []
    assert one(envs, ev.LifeLost).event == ev.LifeLost(seat=2, amount=3, life=9)


def test_W_11_2_no_damage_breaks_no_heart():
    """No unit with STR 0 can attack in the starter set (ドラムトーテム has AGI 0): the rule is run directly."""
    m = Position().build()
    draft = draft_on(m)
    damage_player(draft, 2, 0, m.seq)
    assert draft.envelopes == []
    damage_player(draft, 2, 1, m.seq)
    assert kinds(draft.envelopes) == [("HeartsBroken", "W-11.2")]
    assert draft.envelopes[0].event == ev.HeartsBroken(seat=2, indexes=(2,))


def test_W_11_3_one_broken_heart_recovers_per_start_phase_top_most_first():
    p = Position().at(Phase.MAIN1, seat=1)
    p.hearts(2, broken=(0, 1, 2))
    m = p.build()
    envs = m.submit(1, c.Proceed(to="end"))
    recovered = one(envs, ev.HeartRecovered)
    assert (recovered.clause, recovered.event) == ("W-11.3", ev.HeartRecovered(seat=2, index=0))
    assert recovered.cause == one(envs, ev.TurnBegan).seq
    assert [h.broken for h in m.state.side(2).hearts] == [False, True, True]
    m.submit(2, c.Proceed(to="end"))                    # seat 1's start phase: not seat 2's hearts
    assert [h.broken for h in m.state.side(2).hearts] == [False, True, True]
    envs = m.submit(1, c.Proceed(to="end"))
    assert one(envs, ev.HeartRecovered).event == ev.HeartRecovered(seat=2, index=1)
    assert [h.broken for h in m.state.side(2).hearts] == [False, False, True]


def test_W_11_3_only_the_turn_players_hearts_recover():
    p = Position().at(Phase.MAIN1, seat=1)
    p.hearts(1, broken=(2,))
    m = p.build()
    envs = m.submit(1, c.Proceed(to="end"))
    assert of(envs, ev.HeartRecovered) == []
    assert m.state.side(1).hearts[2].broken
