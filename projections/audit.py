"""Re-adjudication: re-run a record's decisions through today's engine and find the first change.

The setup is re-run from the recorded header (seed, decks), then each recorded decision is
turned back into its command and decided again; every produced event is compared with the
recorded one (event, kind, seat, clause, cause, state digest, chain). A judge's act is re-run
too (``kifu.domain.core.judged.rerun``): its signature checked, a backup's state folded again
from the record and reshuffled with the seed's randomness at its seq, a result's end applied.
"""
from __future__ import annotations

from typing import Any

import msgspec

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import KifuError
from kifu.domain.core.header import Header
from kifu.domain.core.judged import first_bad_act, rerun
from kifu.domain.core.match import Match, command_of
from kifu.domain.core.record import first_broken_seal
from kifu.domain.core.ruleset import Ruleset


class Divergence(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    reason: str
    clause: str | None = None
    recorded: Any = None
    produced: Any = None


class AuditResult(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    events: int
    decisions: int
    divergence: Divergence | None = None
    notes: tuple[str, ...] = ()

    @property
    def clean(self) -> bool:
        return self.divergence is None


def _fields(env: Envelope[Any]) -> dict[str, Any]:
    fields: dict[str, Any] = msgspec.to_builtins(env)
    return fields


def _compare(recorded: Envelope[Any], produced: Envelope[Any]) -> Divergence | None:
    if recorded == produced:   # equal structs have equal fields: skip building both dicts
        return None
    a, b = _fields(recorded), _fields(produced)
    if a == b:
        return None
    differing = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    what = ", ".join(differing)
    if differing == ["chain"]:
        reason = "the chain hash differs: the record was edited (its content no longer hashes to its link)"
    elif recorded.chain and recorded.chain == produced.chain:
        reason = (f"the record was edited here: its {what} no longer hash to its chain link, "
                  "which is the link of what today's engine produces")
    else:
        reason = f"today's engine produces a different event ({what} differ)"
    return Divergence(seq=recorded.seq, reason=reason, clause=recorded.clause or produced.clause,
                      recorded=a, produced=b)


def audit(ruleset: Ruleset[Any, Any, Any], header: Header, recorded: list[Envelope[Any]]) -> AuditResult:
    notes = []
    if header.rules_version != ruleset.rules_version:
        notes.append(f"recorded under rules {header.rules_version}, re-adjudicated under {ruleset.rules_version}")
    if header.card_set != ruleset.content.card_set_digest():
        notes.append("the card data changed since this record was made")
    decisions = sum(1 for e in recorded if e.kind == "decision")

    def result(div: Divergence | None) -> AuditResult:
        return AuditResult(match_id=header.match_id, events=len(recorded), decisions=decisions,
                           divergence=div, notes=tuple(notes))

    broken = first_broken_seal(header, recorded) or first_bad_act(header, recorded)
    if broken is not None:
        seq, why = broken
        env = recorded[seq - 1]
        return result(Divergence(seq=seq, reason=why, clause=env.clause, recorded=_fields(env)))
    try:
        match = Match.start(ruleset, header)
    except KifuError as exc:
        return result(Divergence(seq=1, reason=f"today's engine cannot set this match up: {exc}"))
    produced = list(match.envelopes)
    position = 0
    while True:
        for env in produced:
            if position >= len(recorded):
                return result(Divergence(seq=env.seq, reason="today's engine produces an event the record lacks",
                                         clause=env.clause, produced=_fields(env)))
            div = _compare(recorded[position], env)
            if div is not None:
                return result(div)
            position += 1
        if position >= len(recorded):
            return result(None)
        decision = recorded[position]
        if decision.kind == "judge":
            try:
                produced, state = rerun(match, decision)
            except KifuError as exc:
                return result(Divergence(seq=decision.seq, reason=f"today's engine refuses this judge's act: {exc}",
                                         clause=decision.clause, recorded=_fields(decision)))
            match.accept(produced, state)
            continue
        if decision.kind != "decision":
            return result(Divergence(seq=decision.seq, reason="the record has an event today's engine does not produce",
                                     clause=decision.clause, recorded=_fields(decision)))
        command = command_of(ruleset, decision.event)
        if command is None or decision.seat is None:
            return result(Divergence(seq=decision.seq, reason="this decision event names no command to re-run",
                                     clause=decision.clause, recorded=_fields(decision)))
        try:
            # the recorded time, and who took it: inputs, as the command is
            produced = match.submit(decision.seat, command, received=decision.received, by=decision.by)
        except KifuError as exc:
            return result(Divergence(seq=decision.seq, reason=f"today's engine rejects this decision: {exc}",
                                     clause=getattr(exc, "clause", decision.clause), recorded=_fields(decision)))
