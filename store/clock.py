"""The clock a record is stamped with: when a decision was received, the date in a header.

Whoever stores a decision stamps it (the service, the CLI) and passes the stamp in; the rules
(``kifu.domain``) never read the clock, so ``decide`` and an audit's re-run agree to the byte.
"""
from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    """Now as a record stamps it (``received``, a header's ``date``): ISO 8601 UTC to the millisecond."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
