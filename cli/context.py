"""The object the root group builds and hands to every subcommand: where the store is."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.header import Header
from kifu.domain.core.ruleset import Ruleset
from kifu.domain.core.signing import Signer
from kifu.projections.recordfile import read_record
from kifu.store.keys import signer_from

if TYPE_CHECKING:   # imported when first used: most commands never open the store
    from kifu.store import MatchStore


class Kifu:
    def __init__(self, db: str | None) -> None:
        self.db = db
        self._store: MatchStore | None = None

    @property
    def store(self) -> MatchStore:
        if self._store is None:
            from kifu.store import MatchStore

            self._store = MatchStore.open(self.db)
        return self._store

    @property
    def signer(self) -> Signer | None:
        """The key every record this kifu writes is signed with: ``$KIFU_SIGNING_KEY``, as the
        service's (None without one: records are then end-marked but unsigned)."""
        return signer_from(os.environ)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def load(self, source: str) -> tuple[Ruleset[Any, Any, Any], Header, list[Envelope[Any]]]:
        """A record file if ``source`` is a path, else a match id in the store."""
        if Path(source).exists() or source.endswith((".jsonl", ".gz")):
            record = read_record(source)
            return record.ruleset, record.header, record.envelopes
        match = self.store.load(self.resolve(source))
        return match.ruleset, match.header, match.envelopes

    def resolve(self, match_id: str) -> str:
        """A stored match's full id from the id or an unambiguous prefix of it (``e79d47``)."""
        ids = [row.match_id for row in self.store.list_matches()]
        if match_id in ids:
            return match_id
        found = [i for i in ids if i.startswith(match_id.lower())] if len(match_id) >= 4 else []
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise click.UsageError(f"{match_id!r} is the start of {len(found)} match ids "
                                   f"({', '.join(sorted(found)[:3])}, …): give more of it")
        return match_id     # the store names the unknown match


pass_kifu = click.make_pass_decorator(Kifu)
