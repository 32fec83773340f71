"""The engine's caches are shared by every match of a process, and the service decides and
answers on several threads at once: reading units' parameters and positions of two matches on
threads switched as often as the interpreter allows must give what one thread alone gives."""
from __future__ import annotations

import sys
import threading
from typing import Any

from test_worlfard_properties import played, states

from kifu.domain.worlfard.field import stat
from kifu.domain.worlfard.state import State
from kifu.domain.worlfard.targets import unit_line

NAMES = ("STR", "VIT", "AGI", "DEF")


def readings(all_states: list[State]) -> list[Any]:
    out = []
    for state in all_states:
        for seat in (1, 2):
            for line, unit in enumerate(state.side(seat).stage, 1):
                if unit is not None:
                    out.append((unit_line(state, unit.card), tuple(stat(state, seat, line, n) for n in NAMES)))
    return out


def test_two_matches_read_on_switching_threads_read_as_alone() -> None:
    matches = [played(seed, decks)
               for seed, decks in ((5, ("dawn-dusk", "flame-gale")), (9, ("tide-stone", "four-winds")))]
    runs = [[state for _, state in states(m)] for m in matches]
    alone = [readings(run) for run in runs]
    got: dict[int, list[Any]] = {}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=lambda i=i: got.__setitem__(i, readings(runs[i]))) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert got[0] == alone[0] and got[1] == alone[1]
