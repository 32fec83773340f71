"""Field geometry (W-Q2, W-Q3): the one place distance and adjacency are defined.

PROPOSAL W-Q2: Manhattan distance with the two stage rows facing each other one step apart and
absolute columns (W-Q19). Swap ``METRIC`` to "chebyshev" if better evidence appears.
"""
from __future__ import annotations

from kifu.domain.core.clauses import implements

from .vocabulary import LINES

METRIC = "manhattan"


@implements("W-Q2", "W-Q19")
def distance(from_line: int, to_line: int, across: bool, metric: str = METRIC) -> int:
    """Distance from a stage spot to another: ``across`` when the target is on the opponent's row.

    Manhattan: the spot in front is 1 away, a diagonal neighbour 2; along one's own row, |c−d|.
    Chebyshev: the same, but a diagonal step costs 1.
    """
    lateral = abs(from_line - to_line)
    if not across:
        return lateral
    if metric == "chebyshev":
        return max(lateral, 1)
    return lateral + 1


@implements("W-Q3")
def adjacent(line: int) -> tuple[int, ...]:
    """W-Q3: left and right neighbours within one's own stage row."""
    found = _ADJACENT.get(line)
    return found if found is not None else tuple(n for n in (line - 1, line + 1) if 1 <= n <= LINES)


_ADJACENT = {line: tuple(n for n in (line - 1, line + 1) if 1 <= n <= LINES) for line in range(1, LINES + 1)}


def lines() -> range:
    return range(1, LINES + 1)
