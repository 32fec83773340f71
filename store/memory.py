"""In-memory recorder (eventsourcing.popo) plus the match index, for unit tests only.

Everything happens under the recorder's one lock: both checks first, then both writes, so a
rejected insert leaves nothing behind, exactly as a rolled-back transaction would.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, StoredEvent
from eventsourcing.popo import POPOApplicationRecorder

from .index import IndexRow, IndexWrite, conflict_message


class KifuMemoryRecorder(POPOApplicationRecorder):
    def __init__(self) -> None:
        super().__init__()
        self._index: dict[str, IndexRow] = {}  # insertion order = creation order

    def _insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        index: IndexWrite | None = kwargs.get("index")
        with self._database_lock:
            row = None
            if index is not None:
                row = self._index.get(index.match_id)
                if (row is not None) if index.expected is None else (row is None or row.seq != index.expected):
                    raise IntegrityError(conflict_message(index))
            self._assert_uniqueness(stored_events, **kwargs)
            ids = self._update_table(stored_events, **kwargs)
            if index is not None:
                if row is None:
                    self._index[index.match_id] = IndexRow(index.match_id, index.ruleset, index.players,
                                                           index.seq, index.outcome)
                else:
                    self._index[index.match_id] = row._replace(seq=index.seq, outcome=index.outcome or row.outcome)
            return ids

    def select_index_row(self, match_id: str) -> IndexRow | None:
        with self._database_lock:
            return self._index.get(match_id)

    def select_index_rows(self) -> list[IndexRow]:
        with self._database_lock:
            return list(self._index.values())
