"""The request parameters the API and the viewer routes share, declared once for OpenAPI and checks."""
from __future__ import annotations

from typing import Annotated

from litestar.params import PathParameter, QueryParameter

MAX_SEQ = 2**63 - 1            # what a store's integer column holds; beyond it is malformed, not a 500
MatchId = Annotated[str, PathParameter(description="the match id (a UUID)")]
After = Annotated[int, QueryParameter(ge=0, le=MAX_SEQ, description="only envelopes with seq greater than this")]
Position = Annotated[bool, QueryParameter(description="also send the seat's masked position (for bots that simulate)")]
As = Annotated[str, QueryParameter(name="as", description="judge, 1 or 2 (default: the token's own view)")]
Seq = Annotated[int, QueryParameter(ge=0)]
