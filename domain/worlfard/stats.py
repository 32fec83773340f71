"""A unit's current parameters (W-2.3), as ``field`` computes them with every effect applied."""
from __future__ import annotations

from .cards import definition
from .field import Profile, keeper_bonus, profile
from .field import stat as unit_stat
from .state import State

Stats = Profile

__all__ = ["Stats", "definition", "keeper_bonus", "unit_stat", "unit_stats"]


def unit_stats(state: State, seat: int, line: int) -> Profile:
    return profile(state, seat, line)
