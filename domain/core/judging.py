"""Judge events: what a judge records in a match's own stream. Pure: no clock, no I/O.

A judge's act is an envelope of kind ``judge`` (``envelope.JUDGE``) holding one of six payloads,
each with the judge's name, the time it was recorded (stamped by whoever stores it, as a
decision's ``received`` is) and an optional Ed25519 signature by the judge's key:

- ``JudgeCall``: a seat called a judge about the event at ``at`` with a ``question``;
- ``JudgeRuling``: the answer to a call (``call``: its seq): the clause it applies, the text, and
  whether the decision stands (``upheld``) or was ``changed``;
- ``JudgeBackup``: the match goes back to the state before the decision at ``to`` and continues
  from there in the same stream. What became known to one player only after that point is
  returned to the random part (each seat's deck reshuffled: MTG's IPG backup) with randomness
  drawn from the committed seed at the backup's own seq, so anyone can recompute it once the
  seed is revealed. The event holds the whole state the match continues from (the judge's copy;
  a seat is shown its own mask of it, never the new order). Refused with the reason where the
  ruleset has hidden information but no reshuffle hook, and where a sealed choice is open or was
  revealed across the backup point;
- ``JudgePenalty``: a seat, an infraction and a penalty from a configurable list (``PenaltyList``;
  MTG's IPG by default);
- ``TimeExtension``: minutes added to a seat's time;
- ``JudgeResult``: the judge ends the match (a game loss for a seat, or a draw) with a reason;
  the ruleset's ``Judging.end`` hook writes the result into its state.

Only ``JudgeBackup`` and ``JudgeResult`` change the state (``judge_folds``); the others are the
record of what the judge did. The checks here read the record (``refuse_*`` raise ``Refused``
naming what was wrong); ``kifu.domain.core.judged`` writes the envelopes on a ``Match``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Literal, TypeVar

import msgspec

from .clauses import implements
from .commit import ChoiceRevealed, ChoiceSealed
from .envelope import Envelope, canonical
from .errors import Illegal, Malformed
from .roles import Amount, SeatNo, SeqRef

S = TypeVar("S")

CALL_CLAUSE = "K-call"
RULING_CLAUSE = "K-ruling"
BACKUP_CLAUSE = "K-backup"
PENALTY_CLAUSE = "K-penalty"
EXTEND_CLAUSE = "K-extension"
RESULT_CLAUSE = "K-result"

JUDGE_CLAUSES = {
    CALL_CLAUSE: ("Judge call", "A seat calls a judge about an event of the match; the call is recorded with "
                  "the seq it concerns and the question asked."),
    RULING_CLAUSE: ("Judge ruling", "A judge answers a call citing a clause of the rules: the decision stands "
                    "(upheld) or is changed."),
    BACKUP_CLAUSE: ("Judge backup", "A judge backs the match up to the state before an earlier decision; what "
                    "became known to one player only is returned to the random part (the decks are reshuffled "
                    "with randomness drawn from the committed seed at the backup's seq), and the match goes on "
                    "from there in the same record."),
    PENALTY_CLAUSE: ("Penalty", "A judge gives a seat a penalty for an infraction, both from the event's "
                     "penalty list."),
    EXTEND_CLAUSE: ("Time extension", "A judge gives a seat extra minutes."),
    RESULT_CLAUSE: ("Judge result", "A judge ends the match: a game loss for a seat, or a draw, with the reason."),
}


class Refused(Illegal):
    """A judge's act the record cannot take (a backup across a seal, an unknown clause, a bad seat):
    like an illegal decision (HTTP 422, exit 3), it names the clause of the act refused."""

    def __init__(self, what: str, reason: str) -> None:
        self.what = what
        self.clause = _CLAUSE_OF_VERB.get(what, "K-call")
        self.reason = reason
        Exception.__init__(self, f"{what} refused ({self.clause}): {reason}")


_CLAUSE_OF_VERB = {"call": CALL_CLAUSE, "ruling": RULING_CLAUSE, "backup": BACKUP_CLAUSE,
                   "penalty": PENALTY_CLAUSE, "extension": EXTEND_CLAUSE, "result": RESULT_CLAUSE}


# -- the payloads ---------------------------------------------------------------------------------
class JudgeCall(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True):
    judge: str
    seat: SeatNo                      # who called
    at: SeqRef                        # the event the call is about
    question: str
    time: str | None = None           # when it was recorded (ISO 8601 UTC): stamped outside the rules
    signer: str | None = None         # the judge's key: name, public key (base64), signature (base64)
    key: str | None = None
    signature: str | None = None


class JudgeRuling(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True):
    judge: str
    call: SeqRef                      # the call it answers
    clause: str                       # a clause id of the ruleset's rules reference
    text: str
    decision: Literal["upheld", "changed"]
    time: str | None = None
    signer: str | None = None
    key: str | None = None
    signature: str | None = None


class JudgeBackup(msgspec.Struct, Generic[S], frozen=True, tag=True, omit_defaults=True, kw_only=True):
    judge: str
    to: SeqRef                        # the decision taken again: the match goes on from the state before it
    state: S | None = None            # that state, decks reshuffled (judge only: a seat sees its mask); the
    #                                   engine fills it in (``judged.act``), never the judge
    reason: str = ""
    reshuffled: bool = False          # the random part was reshuffled (the ruleset has hidden information)
    time: str | None = None
    signer: str | None = None
    key: str | None = None
    signature: str | None = None


class JudgePenalty(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True):
    judge: str
    seat: SeatNo
    infraction: str
    penalty: str
    note: str = ""
    time: str | None = None
    signer: str | None = None
    key: str | None = None
    signature: str | None = None


class TimeExtension(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True):
    judge: str
    seat: SeatNo
    minutes: Amount
    reason: str = ""
    time: str | None = None
    signer: str | None = None
    key: str | None = None
    signature: str | None = None


class JudgeResult(msgspec.Struct, frozen=True, tag=True, omit_defaults=True, kw_only=True):
    judge: str
    result: Literal["game loss", "draw"]
    reason: str
    seat: SeatNo | None = None        # the seat that loses (a game loss); None for a draw
    time: str | None = None
    signer: str | None = None
    key: str | None = None
    signature: str | None = None


JUDGE_EVENTS = (JudgeCall, JudgeRuling, JudgeBackup, JudgePenalty, TimeExtension, JudgeResult)
JudgeEvent = JudgeCall | JudgeRuling | JudgeBackup[Any] | JudgePenalty | TimeExtension | JudgeResult

def judge_event_types(state_type: Any) -> tuple[Any, ...]:
    """The judge events as a record of ``state_type`` decodes them (a backup holds a whole state)."""
    generic: Any = JudgeBackup
    return tuple(generic[state_type] if e is JudgeBackup else e for e in JUDGE_EVENTS)


CLAUSE_OF: dict[type, str] = {JudgeCall: CALL_CLAUSE, JudgeRuling: RULING_CLAUSE, JudgeBackup: BACKUP_CLAUSE,
                              JudgePenalty: PENALTY_CLAUSE, TimeExtension: EXTEND_CLAUSE, JudgeResult: RESULT_CLAUSE}
ACTS = {"call": JudgeCall, "ruling": JudgeRuling, "backup": JudgeBackup, "penalty": JudgePenalty,
        "extend": TimeExtension, "result": JudgeResult}
"""The verb of each act (``kifu judge MATCH call …``, the HTTP body's ``act``)."""


_FILLED = frozenset({"time", "state", "reshuffled"})    # written by the engine or the store, never given


def act_of(verb: str, given: dict[str, Any]) -> Any:
    """The act ``verb`` (``ACTS``) made of the fields ``given`` (None values are left out):
    ``Malformed`` names a missing field, one the act does not take, or a wrong type."""
    kind = ACTS.get(verb)
    if kind is None:
        raise Malformed(f"no judge act {verb!r}; acts: {', '.join(ACTS)}", "act")
    fields = {k: v for k, v in given.items() if v is not None}
    takes = set(kind.__struct_fields__) - _FILLED
    extra = sorted(set(fields) - takes)
    if extra:
        raise Malformed(f"a {verb} takes no {', '.join(extra)} (it takes {', '.join(sorted(takes))})", verb)
    try:
        return msgspec.convert(fields, kind)
    except msgspec.ValidationError as exc:
        raise Malformed(f"not a {verb}: {exc}", verb) from None


def is_judge(event: Any) -> bool:
    return type(event) in CLAUSE_OF


def concerns(event: Any) -> int | None:
    """The seat a judge event is about (the envelope's ``seat``): the caller, the penalised or
    extended seat, the seat that loses; None for a ruling, a backup and a draw (both seats')."""
    if isinstance(event, (JudgeCall, JudgePenalty, TimeExtension, JudgeResult)):
        return event.seat
    return None


def cause_of(event: Any) -> int | None:
    """The seq a judge event answers (the envelope's ``cause``)."""
    if isinstance(event, JudgeCall):
        return event.at
    if isinstance(event, JudgeRuling):
        return event.call
    if isinstance(event, JudgeBackup):
        return event.to
    return None


# -- the configurable penalty list ----------------------------------------------------------------
class PenaltyList(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The penalties and infractions a judge may record (an event's own list, or IPG's)."""

    name: str = "ipg"
    penalties: tuple[str, ...] = ("Warning", "Game Loss", "Match Loss", "Disqualification")
    infractions: tuple[str, ...] = (
        "Missed Trigger", "Looking at Extra Cards", "Hidden Card Error", "Mulligan Procedure Error",
        "Game Rule Violation", "Failure to Maintain Game State",
        "Tardiness", "Outside Assistance", "Slow Play", "Decklist Problem", "Deck Problem",
        "Limited Procedure Violation", "Communication Policy Violation", "Marked Cards", "Insufficient Shuffling",
        "Unsporting Conduct — Minor", "Unsporting Conduct — Major", "Improperly Determining a Winner",
        "Bribery and Wagering", "Aggressive Behavior", "Theft of Tournament Material", "Stalling", "Cheating",
    )


IPG = PenaltyList()


def _named(given: str, known: Sequence[str], what: str) -> str:
    """``given`` as the list spells it (matched without case); refused when it is not on it."""
    for name in known:
        if name.casefold() == given.strip().casefold():
            return name
    raise Refused("penalty", f"{given!r} is not {what} of the penalty list; known: {', '.join(known)}")


def checked_penalty(event: JudgePenalty, penalties: PenaltyList) -> JudgePenalty:
    """The penalty with its infraction and penalty spelt as the list spells them (refused if absent)."""
    return msgspec.structs.replace(event, infraction=_named(event.infraction, penalties.infractions, "an infraction"),
                                   penalty=_named(event.penalty, penalties.penalties, "a penalty"))


# -- checks on the record -------------------------------------------------------------------------
def refuse_seat(what: str, seat: int | None) -> None:
    if seat is not None and seat not in (1, 2):
        raise Refused(what, f"seat {seat} is no seat of the match (seats are 1 and 2)")


def refuse_seq(what: str, seq: int, envelopes: Sequence[Envelope[Any]]) -> None:
    if not 1 <= seq <= len(envelopes):
        raise Malformed(f"seq {seq} is not in the record (it has seq 1 to {len(envelopes)})", what)


def last_backup(envelopes: Sequence[Envelope[Any]]) -> int:
    """The seq of the last backup in the record (0 for none): earlier decisions were undone."""
    for env in reversed(envelopes):
        if type(env.event) is JudgeBackup:
            seq: int = env.seq
            return seq
    return 0


def open_seals(envelopes: Sequence[Envelope[Any]]) -> dict[int, int]:
    """seat -> seq of each sealed choice not yet revealed after ``envelopes`` (a backup's own state
    counts as having none: it is refused while any is open)."""
    opened: dict[int, int] = {}
    for env in envelopes:
        event = env.event
        if isinstance(event, ChoiceSealed):
            opened[event.seat] = env.seq
        elif isinstance(event, ChoiceRevealed):
            opened.pop(event.seat, None)
        elif type(event) is JudgeBackup:
            opened.clear()
    return opened


@implements("K-backup")
def refuse_backup(ruleset: Any, envelopes: Sequence[Envelope[Any]], to: int) -> None:
    """Why a backup to ``to`` cannot be honoured, raised as ``Refused``; None when it can.

    ``to`` must be a decision of the line the match is on (not one an earlier backup undid), no
    sealed choice may be open now, none may be open at the backup point (its reveal would be
    undone after both seats saw it), and a ruleset with hidden information needs a reshuffle hook."""
    what = "backup"
    refuse_seq(what, to, envelopes)
    env = envelopes[to - 1]
    if env.kind != "decision":
        raise Refused(what, f"seq {to} is not a decision point (it is a {env.kind} event, "
                            f"{type(env.event).__name__}); back up to the seq of a decision")
    undone = last_backup(envelopes)
    if to <= undone:
        raise Refused(what, f"the decision at seq {to} was undone by the backup at seq {undone}; "
                            "back up to a decision after it")
    now = open_seals(envelopes)
    if now:
        seat, seq = min(now.items())
        raise Refused(what, f"seat {seat}'s sealed choice at seq {seq} is still open: a backup would discard "
                            "a secret choice; back up once it is revealed")
    before = open_seals(envelopes[:to - 1])
    if before:
        seat, seq = min(before.items())
        raise Refused(what, f"seat {seat}'s sealed choice at seq {seq} was revealed after seq {to}: both seats "
                            "saw it, and a backup across the reveal cannot make it secret again")
    if ruleset.visibility.mask is not None and ruleset.judging.reshuffle is None:
        raise Refused(what, f"{ruleset.name} has hidden information but no reshuffle hook: what one seat saw "
                            "after the backup point cannot be returned to the random part")


def refuse_clause(ruleset: Any, clause: str) -> None:
    known = ruleset.content.clauses()
    if clause not in known:
        raise Refused("ruling", f"unknown clause id {clause!r} (not in the {ruleset.name} rules reference: "
                                "kifu rules " + ruleset.name + ")")


def refuse_call(envelopes: Sequence[Envelope[Any]], call: int) -> None:
    refuse_seq("ruling", call, envelopes)
    if type(envelopes[call - 1].event) is not JudgeCall:
        raise Refused("ruling", f"seq {call} is not a judge call (a ruling answers a call)")


# -- the fold -------------------------------------------------------------------------------------
def judge_folds(end: Callable[[Any, Any], Any],
                outcome: Callable[[JudgeResult], Any]) -> dict[type, Callable[[Any, Any], Any]]:
    """The judge events' folds: a backup replaces the state, a result ends it (``end``, the
    ruleset's hook, given ``outcome(event)``), every other act leaves it as it was."""
    def unchanged(state: Any, event: Any) -> Any:
        return state

    def backed_up(state: Any, event: Any) -> Any:
        return event.state

    def ended(state: Any, event: Any) -> Any:
        return end(state, outcome(event))

    return {JudgeCall: unchanged, JudgeRuling: unchanged, JudgePenalty: unchanged, TimeExtension: unchanged,
            JudgeBackup: backed_up, JudgeResult: ended}


def termination(event: JudgeResult) -> str:
    """How the outcome names a judge's result: "judge: game loss for seat 2: slow play", "judge: time"."""
    lost = f"game loss for seat {event.seat}: " if event.result == "game loss" else ""
    return f"judge: {lost}{event.reason}"


# -- signatures -----------------------------------------------------------------------------------
def signed_bytes(match_id: str, event: Any) -> bytes:
    """What a judge signs: the match id and the act's canonical JSON without its signature, its time
    (stamped by whoever stores it, after the judge signed) and a backup's state (worked out by the
    engine from the record and the seed: the audit recomputes it). The chain covers all three."""
    unsigned = msgspec.structs.replace(event, signature=None, time=None)
    if isinstance(unsigned, JudgeBackup):
        unsigned = msgspec.structs.replace(unsigned, state=None)
    return b"kifu-judge\0" + match_id.encode() + b"\0" + canonical(unsigned)


def unsigned(event: Any) -> bool:
    return getattr(event, "signature", None) is None


# -- words ----------------------------------------------------------------------------------------
def words(event: Any) -> str:
    """One line of plain words for a judge event (the stepper, replay, why)."""
    by = f"judge {event.judge}"
    if isinstance(event, JudgeCall):
        return f"{by}: seat {event.seat} called about #{event.at}: {event.question}"
    if isinstance(event, JudgeRuling):
        return f"{by}: ruling on the call #{event.call} ({event.clause}): {event.decision} — {event.text}"
    if isinstance(event, JudgeBackup):
        shuffled = ", decks reshuffled" if event.reshuffled else ""
        why = f": {event.reason}" if event.reason else ""
        return f"{by}: backed up to before #{event.to}{shuffled}{why}"
    if isinstance(event, JudgePenalty):
        note = f" ({event.note})" if event.note else ""
        return f"{by}: seat {event.seat} {event.infraction} — {event.penalty}{note}"
    if isinstance(event, TimeExtension):
        return f"{by}: seat {event.seat} gets {event.minutes} more minute{'s' if event.minutes != 1 else ''}"
    if isinstance(event, JudgeResult):
        who = f"game loss for seat {event.seat}" if event.result == "game loss" else "draw"
        return f"{by}: {who}: {event.reason}"
    return f"{by}: {type(event).__name__}"
