"""The core's sealed decisions, committed seed and prepared positions (K- clauses), and the
rules of the test ruleset that exercises them (secret bid, S- clauses, ``tests/secretbid``)."""
from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.cli.main import cli
from kifu.domain.core.commit import (
    ChoiceRevealed,
    ChoiceSealed,
    PositionPrepared,
    SeedRevealed,
    commitment,
    opens,
    seed_commitment,
)
from kifu.domain.core.driver import drive
from kifu.domain.core.envelope import link
from kifu.domain.core.errors import Conflict, Illegal, InvalidDeck
from kifu.domain.core.header import header_bytes
from kifu.domain.core.match import Match
from kifu.domain.core.record import encode_record, first_broken_link, first_broken_seal
from kifu.domain.core.ruleset import find_ruleset
from kifu.domain.core.signing import closing_mark
from kifu.domain.core.visibility import redact
from kifu.projections.audit import audit
from kifu_secretbid import Bid, BidOpened, Claim, Claimed, GameEnded, PileShuffled, PrizeDiscarded, PrizeWon

RULES = find_ruleset("secretbid")


def new_match(seed: int = 5, **extra: Any) -> Match:
    return Match.create(RULES, match_id=str(uuid.uuid4()), seed=seed,
                        decks=[RULES.content.load_deck("coins"), RULES.content.load_deck("gems")],
                        players=("ann", "bob"), **extra)


def kinds(envelopes: list[Any]) -> list[str]:
    return [type(e.event).__name__ for e in envelopes]


def bid_round(match: Match, one: int, two: int, first: int = 1) -> list[Any]:
    """Both seats bid (``first`` seals first); returns the events of the second seal."""
    bids = {1: one, 2: two}
    match.submit(first, Bid(chips=bids[first]))
    return match.submit(3 - first, Bid(chips=bids[3 - first]))


# -- the test ruleset's own rules -----------------------------------------------------------------
def test_S_2_the_pile_is_shuffled_and_its_order_hidden_from_both_seats() -> None:
    match = new_match()
    shuffled = next(e for e in match.envelopes if isinstance(e.event, PileShuffled))
    assert shuffled.clause == "S-2" and sorted(shuffled.event.order) == [1, 2, 3, 4, 5, 6]
    for seat in (1, 2):
        assert redact(RULES, shuffled, seat).event.order == (0,) * 6
        assert RULES.decider.view(match.state, seat).pile_order is None
    assert RULES.decider.view(match.state, None).pile_order is not None


def test_S_3_both_seats_bid_in_secret_and_both_bids_open_together() -> None:
    match = new_match()
    assert match.awaiting == {1, 2} and RULES.decider.sealed(match.state)
    first = match.submit(2, Bid(chips=3))
    assert kinds(first) == ["ChoiceSealed"] and match.awaiting == {1}
    second = match.submit(1, Bid(chips=1))
    assert kinds(second)[:3] == ["ChoiceSealed", "ChoiceRevealed", "ChoiceRevealed"]
    opened = [e.event for e in second if isinstance(e.event, BidOpened)]
    assert [(b.seat, b.chips) for b in opened] == [(1, 1), (2, 3)]


def test_S_4_the_higher_bid_pays_and_wins_equal_bids_discard_the_prize() -> None:
    match = new_match()
    events = bid_round(match, 2, 4)
    won = next(e for e in events if isinstance(e.event, PrizeWon))
    assert (won.clause, won.event.seat, won.event.paid) == ("S-4", 2, 4) and match.state.chips == (10, 6)
    match.submit(2, Claim())
    tie = bid_round(match, 3, 3)
    assert any(isinstance(e.event, PrizeDiscarded) and e.clause == "S-4" for e in tie)
    assert match.state.chips == (10, 6) and match.awaiting == {1, 2}


def test_S_5_claiming_twice_over_costs_a_chip_and_doubles_the_value() -> None:
    match = new_match()
    bid_round(match, 5, 0)
    prize = match.state.prize
    value = {"Copper": 1, "Silver": 2, "Gold": 3, "Ruby": 4, "Crown": 5}[match.state.name(prize)]
    claimed = match.submit(1, Claim(double=True))
    assert isinstance(claimed[0].event, Claimed) and claimed[0].clause == "S-5"
    assert match.state.score == (2 * value, 0) and match.state.chips == (4, 10)
    with pytest.raises(Illegal) as refused:
        match.decide(2, Claim())
    assert refused.value.clause in ("S-3", "S-5")


def test_S_6_the_higher_score_wins_when_the_pile_is_empty() -> None:
    match = new_match()
    while match.outcome is None:
        if match.state.step == "bid":
            bid_round(match, 1, 0)
        else:
            match.submit(match.state.winner, Claim())
    end = next(e for e in match.envelopes if isinstance(e.event, GameEnded))
    assert end.clause == "S-6" and match.outcome.winner == 1 and match.state.score[1] == 0


def test_S_1_1_a_deck_holds_one_to_five_known_prizes() -> None:
    with pytest.raises(InvalidDeck) as bad:
        RULES.content.normalize_decks([{"name": "x", "prizes": ["Pearl"]}, {"name": "y", "prizes": ["Gold"]}])
    assert bad.value.clause == "S-1.1" and "Pearl" in str(bad.value)


def test_S_1_the_random_bot_plays_every_match_to_its_end() -> None:
    for seed in range(1, 30):
        match = new_match(seed)
        drive(match, {s: RULES.content.bots["random"](seed * 2 + s) for s in (1, 2)})
        assert match.outcome is not None and match.outcome.clause == "S-6"


# -- K-seal: sealed decisions ---------------------------------------------------------------------
def test_K_seal_a_bid_is_recorded_as_a_commitment_the_other_seat_cannot_open() -> None:
    match = new_match()
    (seal,) = match.submit(1, Bid(chips=4))
    assert seal.kind == "decision" and seal.clause == "K-seal" and isinstance(seal.event, ChoiceSealed)
    # format 2: the judge's copy keeps the choice, and no salt: it is derived again at the reveal
    assert seal.event.choice is not None and seal.event.salt is None
    assert len(bytes.fromhex(match.salt(seal.seq, 1))) == 16                              # a 128-bit salt
    assert commitment(seal.event.choice, match.salt(seal.seq, 1)) == seal.event.commitment
    other = redact(RULES, seal, 2)
    assert other.event.choice is None and other.event.salt is None and other.event.commitment == seal.event.commitment
    assert not other.chain and other.digest is None
    assert redact(RULES, seal, 1).event.choice == seal.event.choice      # the chooser knows its own
    for _seat in (2, None):
        assert RULES.visibility.mask(match.state, 2).bids == ()
    layout = RULES.presentation.layout(RULES.decider.view(match.state, 2))
    assert layout.chosen == (1,) and layout.choosing == (2,)


def test_K_seal_each_seats_basis_is_its_own_so_both_land_in_either_order() -> None:
    records = []
    for first in (1, 2):
        match = new_match(seed=11)
        basis = match.seq
        bids = {1: 2, 2: 5}
        match.submit(first, Bid(chips=bids[first]), basis)
        match.submit(3 - first, Bid(chips=bids[3 - first]), basis)   # the other's seal did not move this basis
        records.append(match)
    a, b = records
    # the same match up to the order the seals came in
    assert msgspec.structs.replace(a.state, sealed=()) == msgspec.structs.replace(b.state, sealed=())
    after = [[e.event for e in m.envelopes if not isinstance(e.event, (ChoiceSealed, ChoiceRevealed))] for m in records]
    assert after[0] == after[1]
    opened = [{e.event.seat: e.event.choice for e in m.envelopes if isinstance(e.event, ChoiceRevealed)}
              for m in records]
    assert opened[0] == opened[1]     # the same choices; only the salts differ (derived at each seal's seq)


def test_K_seal_a_decision_on_a_view_that_moved_is_a_conflict() -> None:
    match = new_match()
    old = match.seq
    bid_round(match, 3, 1)
    with pytest.raises(Conflict):
        match.decide(1, Claim(), basis=old)


def test_K_seal_an_illegal_sealed_choice_is_refused_and_changes_nothing() -> None:
    match = new_match()
    before = (match.seq, match.state)
    with pytest.raises(Illegal) as refused:
        match.decide(1, Bid(chips=11))
    assert refused.value.clause == "S-3"
    assert (match.seq, match.state) == before


# -- K-reveal -------------------------------------------------------------------------------------
def test_K_reveal_every_reveal_opens_its_seal_and_its_consequences_cite_it() -> None:
    match = new_match()
    events = bid_round(match, 1, 2, first=2)
    seals = {e.event.seat: e for e in match.envelopes if isinstance(e.event, ChoiceSealed)}
    reveals = [e for e in events if isinstance(e.event, ChoiceRevealed)]
    assert [r.event.seat for r in reveals] == [1, 2]
    for r in reveals:
        assert (r.clause == "K-reveal" and r.cause == seals[r.event.seat].seq
                and opens(seals[r.event.seat].event, r.event))
    opened = [e for e in events if isinstance(e.event, BidOpened)]
    assert [o.cause for o in opened] == [r.seq for r in reveals] and all(o.kind == "rule" for o in opened)
    assert first_broken_seal(match.header, match.envelopes) is None


def _played(seed: int = 7) -> Match:
    match = new_match(seed)
    drive(match, {s: RULES.content.bots["random"](seed + s) for s in (1, 2)})
    return match


def _rechain(header: Any, envelopes: list[Any]) -> list[Any]:
    head = __import__("kifu.domain.core.envelope", fromlist=["genesis"]).genesis(header_bytes(header))
    out = []
    for env in envelopes:
        env = msgspec.structs.replace(env, chain="")
        head = link(head, env)
        out.append(msgspec.structs.replace(env, chain=head))
    return out


def test_K_reveal_an_edited_reveal_fails_verify_at_its_seq_and_audit_names_it(tmp_path: Path) -> None:
    match = _played()
    reveal = next(e for e in match.envelopes if isinstance(e.event, ChoiceRevealed))
    forged_choice = msgspec.to_builtins(Bid(chips=9))
    edited = [msgspec.structs.replace(e, event=msgspec.structs.replace(e.event, choice=forged_choice))
              if e.seq == reveal.seq else e for e in match.envelopes]
    plain = tmp_path / "edited.kifu.jsonl"
    plain.write_bytes(encode_record(match.header, edited))
    rehashed = tmp_path / "rehashed.kifu.jsonl"        # a forger who re-hashed the chain end to end
    rehashed.write_bytes(encode_record(match.header, _rechain(match.header, edited)))
    runner = CliRunner()
    out = runner.invoke(cli, ["verify", str(plain)])
    assert out.exit_code == 1 and f"seq {reveal.seq}" in out.output
    out = runner.invoke(cli, ["verify", str(rehashed)])
    assert out.exit_code == 1 and f"commitment broken at seq {reveal.seq}" in out.output
    result = audit(RULES, match.header, _rechain(match.header, edited))
    assert result.divergence is not None and result.divergence.seq == reveal.seq
    assert "does not open the commitment" in result.divergence.reason
    out = runner.invoke(cli, ["audit", str(rehashed)])
    assert out.exit_code == 1 and f"seq {reveal.seq}" in out.output


# -- K-seed ---------------------------------------------------------------------------------------
def test_K_seed_a_committed_seed_is_revealed_at_the_end_and_verified(tmp_path: Path) -> None:
    nonce = "ab" * 16
    match = new_match(seed=123, seed_commitment=seed_commitment(123, nonce), seed_nonce=nonce)
    drive(match, {s: RULES.content.bots["random"](s) for s in (1, 2)})
    last = match.envelopes[-1]
    assert isinstance(last.event, SeedRevealed) and last.clause == "K-seed" and last.event.seed == 123
    assert first_broken_seal(match.header, match.envelopes) is None
    path = tmp_path / "m.kifu.jsonl"
    path.write_bytes(encode_record(match.header, match.envelopes,
                                   closing_mark(match.header, match.envelopes, match.outcome, None)))
    assert CliRunner().invoke(cli, ["verify", str(path)]).exit_code == 0
    assert first_broken_seal(match.header, match.envelopes[:-1], finished=True) is not None   # the reveal is owed
    assert audit(RULES, match.header, match.envelopes).clean
    liar = msgspec.structs.replace(match.header, seed=124)       # a header whose seed is not the committed one
    assert first_broken_seal(liar, match.envelopes) is not None
    assert first_broken_link(match.header, match.envelopes) is None


def test_K_seed_a_seat_never_sees_the_seed_before_the_end() -> None:
    from kifu.domain.core.header import for_seat

    nonce = "cd" * 16
    match = new_match(seed=99, seed_commitment=seed_commitment(99, nonce), seed_nonce=nonce)
    shown = for_seat(match.header)
    assert shown.seed == 0 and shown.seed_nonce is None and shown.seed_commitment == match.header.seed_commitment


# -- K-prepared -----------------------------------------------------------------------------------
def test_K_prepared_a_prepared_position_is_shown_to_a_seat_only_as_its_mask() -> None:
    origin = new_match()
    bid_round(origin, 1, 0)
    origin.submit(1, Claim())
    fork = Match.create(RULES, match_id="fork", seed=5, decks=list(origin.header.decks), players=("a", "b"),
                        start=origin.state)
    prepared = fork.envelopes[0]
    assert isinstance(prepared.event, PositionPrepared) and prepared.clause == "K-prepared"
    assert prepared.event.state.pile == origin.state.pile
    for seat in (1, 2):
        seen = redact(RULES, prepared, seat).event.state
        assert seen.pile == (0,) * len(origin.state.pile) and seen.chips == origin.state.chips


# -- property: a seat learns nothing of the other's pending choice --------------------------------
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), bots=st.integers(0, 2**16), order=st.lists(st.booleans(), min_size=12, max_size=12))
def test_K_seal_no_seat_payload_holds_the_other_seats_pending_choice(seed: int, bots: int, order: list[bool]) -> None:
    match = new_match(seed)
    players = {s: RULES.content.bots["random"](bots + s) for s in (1, 2)}
    turn = 0
    while match.outcome is None:
        awaited = sorted(match.awaiting)
        if len(awaited) == 2 and order[turn % len(order)]:
            awaited.reverse()
        turn += 1
        seat = awaited[0]
        from kifu.domain.core.driver import seen_by

        envelopes = match.submit(seat, players[seat].choose(seen_by(match, seat)))
        pending = {e.event.seat: e.event for e in envelopes if isinstance(e.event, ChoiceSealed)}
        if not pending or any(isinstance(e.event, ChoiceRevealed) for e in envelopes):
            continue
        chooser, sealed = next(iter(pending.items()))
        other = 3 - chooser
        for env in match.envelopes:
            shown = redact(RULES, env, other)
            if isinstance(shown.event, ChoiceSealed) and shown.event.seat == chooser and env.seq > match.seq - 1:
                assert shown.event.choice is None and shown.event.salt is None
            assert not shown.chain and shown.digest is None
        view = RULES.decider.view(match.state, other)
        seen = json.dumps(msgspec.to_builtins([view, RULES.presentation.layout(view),
                                               RULES.visibility.mask(match.state, other)]))
        salt = match.salt(next(e.seq for e in envelopes if e.event is sealed), chooser)
        assert salt not in seen and sealed.commitment not in seen and sealed.salt is None
        assert RULES.visibility.mask(match.state, other).bids == () and view.bids is None
    assert audit(RULES, match.header, match.envelopes).clean
