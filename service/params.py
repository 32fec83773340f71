"""The request parameters the API and the viewer routes share, declared once for OpenAPI and checks."""
from __future__ import annotations

import uuid
from typing import Annotated

from litestar.params import PathParameter, QueryParameter

from kifu.domain.core.errors import Malformed

MAX_SEQ = 2**63 - 1            # what a store's integer column holds; beyond it is malformed, not a 500
MatchId = Annotated[str, PathParameter(description="the match id (a UUID)")]   # its format: contract.py
After = Annotated[int, QueryParameter(ge=0, le=MAX_SEQ, description="only envelopes with seq greater than this")]
Position = Annotated[bool, QueryParameter(description="also send the seat's masked position (for bots that simulate)")]
As = Annotated[str, QueryParameter(name="as", description="judge, 1 or 2 (default: the token's own view)")]
Seq = Annotated[int, QueryParameter(ge=0)]


def match_key(match_id: str) -> str:
    """A match id as the service issues it: a lowercase hyphenated UUID, and only that spelling.

    Anything else (``not-a-uuid``, NUL, uppercase, ``{…}`` braces, ``urn:uuid:``) is a 400 naming
    the field, on public and token routes alike: one spelling per match, so a token check, a
    cache key and a log line always agree on which match was meant."""
    try:
        canonical = str(uuid.UUID(match_id))
    except ValueError:
        raise Malformed(f"{match_id[:40]!r} is not a match id (a UUID, as POST /matches gives it)",
                        "match_id") from None
    if canonical != match_id:
        raise Malformed(f"{match_id[:40]!r} is not in canonical form: write it {canonical}", "match_id")
    return match_id
