"""What a record must be before the store takes it (``kifu import``): bounded, intact, clean.

A record from outside is untrusted: it is read within the reading limits, its sizes are capped
(player names, deck lists, events), its match id must be a UUID, its hash chain, commitments
and end mark must hold, and today's engine must re-adjudicate it clean (as ``kifu audit``), so
a forged record — even one re-hashed end to end — is refused with the audit's reason. Importing
the same record twice is a no-op; a different record under a stored match id is refused.

A record without an end mark (an ongoing match, or a finished one's copy cut short) is refused
unless the importer says it expects one (``in_progress``). Re-adjudication proves the rulings,
not who played: a forger can rename a player and re-hash the whole record. Only a signature
proves that, so an organiser lists the keys it trusts (``trusted``: ``kifu import --key`` /
``--trusted``, or ``$KIFU_TRUSTED_KEYS`` naming a trusted-keys file) and only records whose end
mark one of them signed are stored.
"""
from __future__ import annotations

import uuid
from typing import Any

from kifu.domain.core.errors import Malformed
from kifu.domain.core.match import Match
from kifu.domain.core.record import first_broken_link, first_broken_seal
from kifu.domain.core.signing import check

from .audit import audit
from .limits import EVENTS_MAX, over_limits
from .recordfile import Record

TRUSTED_KEYS_VAR = "KIFU_TRUSTED_KEYS"   # an organiser's trusted-keys file: import then takes only their records


def admit(record: Record, source: str, trusted: dict[str, str] | None = None, in_progress: bool = False) -> Match:
    """The match to store, or ``Malformed`` saying why the record is refused. ``trusted`` (base64
    key -> name): only a record whose end mark one of these keys signed is admitted."""
    header = record.header
    try:
        canonical = str(uuid.UUID(header.match_id))
    except ValueError:
        raise Malformed(f"match_id {header.match_id[:40]!r} is not a UUID", source) from None
    if canonical != header.match_id:
        raise Malformed(f"match_id {header.match_id!r} is not in canonical form ({canonical})", source)
    over = over_limits(header)       # the same limits `kifu play` keeps when it writes a record
    if over is not None:
        raise Malformed(over.what, source)
    if len(record.envelopes) > EVENTS_MAX:
        raise Malformed(f"{len(record.envelopes)} events; at most {EVENTS_MAX} are allowed", source)
    broken = first_broken_link(header, record.envelopes)
    if broken is not None:
        raise Malformed(f"hash chain broken at seq {broken}; refusing to import an edited record", source)
    sealed = first_broken_seal(header, record.envelopes, finished=record.end is not None)
    if sealed is not None:
        raise Malformed(f"commitment broken at seq {sealed[0]}: {sealed[1]}; refusing to import it", source)
    verdict = check(header, record.envelopes, record.end, trusted, in_progress)
    if not verdict.ok:
        raise Malformed(f"{verdict.text}; refusing to import it", source)
    result = audit(record.ruleset, header, record.envelopes)
    if result.divergence is not None:
        d = result.divergence
        raise Malformed(f"not clean when re-adjudicated: at seq {d.seq} (clause {d.clause or '-'}): {d.reason}; "
                        "refusing to import it", source)
    return Match.fold(record.ruleset, header, record.envelopes)


def same_match(stored: Match, record: Record) -> bool:
    """Whether the stored match is exactly this record (so importing it again changes nothing)."""
    return stored.header == record.header and list(stored.envelopes) == list(record.envelopes)


def describe(match: Match) -> str:
    outcome: Any = match.outcome
    return outcome.describe() if outcome is not None else "in progress"
