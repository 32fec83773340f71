"""Re-recording on purpose: a record's decisions re-run through today's engine after an intended
rules change, keeping its header (match id, seed, decks, players, start) but the versions.

Nothing is rewritten silently: the result says what changed (versions, the first changed event,
events added/removed/changed, the outcome). A decision today's engine refuses is reported and the
record is left as it is: its decisions no longer make a match, and a person must decide.
"""
from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any, Literal

import msgspec

from kifu.domain.core.envelope import Envelope, canonical
from kifu.domain.core.errors import KifuError
from kifu.domain.core.header import Header
from kifu.domain.core.match import Match, command_of
from kifu.domain.core.record import first_broken_link
from kifu.domain.core.ruleset import Ruleset
from kifu.domain.version import ENGINE_VERSION, FORMAT_VERSION

from .audit import Divergence, audit


class Rerecord(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["rewritten", "refused", "unchanged"]
    changes: tuple[str, ...] = ()
    refused: Divergence | None = None      # the decision today's engine will not take
    header: Header | None = None
    envelopes: list[Envelope[Any]] | None = None


def _outcome(ruleset: Ruleset[Any, Any, Any], match: Match) -> str:
    outcome = match.outcome
    return outcome.describe() if outcome else "in progress"


def _content(env: Envelope[Any]) -> bytes:
    return canonical([env.kind, env.seat, env.clause, env.event])


def rerecord(ruleset: Ruleset[Any, Any, Any], header: Header, recorded: list[Envelope[Any]]) -> Rerecord:
    """Re-run ``recorded``'s decisions with today's engine; ``unchanged`` if it audits clean."""
    before = audit(ruleset, header, recorded)
    if before.clean:
        return Rerecord(status="unchanged")
    broken = first_broken_link(header, recorded)
    if broken is not None:
        return Rerecord(status="refused", refused=Divergence(
            seq=broken, reason="the record was edited after recording (its hash chain breaks here): "
                               "re-recording would paper over the edit"))
    new_header = msgspec.structs.replace(header, format=FORMAT_VERSION, rules_version=ruleset.rules_version,
                                         engine_version=ENGINE_VERSION, card_set=ruleset.content.card_set_digest())
    try:
        match = Match.start(ruleset, new_header)
    except KifuError as exc:
        return Rerecord(status="refused", refused=Divergence(seq=1, reason=f"today's engine cannot set it up: {exc}"))
    decisions = [env for env in recorded if env.kind == "decision"]
    for number, env in enumerate(decisions, start=1):
        command = command_of(ruleset, env.event)
        where = f"decision {number} of {len(decisions)} (recorded at #{env.seq}, now #{match.seq + 1})"
        if command is None or env.seat is None:
            return Rerecord(status="refused", refused=Divergence(
                seq=env.seq, clause=env.clause, recorded=msgspec.to_builtins(env),
                reason=f"{where} names no command to re-run"))
        try:
            match.submit(env.seat, command, received=env.received, by=env.by)   # keeps when each decision arrived
        except KifuError as exc:
            return Rerecord(status="refused", refused=Divergence(
                seq=env.seq, clause=getattr(exc, "clause", env.clause), recorded=msgspec.to_builtins(env),
                reason=f"today's engine refuses {where}: {exc}"))
    return Rerecord(status="rewritten", header=match.header, envelopes=match.envelopes,
                    changes=tuple(_changes(ruleset, header, recorded, match, before.divergence)))


def _changes(ruleset: Ruleset[Any, Any, Any], header: Header, recorded: list[Envelope[Any]], match: Match,
             first: Divergence | None) -> list[str]:
    out = []
    versions = [f"{name} {old} → {new}" for name, old, new in (
        ("rules", header.rules_version, match.header.rules_version),
        ("engine", header.engine_version, match.header.engine_version),
        ("format", header.format, match.header.format)) if old != new]
    if header.card_set != match.header.card_set:
        versions.append("card data changed")
    if header.rules_version == match.header.rules_version:
        versions.append(f"rules version still {header.rules_version}: if this change is intended, "
                        "the ruleset's RULES_VERSION should say so")
    if versions:
        out.append("; ".join(versions))
    if first is not None:
        out.append(f"first change at #{first.seq} (clause {first.clause or '-'}): {first.reason}")
    matcher = SequenceMatcher(None, [_content(e) for e in recorded], [_content(e) for e in match.envelopes],
                              autojunk=False)
    added = removed = changed = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "insert":
            added += j2 - j1
        elif tag == "delete":
            removed += i2 - i1
        elif tag == "replace":
            changed += min(i2 - i1, j2 - j1)
            added += max(0, (j2 - j1) - (i2 - i1))
            removed += max(0, (i2 - i1) - (j2 - j1))
    out.append(f"{len(recorded)} → {len(match.envelopes)} events: {changed} changed, {added} added, {removed} removed")
    old_outcome = Match.fold(ruleset, header, recorded).outcome
    old = old_outcome.describe() if old_outcome else "in progress"
    new = _outcome(ruleset, match)
    out.append(f"outcome: {old}" + (f" → {new}" if new != old else " (unchanged)"))
    if match.outcome is None and old_outcome is not None:
        out.append(f"note: after the last recorded decision the match is no longer over ({_awaited(match)} to decide)")
    return out


def _awaited(match: Match) -> str:
    return " and ".join(f"seat {seat}" for seat in sorted(match.awaiting)) or "nobody"
