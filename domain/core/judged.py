"""A judge's act written on a match: checked, folded, chained. Pure (the time comes in as an input).

``act`` is to a judge's act what ``Match.decide`` is to a seat's decision: it changes nothing and
returns the envelopes (kind ``judge``, chained to the record, the state digest on the last) and
the state after them; the store saves them and then the match ``accept``s them. The same function
re-runs a recorded act in the audit (``rerun``), so a backup's reshuffle and a result's end are
recomputed from the record, the seed and today's engine, never taken on trust.
"""
from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .clauses import implements
from .commit import SEED_CLAUSE, SeedRevealed
from .draft import seal as stamp_digest
from .envelope import JUDGE, RULE, Envelope, link
from .errors import MatchOver
from .header import Header
from .judgefold import judge_cases
from .judging import (
    CLAUSE_OF,
    JudgeBackup,
    JudgeCall,
    JudgePenalty,
    JudgeResult,
    JudgeRuling,
    PenaltyList,
    Refused,
    TimeExtension,
    cause_of,
    checked_penalty,
    concerns,
    refuse_backup,
    refuse_call,
    refuse_clause,
    refuse_seat,
    refuse_seq,
    signed_bytes,
)
from .match import Match, state_digest_for
from .signing import Signer


# -- signatures -----------------------------------------------------------------------------------
def sign(match_id: str, event: Any, signer: Signer) -> Any:
    """``event`` signed by the judge's key (name, public key and signature in the event)."""
    event = msgspec.structs.replace(event, signer=signer.name, key=signer.public, signature=None)
    signature = base64.b64encode(signer.key.sign(signed_bytes(match_id, event))).decode()
    return msgspec.structs.replace(event, signature=signature)


def bad_signature(match_id: str, event: Any) -> str | None:
    """Why a signed act's signature does not verify (None when it does, or the act is unsigned)."""
    signature = getattr(event, "signature", None)
    if signature is None:
        return None
    try:
        public = Ed25519PublicKey.from_public_bytes(base64.b64decode(event.key or "", validate=True))
        public.verify(base64.b64decode(signature, validate=True), signed_bytes(match_id, event))
    except (InvalidSignature, ValueError, TypeError):
        return (f"judge {event.judge!r}'s signature (key {event.key or '?'}) does not verify: the act was "
                "changed after signing, or signed for another match")
    return None


@implements("K-call", "K-ruling", "K-penalty", "K-extension", "K-result")
def first_bad_act(header: Header, envelopes: Sequence[Envelope[Any]]) -> tuple[int, str] | None:
    """The first judge event whose signature does not verify, or that cites what it may not (seq, why)."""
    for env in envelopes:
        if env.kind != JUDGE:
            continue
        why = bad_signature(header.match_id, env.event)
        if why is not None:
            return env.seq, why
        own = CLAUSE_OF.get(type(env.event))
        if own is None:
            return env.seq, f"a judge event holds {type(env.event).__name__}, which is no judge act"
        if env.clause != own:
            return env.seq, f"a judge event cites clause {env.clause!r}, not its own ({own})"
    return None


def acts_line(envelopes: Sequence[Envelope[Any]]) -> str:
    """``verify``'s count of a record's judge acts ("" for none): ", 4 judge acts (1 signed)"."""
    acts = [env.event for env in envelopes if env.kind == JUDGE]
    if not acts:
        return ""
    signed = sum(1 for event in acts if getattr(event, "signature", None) is not None)
    return f", {len(acts)} judge act{'s' if len(acts) != 1 else ''}" + (f" ({signed} signed)" if signed else "")


# -- the act --------------------------------------------------------------------------------------
def act(match: Match, event: Any, *, time: str | None = None, signer: Signer | None = None,
        penalties: PenaltyList | None = None) -> tuple[list[Envelope[Any]], Any]:
    """The envelopes a judge's ``event`` adds to ``match`` (chained, digested) and the state after.

    Refused (``Refused``, naming what was wrong) when the act cites what the record does not hold;
    ``MatchOver`` once the match is over. ``time``: when it was recorded (the caller's clock);
    ``signer``: the judge's key; ``penalties``: the list a penalty must come from (None: not
    checked, as when an audit re-runs a recorded act). Changes nothing."""
    outcome = match.outcome
    if outcome is not None:
        raise MatchOver(match.header.match_id, outcome.describe())
    if not getattr(event, "judge", "").strip():
        raise Refused(_verb(event), "no judge named: give the judge's name")
    if time is not None:
        event = msgspec.structs.replace(event, time=time)
    ruleset, envelopes = match.ruleset, match.envelopes
    seq = len(envelopes) + 1
    event = _checked(match, event, seq, penalties)
    if signer is not None:
        event = sign(match.header.match_id, event, signer)
    else:
        why = bad_signature(match.header.match_id, event)
        if why is not None:
            raise Refused(_verb(event), why)
    state = judge_cases(ruleset)[type(event)](match.state, event)
    made = [Envelope(seq, JUDGE, event, concerns(event), CLAUSE_OF[type(event)], cause_of(event))]
    if isinstance(event, JudgeResult) and match.header.seed_nonce is not None:
        made.append(Envelope(seq + 1, RULE, SeedRevealed(seed=match.header.seed, nonce=match.header.seed_nonce),
                             None, SEED_CLAUSE, seq))
    made = stamp_digest(made, state_digest_for(match.ruleset, match.header.format, state))
    head, chained = match.head, []
    for env in made:
        head = link(head, env, match.header.format)
        chained.append(msgspec.structs.replace(env, chain=head))
    return chained, state


def rerun(match: Match, recorded: Envelope[Any]) -> tuple[list[Envelope[Any]], Any]:
    """A recorded act re-run on ``match`` (the audit): its signature checked, a backup's state and
    reshuffle recomputed, the penalty taken as recorded."""
    return act(match, recorded.event)


_VERBS: dict[type, str] = {JudgeCall: "call", JudgeRuling: "ruling", JudgeBackup: "backup",
                           JudgePenalty: "penalty", TimeExtension: "extension", JudgeResult: "result"}


def _verb(event: Any) -> str:
    kind: type = type(event)
    return _VERBS.get(kind, "judge act")


def _checked(match: Match, event: Any, seq: int, penalties: PenaltyList | None) -> Any:
    envelopes = match.envelopes
    if isinstance(event, JudgeCall):
        refuse_seat("call", event.seat)
        refuse_seq("call", event.at, envelopes)
        if not event.question.strip():
            raise Refused("call", "no question: say what the judge was called about")
    elif isinstance(event, JudgeRuling):
        refuse_call(envelopes, event.call)
        refuse_clause(match.ruleset, event.clause)
    elif isinstance(event, JudgeBackup):
        return _backed_up(match, event, seq)
    elif isinstance(event, JudgePenalty):
        refuse_seat("penalty", event.seat)
        if penalties is not None:
            spelt = checked_penalty(event, penalties)
            if event.signature is not None and spelt != event:    # renaming would break the judge's signature
                raise Refused("penalty", f"a signed penalty spells its infraction and penalty as the list does: "
                                         f"{spelt.infraction!r}, {spelt.penalty!r}")
            event = spelt
    elif isinstance(event, TimeExtension):
        refuse_seat("extension", event.seat)
        if event.minutes <= 0:
            raise Refused("extension", f"{event.minutes} minutes: an extension is a whole number of minutes over 0")
    elif isinstance(event, JudgeResult):
        if event.result == "game loss":
            if event.seat is None:
                raise Refused("result", "a game loss needs the seat that loses (--seat)")
            refuse_seat("result", event.seat)
        elif event.seat is not None:
            raise Refused("result", "a draw is no seat's: give no seat")
        if not event.reason.strip():
            raise Refused("result", "no reason: say why the judge ends the match")
        if match.ruleset.judging.ender(match.ruleset.decider.state_type) is None:
            raise Refused("result", f"{match.ruleset.name} does not say how a judge's result ends its state")
    else:
        raise Refused("judge act", f"{type(event).__name__} is no judge act")
    return event


@implements("K-backup")
def _backed_up(match: Match, event: JudgeBackup[Any], seq: int) -> JudgeBackup[Any]:
    """The backup with the state it goes back to: the state before ``to``, and, where the game
    hides information, its random part reshuffled with the randomness of the backup's own seq."""
    ruleset, envelopes = match.ruleset, match.envelopes
    refuse_backup(ruleset, envelopes, event.to)
    state = Match.fold(ruleset, match.header, envelopes[:event.to - 1]).state
    reshuffle = ruleset.judging.reshuffle
    hidden = ruleset.visibility.mask is not None and reshuffle is not None
    if hidden and reshuffle is not None:
        state = reshuffle(state, match.draws(seq))
    return JudgeBackup(judge=event.judge, to=event.to, state=state, reason=event.reason, reshuffled=hidden,
                       time=event.time, signer=event.signer, key=event.key, signature=event.signature)
