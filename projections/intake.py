"""What a record must be before the store takes it (``kifu import``): bounded, intact, clean.

A record from outside is untrusted: it is read within the reading limits, its sizes are capped
(player names, deck lists, events), its match id must be a UUID, its hash chain, commitments
and end mark must hold, and today's engine must re-adjudicate it clean (as ``kifu audit``), so
a forged record — even one re-hashed end to end — is refused with the audit's reason. Importing
the same record twice is a no-op; a different record under a stored match id is refused.
"""
from __future__ import annotations

import uuid
from typing import Any

from kifu.domain.core.errors import Malformed
from kifu.domain.core.match import Match
from kifu.domain.core.record import first_broken_link
from kifu.domain.core.signing import check

from .audit import audit
from .limits import EVENTS_MAX, over_limits
from .recordfile import Record


def admit(record: Record, source: str) -> Match:
    """The match to store, or ``Malformed`` saying why the record is refused."""
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
    verdict = check(header, record.envelopes, record.end)
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
