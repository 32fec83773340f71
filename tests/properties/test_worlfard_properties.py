"""Properties of WORLFARD play, checked on random matches (hypothesis).

Random seeds and random preset deck pairs; bots choose among ``legal`` decisions. Each property
plays whole matches, so examples are few and the deadline is off; a failure shrinks to a small
seed and deck pair that ``kifu`` can replay.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu.domain.core.bot import Seen
from kifu.domain.core.draft import Draft
from kifu.domain.core.envelope import Envelope, canonical
from kifu.domain.core.errors import Illegal, MatchOver
from kifu.domain.core.match import Match, state_digest_for
from kifu.domain.core.record import decode_record, encode_record, first_broken_link
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.worlfard import checks
from kifu.domain.worlfard import commands as c
from kifu.domain.worlfard import events as ev
from kifu.domain.worlfard.bots import RandomBot
from kifu.domain.worlfard.card_facts import match_facts
from kifu.domain.worlfard.cards import catalog
from kifu.domain.worlfard.checks import harmless, surely_survives, vit_lowering
from kifu.domain.worlfard.decks import preset, preset_names
from kifu.domain.worlfard.evolve import evolve
from kifu.domain.worlfard.field import Field, all_negated, keywords, stat, tower_height, tower_heights
from kifu.domain.worlfard.legal import _holds_short
from kifu.domain.worlfard.legal import options as legal_options
from kifu.domain.worlfard.payment import _ByCost, _enumerate, is_redundant_free
from kifu.domain.worlfard.state import HIDDEN, State
from kifu.domain.worlfard.targets import _unit_aim
from kifu.domain.worlfard.view import redact, view
from kifu.domain.worlfard.vocabulary import LINES, Status
from kifu.projections.audit import audit

RULESET = find_ruleset("worlfard")
PRESETS = preset_names()
DECKS = {name: preset(name) for name in PRESETS}
MAX_DECISIONS = 3000          # a match that runs longer than this is a bug (no turn limit exists)

seeds = st.integers(min_value=0, max_value=2**63 - 1)
deck_pairs = st.tuples(st.sampled_from(PRESETS), st.sampled_from(PRESETS))
# whole matches are played per example (~0.2 s each): few examples, no deadline
game = settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Choose = Callable[[list[Any], Match, int], Any]


def new_match(seed: int, decks: tuple[str, str]) -> Match:
    return Match.create(RULESET, match_id=f"prop-{seed}", seed=seed, decks=[DECKS[d] for d in decks],
                        players=("p1", "p2"))


def bots(seed: int) -> Choose:
    pair = {1: RandomBot(seed), 2: RandomBot(seed ^ 0x5DEECE66D)}
    return lambda legal, match, seat: pair[seat].choose(Seen(seat, legal))


def decisions(match: Match, choose: Choose, limit: int = MAX_DECISIONS) -> Iterator[list[Envelope[Any]]]:
    """Play ``match`` with ``choose``, yielding the envelopes of each decision."""
    for _ in range(limit):
        if match.outcome is not None:
            return
        seat = match.deciding
        assert seat in (1, 2)
        legal = match.legal(seat)
        assert legal, f"seat {seat} is awaited but has no legal decision at seq {match.seq}"
        yield match.submit(seat, choose(legal, match, seat))
    assert match.outcome is not None, f"no outcome after {limit} decisions"


def played(seed: int, decks: tuple[str, str]) -> Match:
    match = new_match(seed, decks)
    for _ in decisions(match, bots(seed)):
        pass
    return match


def states(match: Match) -> Iterator[tuple[Envelope[Any], State]]:
    """The state after every event of ``match``, by folding from the initial state."""
    state = RULESET.decider.initial_state(match.header)
    for env in match.envelopes:
        state = evolve(state, env.event)
        yield env, state


# -- (1) random legal play -------------------------------------------------------------------------
@settings(game, max_examples=10)
@given(seed=seeds, decks=deck_pairs, choices=seeds, eagerness=st.floats(0.5, 0.95))
def test_random_legal_play_never_raises_and_ends_with_an_outcome(seed, decks, choices, eagerness):
    """A bot unlike RandomBot: it acts with probability ``eagerness``, else picks among all decisions."""
    rnd = random.Random(choices)

    def choose(legal: list[Any], match: Match, seat: int) -> Any:
        actions = [cmd for cmd in legal if not isinstance(cmd, c.Proceed)]
        return rnd.choice(actions if actions and rnd.random() < eagerness else legal)

    match = new_match(seed, decks)
    for envs in decisions(match, choose):
        assert envs[0].kind == "decision" and all(e.kind == "rule" for e in envs[1:])
        assert all(e.cause is not None and e.cause < e.seq for e in envs[1:])
    outcome = match.outcome
    assert outcome is not None and outcome.clause == "W-1.1"
    ended = [e for e in match.envelopes if isinstance(e.event, ev.MatchEnded)]
    assert len(ended) == 1 and ended[0].clause == "W-1.1"
    assert ended[0].seq > [e for e in match.envelopes if e.kind == "decision"][-1].seq
    losers = [s for s in (1, 2) if match.state.side(s).lost is not None]
    assert losers and (outcome.winner is None) == (len(losers) == 2)
    assert match.deciding is None and match.legal(1) == match.legal(2) == []


# -- (2) illegal commands change nothing -----------------------------------------------------------
def _normal(cmd: Any) -> Any:
    """Payment sources are a set: their order in the command does not matter."""
    if isinstance(cmd, (c.Summon, c.Cast, c.Activate)):
        return msgspec.structs.replace(cmd, towers=tuple(sorted(cmd.towers)), souls=tuple(sorted(cmd.souls)))
    return cmd


def _commands(state: State) -> st.SearchStrategy[Any]:
    known = sorted({card for side in state.sides for card in side.hand + side.soul + side.deck[:3]})
    cards = st.sampled_from(known) | st.integers(-3, 3000)
    lines = st.integers(-1, 7)
    return st.one_of(
        st.builds(c.ChooseOrder, go_first=st.booleans()),
        st.builds(c.Mulligan, redraw=st.booleans()),
        st.builds(c.SetTower, card=cards, line=lines),
        st.builds(c.Summon, card=cards, line=lines, towers=st.lists(lines, max_size=4).map(tuple),
                  souls=st.lists(cards, max_size=4).map(tuple)),
        st.builds(c.Move, line=lines, to=lines),
        st.builds(c.Attack, line=lines),
        st.builds(c.Target, line=lines),
        st.builds(c.Block, line=lines),
        st.just(c.Evade()),
        st.just(c.NoDefense()),
        st.builds(c.Proceed, to=st.sampled_from(["battle", "main2", "end"])),
        st.builds(c.Cast, card=cards, line=lines, towers=st.lists(lines, max_size=3).map(tuple),
                  souls=st.lists(cards, max_size=3).map(tuple), targets=st.lists(cards | lines, max_size=2).map(tuple)),
        st.builds(c.Activate, card=cards, skill=st.integers(-1, 3),
                  targets=st.lists(cards | lines, max_size=2).map(tuple)),
        st.just(c.Pass()),
        st.just(c.Decline()),
        st.builds(c.Choose, targets=st.lists(cards | lines, max_size=2).map(tuple)),
    )


def _near(legal: list[Any]) -> st.SearchStrategy[Any]:
    """A legal command with one number nudged, or its payment sources reordered."""
    def nudge(args: tuple[Any, int, int]) -> Any:
        cmd, pick, delta = args
        raw = msgspec.to_builtins(cmd)
        ints = [k for k, v in raw.items() if isinstance(v, int) and not isinstance(v, bool)]
        if isinstance(cmd, c.Summon) and pick % 3 == 0:
            return msgspec.structs.replace(cmd, towers=cmd.towers[::-1], souls=cmd.souls[::-1])
        if not ints:
            return cmd
        key = ints[pick % len(ints)]
        raw[key] += delta
        return msgspec.convert(raw, c.Command)
    return st.tuples(st.sampled_from(legal), st.integers(0, 11), st.sampled_from([-1, 1, 2, 1000])).map(nudge)


def _probe(match: Match, who: int, cmd: Any, normal: set[Any]) -> None:
    """``cmd`` is accepted if (and only if) ``legal`` lists it; refused, it changes nothing."""
    if who == match.deciding and _normal(cmd) in normal:
        match.decide(who, cmd)
        return
    seq, state, head, envelopes = match.seq, match.state, match.head, list(match.envelopes)
    with pytest.raises((Illegal, MatchOver)) as caught:
        match.submit(who, cmd)
    if isinstance(caught.value, Illegal):
        assert caught.value.clause and caught.value.clause[:2] == "W-", caught.value
    assert (match.seq, match.head, match.envelopes) == (seq, head, envelopes)
    assert match.state == state


def _listed(match: Match) -> tuple[list[Any], set[Any]]:
    seat = match.deciding
    listed = match.legal(seat) if seat else []
    return listed, {_normal(cmd) for cmd in listed}


@settings(game, max_examples=12)
@given(seed=seeds, decks=deck_pairs, data=st.data())
def test_random_commands_are_refused_unless_legal_and_refusal_changes_nothing(seed, decks, data):
    match = new_match(seed, decks)
    stop = data.draw(st.integers(0, 250), label="decisions before probing")
    for _ in zip(range(stop), decisions(match, bots(seed)), strict=False):
        pass
    listed, normal = _listed(match)
    for cmd in listed:                                  # everything listed is accepted
        match.decide(match.deciding, cmd)
    for _ in range(12):
        who = data.draw(st.sampled_from([1, 2]), label="seat")
        options = _commands(match.state) | _near(listed) if listed else _commands(match.state)
        _probe(match, who, data.draw(options, label="command"), normal)


def _universe(state: State) -> Iterator[Any]:
    """Every decision with small arguments (payments aside): lines 0..6, the seats' hand cards."""
    spots = range(0, 7)
    yield from (c.ChooseOrder(go_first=b) for b in (True, False))
    yield from (c.Mulligan(redraw=b) for b in (True, False))
    for card in {card for side in state.sides for card in side.hand}:
        yield from (c.SetTower(card=card, line=line) for line in spots)
    yield from (c.Move(line=a, to=b) for a in spots for b in spots)
    for kind in (c.Attack, c.Target, c.Block):
        yield from (kind(line=line) for line in spots)
    yield from (c.Evade(), c.NoDefense(), c.Pass(), c.Decline(), c.Choose())
    yield from (c.Proceed(to=to) for to in ("battle", "main2", "end"))


@game
@given(seed=seeds, decks=deck_pairs, rate=st.sampled_from([0.02, 0.05, 0.1]))
def test_legal_lists_exactly_the_decisions_decide_accepts(seed, decks, rate):
    """At sampled points of a random match, every small decision by either seat is tried."""
    match = new_match(seed, decks)
    rnd = random.Random(seed)
    probes = 0
    for _ in decisions(match, bots(seed)):
        if rnd.random() >= rate:
            continue
        probes += 1
        listed, normal = _listed(match)
        for cmd in listed:
            match.decide(match.deciding, cmd)
        for cmd in _universe(match.state):
            for who in (1, 2):
                _probe(match, who, cmd, normal)
    assert match.outcome is not None


# -- (3) cards are conserved -------------------------------------------------------------------------
_OWNER_ZONES = ("deck", "hand", "soul", "grave", "seal")


def _zones(state: State) -> Iterator[tuple[int, str, int]]:
    for seat in (1, 2):
        side = state.side(seat)
        for zone in _OWNER_ZONES:
            for card in getattr(side, zone):
                yield seat, zone, card
        for heart in side.hearts:
            yield seat, "hearts", heart.card
        for unit in side.stage:
            if unit is not None:
                yield seat, "stage", unit.card
        for spell in side.table:
            if spell is not None:
                yield seat, "table", getattr(spell, "card", spell)
        for tower in side.towers:
            for card in tower.cards:
                yield seat, "towers", card


@game
@given(seed=seeds, decks=deck_pairs)
def test_cards_are_conserved_in_exactly_one_zone_after_every_event(seed, decks):
    match = played(seed, decks)
    every = sorted(seat * 1000 + i for seat in (1, 2) for i in range(len(match.state.names[seat - 1])))
    for env, state in states(match):
        assert sorted(card for _, _, card in _zones(state)) == every, env.seq
        for seat in (1, 2):          # W-3.5: a card goes to its owner's hand, deck, soul, graveyard, seal
            side = state.side(seat)
            owned = [card for zone in _OWNER_ZONES for card in getattr(side, zone)]
            owned += [h.card for h in side.hearts]
            assert not owned or seat * 1000 <= min(owned) and max(owned) < seat * 1000 + 1000, (env.seq, seat)


# -- (4) folding the record reproduces decide's state --------------------------------------------------
@settings(game, max_examples=8)
@given(seed=seeds, decks=deck_pairs, data=st.data())
def test_folding_the_record_reproduces_the_state_at_every_decision(seed, decks, data):
    match = new_match(seed, decks)
    folded = Match.fold(RULESET, match.header, match.envelopes).state
    assert folded == match.state
    checkpoints = set(data.draw(st.lists(st.integers(0, 400), max_size=4), label="full refolds"))
    for n, envs in enumerate(decisions(match, bots(seed))):
        for env in envs:
            folded = evolve(folded, env.event)
        assert folded == match.state
        # format 2 digests at checkpoints, the ruleset's canonical encoding (record-format.md)
        assert envs[-1].digest in (None, state_digest_for(RULESET, match.header.format, folded))
        if n in checkpoints:
            assert Match.fold(RULESET, match.header, match.envelopes).state == match.state
    again = Match.fold(RULESET, match.header, match.envelopes)
    assert again.state == match.state and again.head == match.head and again.outcome == match.outcome


@game
@given(seed=seeds, decks=deck_pairs)
def test_options_read_by_index_are_legal_in_order_and_actions_are_the_non_passive_ones(seed, decks):
    """``options`` builds each decision when read: by index, by iteration and as ``legal`` it is the
    same list, and ``actions()`` is it without proceed, pass and decline (what RandomBot filters)."""
    match = new_match(seed, decks)
    for _ in decisions(match, bots(seed)):
        seat = match.deciding
        if seat is None:
            continue
        opts = legal_options(match.state, seat)
        listed = list(opts)
        assert listed == RULESET.decider.legal(match.state, seat)
        assert [opts[i] for i in range(len(opts))] == listed
        assert [opts[i - len(opts)] for i in range(len(opts))] == listed
        actions = opts.actions()
        assert [actions[i] for i in range(len(actions))] == \
            [cmd for cmd in listed if not isinstance(cmd, (c.Proceed, c.Pass, c.Decline))]


@game
@given(seed=seeds, decks=deck_pairs)
def test_parameters_read_off_the_card_equal_the_whole_fields_after_every_event(seed, decks):
    """``field.stat``, ``all_negated``, ``keywords``, ``tower_heights`` and ``tower_height`` skip
    building a field when nothing changes a parameter of that unit (or HT), grants or negates;
    ``stat`` layers the effects that reach one unit itself and ``tower_heights`` works HT out from
    the towers alone: each must equal what a field built from scratch says."""
    match = played(seed, decks)
    for env, state in states(match):
        whole = Field(state)
        for seat in (1, 2):
            assert tower_heights(state, seat) == tuple(whole.ht.get((seat, line), 0)
                                                       for line in range(1, LINES + 1)), env.seq
            for line in range(1, LINES + 1):
                assert tower_height(state, seat, line) == whole.ht.get((seat, line), 0), env.seq
            for index, unit in enumerate(state.side(seat).stage):
                if unit is not None:
                    profile = whole.unit(seat, index + 1)
                    assert profile is not None
                    for name in ("STR", "VIT", "AGI", "DEF"):
                        assert stat(state, seat, index + 1, name) == getattr(profile, name), (env.seq, seat, name)
                    assert all_negated(state, seat, index + 1) == ("*" in profile.negated), env.seq
                    assert keywords(state, seat, index + 1) == profile.keywords, env.seq


@game
@given(seed=seeds, decks=deck_pairs)
def test_units_the_settle_loop_skips_have_damage_under_their_whole_fields_VIT(seed, decks):
    """The state-based checks build no field for a unit whose damage is under the floor of its
    VIT (printed, lowered by stored effects, W-7.3): a field built from scratch must agree that it
    is neither destroyed nor vanishes, and the floor must be the VIT where nothing else adds."""
    match = played(seed, decks)
    for env, state in states(match):
        lowering = vit_lowering(state)
        assert lowering is not None    # no card lowers VIT by a lasting skill: the shortcut is in use
        whole = Field(state)
        for seat in (1, 2):
            for index, unit in enumerate(state.side(seat).stage):
                if unit is not None and surely_survives(state, seat, index + 1, lowering):
                    profile = whole.unit(seat, index + 1)
                    assert profile is not None and profile.VIT > 0 and profile.VIT > unit.damage, (env.seq, seat)


def _what_the_checks_read(state: State) -> tuple[Any, ...]:
    """Everything the removal checks (W-8.3, W-8.4, W-10.3) read but damage: each unit's card and
    whether it is cursed (the one status that changes a field, W-9.4), each tower's cards, each
    table spell, the stored effects."""
    return tuple((tuple(None if u is None else (u.card, u.status == Status.CURSE) for u in side.stage),
                  tuple(t.cards for t in side.towers),
                  tuple(None if t is None else (t.card, t.waiting, t.since, t.targets) for t in side.table))
                 for side in state.sides) + (state.effects,)


@game
@given(seed=seeds, decks=deck_pairs)
def test_harmless_events_change_nothing_the_removal_checks_read_and_raise_no_damage(seed, decks):
    """``settle`` skips its checks after harmless events only: each must leave every unit, tower,
    table spell and stored effect as it was, and no unit's damage higher."""
    match = played(seed, decks)
    before = RULESET.decider.initial_state(match.header)
    for env, state in states(match):
        if harmless(env.event):
            assert _what_the_checks_read(state) == _what_the_checks_read(before), (env.seq, env.event)
            for side_before, side in zip(before.sides, state.sides, strict=True):
                for was, unit in zip(side_before.stage, side.stage, strict=True):
                    assert unit is None or was is None or unit.damage <= was.damage, env.seq
        before = state


@game
@given(seed=seeds, decks=deck_pairs)
def test_whenever_settle_skips_its_checks_the_checks_from_scratch_fire_nothing(seed, decks):
    """A state the rules left at rest, followed only by harmless events, needs no check: run on a
    scratch draft, the checks must find nothing to destroy, vanish or send to the graveyard."""
    skipped = []
    real = checks._at_rest

    def at_rest(draft):
        if not real(draft):
            return False
        scratch = Draft(draft.state, draft.next_seq, draft.rng, draft._evolve)
        assert not checks._removals(scratch, 0) and not checks._orphaned_spells(scratch, 0)
        assert not scratch.envelopes
        skipped.append(draft.next_seq)
        return True

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(checks, "_at_rest", at_rest)
        played(seed, decks)
    assert skipped    # the shortcut was in use


def _payments_from_scratch(ready, heights, souls, cost):
    """W-6.4 as first written: every tower set, fewest first, checked source by source."""
    value = dict(zip(ready, heights, strict=True))
    for n in range(len(ready) + 1):
        for towers in combinations(ready, n):
            hs = [value[line] for line in towers]
            if any(h == 0 for h in hs):
                continue
            if sum(hs) >= cost:
                if is_redundant_free(hs, cost):
                    yield towers, ()
                continue
            need = cost - sum(hs)
            if need <= len(souls) and all(sum(hs) + need - h < cost for h in hs):
                for chosen in combinations(souls, need):
                    yield towers, chosen


@settings(max_examples=300, deadline=None)
@given(towers=st.lists(st.tuples(st.integers(1, LINES), st.integers(0, 4)), max_size=LINES, unique_by=lambda t: t[0]),
       souls=st.lists(st.integers(1000, 2999), max_size=7, unique=True), cost=st.integers(-1, 10))
def test_payments_from_the_kept_tower_sets_equal_the_enumeration_from_scratch_in_order(towers, souls, cost):
    """The random bot draws an index into the payments: their order matters as much as the set."""
    towers.sort()
    ready, heights = tuple(t for t, _ in towers), tuple(h for _, h in towers)
    assert list(_enumerate(ready, heights, tuple(souls), cost)) == \
        list(_payments_from_scratch(ready, heights, tuple(souls), cost))


@game
@given(seed=seeds, decks=deck_pairs)
def test_whether_a_hand_holds_a_short_spell_equals_a_look_at_its_cards_after_every_event(seed, decks):
    """``legal`` keeps, per seat, whether its hand holds a Short Spell (all a reaction window
    can cast) while the hand is the same object: after every event it must say what the cards say."""
    match = played(seed, decks)
    facts = match_facts(match.state.names)
    for env, state in states(match):
        for seat in (1, 2):
            hand = state.side(seat).hand
            assert _holds_short(seat, hand, facts) == any(facts[card].short for card in hand), (env.seq, seat)


def test_what_a_skill_does_to_the_unit_it_aims_at_is_read_off_its_ops():
    """``targets.options`` keeps, per printed skill, whether it moves or takes control of its
    target: for every skill of the catalog, read twice, it must be what its ops say."""
    for d in catalog().values():
        for skill in d.skill:
            kinds = {op.op for op in skill.ops}
            for _ in range(2):
                assert _unit_aim(skill) == ("move" in kinds, "control" in kinds), (d.name, skill)


@settings(max_examples=300, deadline=None)
@given(towers=st.lists(st.tuples(st.integers(1, LINES), st.integers(0, 6)), max_size=LINES, unique_by=lambda t: t[0]),
       souls=st.lists(st.integers(1000, 2999), max_size=7, unique=True), cost=st.integers(-1, 12))
def test_payments_counted_and_read_by_index_equal_the_enumeration_from_scratch(towers, souls, cost):
    """The payer counts the payments without listing them (from the heights alone, in any order)
    and works out the first one read alone: the count and every index must match the listing."""
    towers.sort()
    ready, heights = tuple(t for t, _ in towers), tuple(h for _, h in towers)
    expected = list(_payments_from_scratch(ready, heights, tuple(souls), cost))

    def fresh() -> Any:
        return _ByCost(ready, heights, tuple(souls))[cost]

    assert len(fresh()) == len(expected)
    assert [fresh()[i] for i in range(len(expected))] == expected          # each worked out alone
    assert [fresh()[-i] for i in range(1, len(expected) + 1)] == expected[::-1]
    paid = fresh()
    assert [paid[i] for i in range(len(expected))] == expected              # then listed
    assert list(fresh()) == expected
    with pytest.raises(IndexError):
        fresh()[len(expected)]
    for soul in souls:      # a heart's extra soul set aside: the payments that leave it, in order
        assert list(_ByCost(ready, heights, tuple(souls)).without(soul)(cost)) == \
            [(paid, used) for paid, used in expected if soul not in used]


# -- (5) state and events survive encoding ---------------------------------------------------------------
@game
@given(seed=seeds, decks=deck_pairs)
def test_encoding_and_decoding_state_and_events_changes_nothing(seed, decks):
    match = played(seed, decks)
    state_decoder = msgspec.json.Decoder(State)
    envelope_decoder = RULESET.envelope_decoder()
    for env, state in states(match):
        assert state_decoder.decode(canonical(state)) == state, env.seq
        assert envelope_decoder.decode(canonical(env)) == env


# -- (6) re-running the decisions reproduces the record -------------------------------------------------
@game
@given(seed=seeds, decks=deck_pairs)
def test_rerunning_the_decisions_reproduces_the_record_bit_for_bit(seed, decks):
    match = played(seed, decks)
    result = audit(RULESET, match.header, match.envelopes)
    assert result.clean, result.divergence
    assert result.events == match.seq
    header, envelopes, _ = decode_record(encode_record(match.header, match.envelopes))
    assert first_broken_link(header, envelopes) is None
    assert envelopes == match.envelopes


# -- (7) hidden information --------------------------------------------------------------------------------
# the fields that name cards (events, state parts and a view's CardRef); other numbers count events,
# lines, life and so on, and may well be ≥ 1000 in a long match
_CARD_FIELDS = frozenset({"card", "cards", "order", "hearts", "souls", "soul", "heart_soul", "targets", "options",
                          "source", "target", "attacker_card", "defender_card", "other"})


def _card_ids(obj: Any) -> set[int]:
    """Every card id (seat * 1000 + index) that ``obj`` names, however deep."""
    out: set[int] = set()
    stack: list[tuple[Any, bool]] = [(msgspec.to_builtins(obj), False)]
    while stack:
        x, naming = stack.pop()
        if isinstance(x, dict):
            card_ref = set(x) == {"id", "name"}
            stack.extend((v, card_ref or k in _CARD_FIELDS or isinstance(v, (dict, list, tuple)) and naming)
                         for k, v in x.items())
        elif isinstance(x, (list, tuple)):
            stack.extend((v, naming) for v in x)
        elif naming and isinstance(x, int) and not isinstance(x, bool) and x >= 1000:
            out.add(x)
    return out


_CARD_REF = re.compile(rb'"id":(\d+),"name":')


def _visible(v: Any) -> set[int]:
    """The card ids a view shows: its CardRefs (read off the encoding: views are big) and any card
    its other parts name."""
    refs = {int(n) for n in _CARD_REF.findall(msgspec.json.encode(v))}
    return refs | _card_ids(msgspec.structs.replace(v, sides=()))


def _secret_from(state: State, seat: int) -> set[int]:
    """Cards ``seat`` may not identify: the opponent's hand and deck, and every face-down heart."""
    theirs = state.side(3 - seat)
    face_down = {h.card for side in state.sides for h in side.hearts if not h.face_up}
    return set(theirs.hand) | set(theirs.deck) | face_down


def _by_decision(match: Match) -> Iterator[tuple[State, list[Envelope[Any]], State]]:
    """The envelopes of each decision (the setup counts as one), with the states before and after them."""
    group: list[Envelope[Any]] = []
    before = last = RULESET.decider.initial_state(match.header)
    for env, state in states(match):
        if env.kind == "decision" and group:
            yield before, group, last
            before, group = last, []
        group.append(env)
        last = state
    yield before, group, last


@game
@given(seed=seeds, decks=deck_pairs)
def test_a_seats_view_and_events_hide_what_it_may_not_see(seed, decks):
    match = played(seed, decks)
    for before, group, state in _by_decision(match):
        # a card hidden from a seat before the decision and still hidden after it: never shown to it
        hidden = {seat: _secret_from(before, seat) & _secret_from(state, seat) for seat in (1, 2)}
        for env in group:
            assert redact(env, None) == env
            for seat in (1, 2):
                seen = redact(env, seat).event
                leaked = _card_ids(seen) & hidden[seat]
                assert not leaked, (env.seq, seat, seen)
                match seen:
                    case ev.DeckShuffled(order=order):
                        assert set(order) == {HIDDEN}
                    case ev.HeartsSet(hearts=hearts):
                        assert set(hearts[1:]) == {HIDDEN} and hearts[0] != HIDDEN
                    case ev.CardDrawn(seat=owner, card=card):
                        assert (card == HIDDEN) == (owner != seat)
                    case ev.CardsDrawn(seat=owner, cards=cards) | ev.HandReturned(seat=owner, cards=cards):
                        assert (set(cards) == {HIDDEN}) == (owner != seat)
        for seat in (1, 2):
            v = view(state, seat)
            visible = _visible(v)
            assert not visible & _secret_from(state, seat), group[0].seq
            assert not visible & set(state.side(seat).deck)        # no deck order, not even one's own
            assert set(state.side(seat).hand) <= visible
            assert v.sides[0].deck is None and v.sides[1].deck is None
        assert _visible(view(state, None)) == {card for _, _, card in _zones(state)}


def test_W_1_3_rules_run_by_themselves_until_a_player_must_decide() -> None:
    """W-1.3: every effect and rule step is applied automatically. After each decision nothing
    automatic is left pending: no queued trigger, no closed window, no combat at an automatic
    step, no start phase — and the awaited seat always has a legal decision."""
    from kifu.domain.core.ruleset import find_ruleset
    from kifu.domain.worlfard.bots import RandomBot
    from kifu.domain.worlfard.decks import preset

    rules = find_ruleset("worlfard")
    for seed in (3, 4):
        match = Match.create(rules, match_id=f"w13-{seed}", seed=seed,
                             decks=[preset("dawn-dusk"), preset("four-winds")], players=("a", "b"))
        bots = {1: RandomBot(seed), 2: RandomBot(seed + 100)}
        while match.outcome is None:
            state = match.state
            assert not state.queue and state.phase != "start"
            assert state.window is None or (state.window.passes < 2 and not state.window.resolving)
            assert state.combat is None or state.combat.step in ("target", "defend", "react1", "react2")
            seat = match.deciding
            legal = match.legal(seat)
            assert legal, f"seat {seat} is awaited with nothing to decide at seq {match.seq}"
            match.submit(seat, bots[seat].choose(Seen(seat, legal)))
