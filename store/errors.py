"""Store-level errors: what the database did, said in Kifu's terms (never an eventsourcing type)."""
from __future__ import annotations

from kifu.domain.core.errors import Conflict, KifuError


class StoreError(KifuError):
    """The database could not be used: unreachable, locked too long, unwritable, misconfigured."""


class BadStoreAddress(StoreError):
    """``--db`` names no store Kifu would open: a missing folder, a word that is not a path, a bad URL."""


class MatchExists(Conflict):
    """A match with this id is already stored; creating it again would overwrite a record."""

    def __init__(self, match_id: str, actual: int) -> None:
        super().__init__(match_id, 0, actual)
        self.args = (f"match {match_id} already exists (at seq {actual}); choose another id",)
