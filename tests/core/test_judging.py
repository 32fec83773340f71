"""Judge events in the match stream (issue 27): calls, rulings, backups, penalties, extensions and
results as events of kind "judge" (K- clauses: K-call, K-ruling, K-backup, K-penalty,
K-extension, K-result), re-run by the audit, checked by verify, masked for the seats."""
from __future__ import annotations

import dataclasses
import uuid
from typing import Any

import msgspec
import pytest

from kifu.domain.core.commit import ChoiceSealed, SeedRevealed, seed_commitment
from kifu.domain.core.envelope import link
from kifu.domain.core.errors import Malformed, MatchOver
from kifu.domain.core.judged import act, first_bad_act
from kifu.domain.core.judging import (
    IPG,
    JudgeBackup,
    JudgeCall,
    JudgePenalty,
    JudgeResult,
    JudgeRuling,
    Refused,
    TimeExtension,
    act_of,
)
from kifu.domain.core.match import Match
from kifu.domain.core.record import first_broken_link
from kifu.domain.core.roles import HIDDEN
from kifu.domain.core.ruleset import Judging, find_ruleset, shuffle_decks
from kifu.domain.core.signing import new_signer
from kifu.domain.core.visibility import redacted
from kifu.projections.audit import audit

MASTERS = find_ruleset("masters")
SECRETBID = find_ruleset("secretbid")
NONCE = "00" * 16


def new_match(rules: Any = MASTERS, seed: int = 11, decisions: int = 12) -> Match:
    decks = [rules.content.load_deck(name) for name in rules.content.presets()[:2]]
    match = Match.create(rules, match_id=str(uuid.uuid4()), seed=seed, decks=decks, players=("ann", "bob"),
                         seed_commitment=seed_commitment(seed, NONCE), seed_nonce=NONCE)
    play(match, decisions)
    return match


def play(match: Match, decisions: int) -> None:
    for i in range(decisions):
        if match.outcome is not None:
            return
        seat = min(match.awaiting)
        legal = match.legal(seat)
        match.submit(seat, legal[i % len(legal)])


def record(match: Match, event: Any, **options: Any) -> list[Any]:
    envelopes, state = act(match, event, **options)
    match.accept(envelopes, state)
    return envelopes


def decisions(match: Match) -> list[int]:
    return [env.seq for env in match.envelopes if env.kind == "decision"]


def test_K_call_and_K_ruling_are_recorded_and_change_nothing() -> None:
    match = new_match()
    before, at = match.state, match.seq
    (call,) = record(match, JudgeCall(judge="hana", seat=2, at=at, question="may seat 1 pass there?"),
                     time="2026-05-01T10:00:00Z")
    assert (call.kind, call.seat, call.clause, call.cause) == ("judge", 2, "K-call", at)
    assert call.event.time == "2026-05-01T10:00:00Z" and call.digest
    (ruling,) = record(match, JudgeRuling(judge="hana", call=call.seq, clause="M-2.1", text="priority was theirs",
                                          decision="upheld"))
    assert (ruling.clause, ruling.cause) == ("K-ruling", call.seq)
    assert match.state == before and first_broken_link(match.header, match.envelopes) is None
    assert audit(MASTERS, match.header, match.envelopes).clean


def test_K_backup_goes_back_to_the_decision_with_the_decks_reshuffled_from_the_seed() -> None:
    match = new_match()
    to = decisions(match)[-3]
    seat = match.envelopes[to - 1].seat
    (backup,) = record(match, JudgeBackup(judge="hana", to=to, reason="a missed trigger"))
    at_to = Match.fold(MASTERS, match.header, match.envelopes[:to - 1]).state
    # the state before `to`, with each deck shuffled by the randomness of the backup's own seq
    assert backup.event.state == shuffle_decks(at_to, match.draws(backup.seq))
    assert backup.event.reshuffled and backup.cause == to
    assert [s.hand for s in match.state.sides] == [s.hand for s in at_to.sides]
    assert sorted(match.state.sides[0].deck) == sorted(at_to.sides[0].deck)
    assert match.awaiting == frozenset({seat})
    assert match.basis(seat) == match.seq           # a decision based on the old line is stale
    play(match, 30)                                 # the match goes on from there, in the same stream
    assert audit(MASTERS, match.header, match.envelopes).clean


def test_K_backup_edited_in_the_record_is_caught_by_the_audit() -> None:
    match = new_match()
    (backup,) = record(match, JudgeBackup(judge="hana", to=decisions(match)[-2]))
    edited = list(match.envelopes)
    sides = backup.event.state.sides
    stacked = (msgspec.structs.replace(sides[0], deck=tuple(sorted(sides[0].deck))), sides[1])
    forged = msgspec.structs.replace(backup.event, state=msgspec.structs.replace(backup.event.state, sides=stacked))
    edited[backup.seq - 1] = msgspec.structs.replace(backup, event=forged)
    edited[backup.seq - 1] = msgspec.structs.replace(edited[backup.seq - 1],
                                                     chain=link(edited[backup.seq - 2].chain, edited[backup.seq - 1]))
    result = audit(MASTERS, match.header, edited)
    assert result.divergence is not None and result.divergence.seq == backup.seq


def test_K_backup_refused_to_a_seq_that_is_no_decision_point() -> None:
    match = new_match()
    with pytest.raises(Refused, match="seq 2 is not a decision point"):
        act(match, JudgeBackup(judge="hana", to=2))
    with pytest.raises(Malformed, match="not in the record"):
        act(match, JudgeBackup(judge="hana", to=match.seq + 5))


def test_K_backup_refused_into_a_line_an_earlier_backup_undid() -> None:
    match = new_match()
    first, later = decisions(match)[-4], decisions(match)[-2]
    record(match, JudgeBackup(judge="hana", to=first))
    with pytest.raises(Refused, match=f"undone by the backup at seq {match.seq}"):
        act(match, JudgeBackup(judge="hana", to=later))


def test_K_backup_refused_where_the_ruleset_has_no_reshuffle() -> None:
    plain = dataclasses.replace(MASTERS, judging=Judging())
    match = new_match(plain)
    with pytest.raises(Refused, match="no reshuffle hook"):
        act(match, JudgeBackup(judge="hana", to=decisions(match)[-1]))
    novel = find_ruleset("novel")       # the one game without one: its deck order is the cards' order
    assert novel.judging.reshuffle is None and novel.visibility.mask is not None


def bidding(rules: Any = SECRETBID) -> Match:
    decks = [rules.content.load_deck("coins"), rules.content.load_deck("gems")]
    return Match.create(rules, match_id=str(uuid.uuid4()), seed=5, decks=decks, players=("ann", "bob"))


def test_K_backup_refused_across_a_sealed_choice() -> None:
    with_pile = dataclasses.replace(SECRETBID, judging=Judging(
        reshuffle=lambda state, rng: msgspec.structs.replace(state, pile=rng.shuffled(state.pile))))
    match = bidding(with_pile)
    match.submit(1, match.legal(1)[0])
    assert isinstance(match.envelopes[-1].event, ChoiceSealed)
    with pytest.raises(Refused, match="seat 1's sealed choice at seq .* is still open"):
        act(match, JudgeBackup(judge="hana", to=match.seq))
    match.submit(2, match.legal(2)[0])               # both sealed: revealed
    second = decisions(match)[-1]
    with pytest.raises(Refused, match="was revealed after seq"):
        act(match, JudgeBackup(judge="hana", to=second))
    # back to the first seal: nothing was revealed before it, so that one is honoured
    (backup,) = record(match, JudgeBackup(judge="hana", to=decisions(match)[0]))
    assert backup.event.reshuffled and match.awaiting == frozenset({1, 2})
    assert audit(with_pile, match.header, match.envelopes).clean


def test_K_ruling_refused_for_an_unknown_clause_id_or_no_call() -> None:
    match = new_match()
    (call,) = record(match, JudgeCall(judge="hana", seat=1, at=3, question="?"))
    with pytest.raises(Refused, match="unknown clause id 'M-99.9'"):
        act(match, JudgeRuling(judge="hana", call=call.seq, clause="M-99.9", text="x", decision="upheld"))
    with pytest.raises(Refused, match="is not a judge call"):
        act(match, JudgeRuling(judge="hana", call=3, clause="M-2.1", text="x", decision="upheld"))


def test_K_penalty_from_the_list_and_refused_for_a_bad_seat_or_unknown_penalty() -> None:
    match = new_match()
    (given,) = record(match, JudgePenalty(judge="hana", seat=2, infraction="slow play", penalty="warning"),
                      penalties=IPG)
    assert (given.event.infraction, given.event.penalty, given.seat) == ("Slow Play", "Warning", 2)
    with pytest.raises(Refused, match="seat 3 is no seat"):
        act(match, JudgePenalty(judge="hana", seat=3, infraction="Slow Play", penalty="Warning"), penalties=IPG)
    with pytest.raises(Refused, match="'Yellow Card' is not a penalty"):
        act(match, JudgePenalty(judge="hana", seat=1, infraction="Slow Play", penalty="Yellow Card"), penalties=IPG)


def test_K_extension_and_K_result_end_the_match_with_the_seed_revealed() -> None:
    match = new_match()
    record(match, TimeExtension(judge="hana", seat=1, minutes=5))
    ended = record(match, JudgeResult(judge="hana", result="game loss", seat=1, reason="slow play, upgraded"))
    assert [type(e.event) for e in ended] == [JudgeResult, SeedRevealed]
    assert match.outcome is not None and match.outcome.winner == 2 and match.outcome.clause == "K-result"
    assert match.awaiting == frozenset()
    assert audit(MASTERS, match.header, match.envelopes).clean
    with pytest.raises(MatchOver):
        act(match, JudgeCall(judge="hana", seat=1, at=1, question="?"))


def test_K_result_draw_in_a_game_that_keeps_its_end_elsewhere() -> None:
    for name in ("reigeki", "novel"):
        match = new_match(find_ruleset(name), decisions=3)
        record(match, JudgeResult(judge="hana", result="draw", reason="time"))
        assert match.outcome is not None and match.outcome.winner is None, name


def test_K_call_signed_by_the_judge_verifies_and_an_edit_is_caught() -> None:
    match = new_match()
    judge = new_signer("hana")
    (call,) = record(match, JudgeCall(judge="hana", seat=1, at=3, question="?"), signer=judge)
    assert call.event.key == judge.public and first_bad_act(match.header, match.envelopes) is None
    edited = list(match.envelopes)
    edited[call.seq - 1] = msgspec.structs.replace(call, event=msgspec.structs.replace(call.event, seat=2))
    broken = first_bad_act(match.header, edited)
    assert broken is not None and broken[0] == call.seq and "does not verify" in broken[1]


def test_K_backup_shows_each_seat_its_own_mask_never_the_new_order() -> None:
    match = new_match()
    record(match, JudgeCall(judge="hana", seat=1, at=5, question="?"))
    (backup,) = record(match, JudgeBackup(judge="hana", to=decisions(match)[-2]))
    record(match, JudgePenalty(judge="hana", seat=2, infraction="Slow Play", penalty="Warning"))
    start = MASTERS.decider.initial_state(match.header)
    for seat in (1, 2):
        seen = redacted(MASTERS, start, match.envelopes, seat)
        judged = [env for env in seen if env.kind == "judge"]
        assert [type(env.event).__name__ for env in judged] == ["JudgeCall", "JudgeBackup", "JudgePenalty"]
        shown = judged[1].event.state
        for side in shown.sides:                    # no deck order reaches a seat, its own included
            assert set(side.deck) <= {HIDDEN}
        other = shown.sides[2 - seat]
        assert set(other.hand) <= {HIDDEN}
        assert all(env.chain == "" and env.digest is None for env in judged)
    assert any(set(side.deck) - {HIDDEN} for side in backup.event.state.sides)   # the judge's copy holds it


def test_acts_from_a_verb_and_fields_refuse_what_the_act_does_not_take() -> None:
    assert act_of("extend", {"judge": "hana", "seat": 1, "minutes": 3, "at": None}) == \
        TimeExtension(judge="hana", seat=1, minutes=3)
    with pytest.raises(Malformed, match="a call takes no clause"):
        act_of("call", {"judge": "hana", "seat": 1, "at": 2, "question": "?", "clause": "M-1"})
    with pytest.raises(Malformed, match="not a ruling"):
        act_of("ruling", {"judge": "hana", "call": 2})


def test_K_ruling_in_words_for_the_viewer_and_the_terminal() -> None:
    from kifu.cli.render import describe_event
    from kifu.domain.core.record import decode_record, encode_record
    from kifu.projections.viewdata import ViewSource

    match = new_match()
    (call,) = record(match, JudgeCall(judge="hana", seat=2, at=5, question="was that a pass?"))
    record(match, JudgeRuling(judge="hana", call=call.seq, clause="M-2.1", text="it was", decision="upheld"))
    record(match, JudgeBackup(judge="hana", to=decisions(match)[-1]))
    assert describe_event(call.event) == "judge hana: seat 2 called about #5: was that a pass?"
    header, envelopes, rules = decode_record(encode_record(match.header, match.envelopes, None), "judged")
    shown = ViewSource(rules, header, envelopes, 1).events()[-3:]
    assert [e["words"].split(":")[0] for e in shown] == ["judge hana"] * 3
    assert "ruling on the call" in shown[1]["words"] and "state" not in [f[0] for f in shown[2]["fields"]]
