"""PostgreSQL recorder: eventsourcing's application recorder plus the match index, one transaction.

eventsourcing runs ``_insert_events`` first inside its pipelined insert transaction (before it
locks the events table), so the index row is locked first: a second writer on the same match
waits on that row, then re-checks ``seq = expected`` under READ COMMITTED, finds nothing to
update and fails cleanly. ``RETURNING`` + ``fetchone`` surfaces that inside the pipeline, the
way eventsourcing's own tracking insert does.
"""
from __future__ import annotations

from typing import Any, Sequence

from eventsourcing.persistence import IntegrityError, ProgrammingError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import Cursor
from psycopg.errors import DuplicateObject
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

from .index import EVENTS_TABLE, MATCHES_TABLE, IndexRow, IndexWrite, conflict_message

DDL_LOCK = 0x4B4946550001  # advisory lock key ("KIFU" 1) held while creating tables


class KifuPostgresRecorder(PostgresApplicationRecorder):
    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = EVENTS_TABLE,
                 matches_table_name: str = MATCHES_TABLE) -> None:
        if datastore.enable_db_functions:  # that insert path skips _insert_events, so the index
            raise ProgrammingError("Kifu's store needs POSTGRES_ENABLE_DB_FUNCTIONS off")
        super().__init__(datastore, events_table_name=events_table_name)
        self.check_identifier_length(matches_table_name)
        names = {"schema": Identifier(self.datastore.schema), "table": Identifier(matches_table_name)}
        self.sql_create_statements.append(SQL(
            "CREATE TABLE IF NOT EXISTS {schema}.{table} ("
            "position bigserial, match_id text PRIMARY KEY, ruleset text NOT NULL, "
            "players text NOT NULL, seq bigint NOT NULL, outcome text)").format(**names))
        self._create_row = SQL(
            "INSERT INTO {schema}.{table} (match_id, ruleset, players, seq, outcome) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (match_id) DO NOTHING RETURNING seq").format(**names)
        self._advance_row = SQL(
            "UPDATE {schema}.{table} SET seq = %s, outcome = COALESCE(%s, outcome) "
            "WHERE match_id = %s AND seq = %s RETURNING seq").format(**names)
        columns = SQL("SELECT match_id, ruleset, players, seq, outcome FROM {schema}.{table}").format(**names)
        self._select_row = columns + SQL(" WHERE match_id = %s")
        self._select_rows = columns + SQL(" ORDER BY position")

    def create_table(self) -> None:
        """eventsourcing's DDL in one transaction under an advisory lock.

        Service processes that open one database at the same moment would otherwise collide in
        the catalog ("tuple concurrently updated" on CREATE OR REPLACE FUNCTION, duplicate types).
        """
        types = [st for st in self.sql_create_statements if "CREATE TYPE" in st.as_string()]
        rest = [st for st in self.sql_create_statements if st not in types]
        with self.datastore.transaction(commit=True) as curs:
            curs.execute("SELECT pg_advisory_xact_lock(%s)", (DDL_LOCK,))
            for statement in types:  # no IF NOT EXISTS for types: try it in a savepoint
                try:
                    with curs.connection.transaction():
                        curs.execute(statement, prepare=False)
                except DuplicateObject:
                    pass
            for statement in rest:
                curs.execute(statement, prepare=False)
        self.datastore.register_type_adapters()

    def _insert_events(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        index: IndexWrite | None = kwargs.get("index")
        if index is not None:
            if index.expected is None:
                curs.execute(self._create_row, (index.match_id, index.ruleset, index.players, index.seq,
                                                index.outcome), prepare=True)
            else:
                curs.execute(self._advance_row, (index.seq, index.outcome, index.match_id, index.expected),
                             prepare=True)
            if curs.fetchone() is None:
                raise IntegrityError(conflict_message(index))
        super()._insert_events(curs, stored_events, **kwargs)

    def select_index_row(self, match_id: str) -> IndexRow | None:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self._select_row, (match_id,), prepare=True)
            row = curs.fetchone()
        return None if row is None else _row(row)

    def select_index_rows(self) -> list[IndexRow]:
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self._select_rows)
            return [_row(row) for row in curs.fetchall()]


def _row(row: DictRow) -> IndexRow:
    return IndexRow(row["match_id"], row["ruleset"], row["players"], row["seq"], row["outcome"])
