"""The object the root group builds and hands to every subcommand: where the store is."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from kifu.domain.core.envelope import Envelope
from kifu.domain.core.errors import KifuError, UnknownMatch
from kifu.domain.core.header import Header
from kifu.domain.core.ruleset import Ruleset
from kifu.domain.core.signing import Signer
from kifu.projections.recordfile import read_record
from kifu.store.keys import signer_from

MIN_PREFIX = 4    # a shorter prefix of a match id names too many matches to be worth guessing


class Interrupted(KifuError):
    """Ctrl-C (exit 130); for a stored match, the message says where it is and how to go on."""


def ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C: click turns it into ``Abort`` (its prompt too, ``from None``),
    but the KeyboardInterrupt is still on the exception's cause or context. EOF is not."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


if TYPE_CHECKING:   # imported when first used: most commands never open the store
    from kifu.store import MatchStore
    from kifu.store.notes import NoteStore


class Kifu:
    def __init__(self, db: str | None) -> None:
        self._db: str | None = None
        self.db = db
        self._store: MatchStore | None = None
        self._notes: NoteStore | None = None

    @property
    def db(self) -> str | None:
        return self._db

    @db.setter
    def db(self, value: str | None) -> None:
        """Every command checks ``--db`` the same way, before it does anything (a missing folder,
        a bare word, a mistyped name: ``kifu.store.config`` says why), never at first use."""
        from kifu.store.config import resolve

        resolve(value)
        self._db = value

    @property
    def existing(self) -> Any:
        """The store, for a command that reads what is stored: an SQLite file named by ``--db`` or
        ``$KIFU_DB`` that is not there is a mistyped address, refused, not made into an empty store."""
        from kifu.store.config import ENV_DB, resolve
        from kifu.store.errors import BadStoreAddress

        if self._store is None and (self.db or os.environ.get(ENV_DB)):
            config = resolve(self.db)
            name = config.env.get("SQLITE_DBNAME", "")
            if config.backend == "sqlite" and not name.startswith("file:") and not Path(name).exists():
                raise BadStoreAddress(f"--db {name}: no such store (nothing is stored there; a mistyped path? "
                                      "`kifu play` or `kifu import` makes one)")
        return self.store

    @property
    def store(self) -> MatchStore:
        if self._store is None:
            from kifu.store import MatchStore

            self._store = MatchStore.open(self.db)
        return self._store

    @property
    def notes(self) -> NoteStore:
        """The notes beside the store's matches (``kifu.store.notes``), opened on first use."""
        if self._notes is None:
            from kifu.store.notes import NoteStore

            self._notes = NoteStore.open(self.existing.config)
        return self._notes

    @property
    def signer(self) -> Signer | None:
        """The key every record this kifu writes is signed with: ``$KIFU_SIGNING_KEY``, as the
        service's (None without one: records are then end-marked but unsigned)."""
        return signer_from(os.environ)

    def close(self) -> None:
        if self._notes is not None:
            self._notes.close()
            self._notes = None
        if self._store is not None:
            self._store.close()
            self._store = None

    def load(self, source: str) -> tuple[Ruleset[Any, Any, Any], Header, list[Envelope[Any]]]:
        """A record file if ``source`` is a path, else a match id in the store."""
        if Path(source).exists() or source.endswith((".jsonl", ".gz")):
            record = read_record(source)
            return record.ruleset, record.header, record.envelopes
        match = self.existing.load(self.resolve(source))
        return match.ruleset, match.header, match.envelopes

    def resolve(self, match_id: str) -> str:
        """A stored match's full id from the id or an unambiguous prefix of it (``e79d47``)."""
        ids: list[str] = [row.match_id for row in self.existing.list_matches()]
        if match_id in ids:
            return match_id
        found = [i for i in ids if i.startswith(match_id.lower())] if len(match_id) >= MIN_PREFIX else []
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise click.UsageError(f"{match_id!r} is the start of {len(found)} match ids "
                                   f"({', '.join(sorted(found)[:3])}, …): give more of it")
        unknown = UnknownMatch(match_id)
        if len(match_id) < MIN_PREFIX and any(i.startswith(match_id.lower()) for i in ids):
            hint = f"give at least {MIN_PREFIX} characters of its id"
        elif ids:
            hint = "`kifu matches` lists the stored ones"
        else:
            hint = f"nothing is stored in {self.store.where}"
        unknown.args = (f"unknown match {match_id!r} ({hint})",)
        raise unknown


pass_kifu = click.make_pass_decorator(Kifu)
