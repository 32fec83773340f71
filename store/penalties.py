"""The penalty list a judge's penalties must come from: IPG's unless a file says otherwise.

``$KIFU_PENALTIES`` (or ``kifu judge --penalties``, ``kifu serve``'s environment) names a JSON file
``{"name": "…", "penalties": [...], "infractions": [...]}``; without one, MTG's Infraction
Procedure Guide list (``kifu.domain.core.judging.IPG``). The file is read here, never by the rules.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import msgspec

from kifu.domain.core.errors import Malformed
from kifu.domain.core.judging import IPG, PenaltyList

PENALTIES_VAR = "KIFU_PENALTIES"


def load_penalties(path: str | Path) -> PenaltyList:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise Malformed(f"cannot read the penalty list ({exc.strerror})", str(p)) from None
    try:
        found = msgspec.json.decode(data, type=PenaltyList)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise Malformed(f"not a penalty list ({exc})", str(p)) from None
    if not found.penalties or not found.infractions:
        raise Malformed("a penalty list names at least one penalty and one infraction", str(p))
    return found


def penalties_from(environ: Mapping[str, str], path: str | None = None) -> PenaltyList:
    """The list ``path`` names, else ``$KIFU_PENALTIES``'s, else IPG's."""
    chosen = path or environ.get(PENALTIES_VAR)
    return load_penalties(chosen) if chosen else IPG
