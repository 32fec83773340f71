"""PostgreSQL recorder: eventsourcing's application recorder plus the match index, one transaction.

Appends go through one server-side function, called as one autocommitted statement (the way
eventsourcing's own ``POSTGRES_ENABLE_DB_FUNCTIONS`` insert works): it moves the match's index
row, takes eventsourcing's table lock, notifies and inserts the rows, and the server commits it
without waiting for the client. eventsourcing locks the events table for every insert so that
notification ids are handed out in commit order (a reader of the log never skips a row that
commits late). Its pipelined transaction holds that lock across two client round trips (the
pipeline's results, then COMMIT), so on a busy machine every append in the database waited on
whichever Python thread held the lock getting scheduled again; here the lock is held only
while the server inserts and commits. The log stays in commit order.

The index row is locked first: a second writer on the same match waits on that row, then
re-checks ``seq = expected`` under READ COMMITTED, finds nothing to update and fails cleanly
(the function raises a unique violation, which eventsourcing reports as ``IntegrityError``).
"""
from __future__ import annotations

from typing import Any, Sequence

from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError, ProgrammingError, StoredEvent
from eventsourcing.utils import retry
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import Cursor
from psycopg.errors import DuplicateObject
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

from .index import EVENTS_TABLE, MATCHES_TABLE, IndexRow, IndexWrite, conflict_message

DDL_LOCK = 0x4B4946550001  # advisory lock key ("KIFU" 1) held while creating tables
APPEND_FUNCTION = "kifu_append_events"


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
        events = {"schema": Identifier(self.datastore.schema), "table": Identifier(events_table_name),
                  "matches": Identifier(matches_table_name),
                  "event": Identifier(self.stored_event_type_name),
                  "channel": Identifier(self.channel_name),
                  "append": Identifier(APPEND_FUNCTION)}
        self.sql_create_statements.append(SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{append}(events {schema}.{event}[], m_id text, m_ruleset text, "
            "m_players text, m_expected bigint, m_seq bigint, m_outcome text) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "  IF m_expected IS NULL THEN "
            "    INSERT INTO {schema}.{matches} (match_id, ruleset, players, seq, outcome) "
            "    VALUES (m_id, m_ruleset, m_players, m_seq, m_outcome) ON CONFLICT (match_id) DO NOTHING; "
            "  ELSE "
            "    UPDATE {schema}.{matches} SET seq = m_seq, outcome = COALESCE(m_outcome, outcome) "
            "    WHERE match_id = m_id AND seq = m_expected; "
            "  END IF; "
            "  IF NOT FOUND THEN "
            "    RAISE EXCEPTION 'match % is not at seq %', m_id, m_expected USING ERRCODE = 'unique_violation'; "
            "  END IF; "
            "  SET LOCAL lock_timeout = '" + str(int(datastore.lock_timeout)) + "s'; "
            "  LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "  NOTIFY {channel}; "
            "  RETURN QUERY INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
            "    SELECT originator_id, originator_version, topic, state FROM unnest(events) "
            "    RETURNING notification_id; "
            "END; $BODY$").format(**events))
        self._append = SQL("SELECT * FROM {schema}.{append}(%s, %s, %s, %s, %s, %s, %s)").format(**events)
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

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """With an index write: one autocommitted call of the append function (see above)."""
        index: IndexWrite | None = kwargs.get("index")
        if index is None or not stored_events:
            return super().insert_events(stored_events, **kwargs)
        rows = [self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state)
                for e in stored_events]
        try:
            with self.datastore.get_connection() as conn, conn.cursor() as curs:
                curs.execute(self._append, (rows, index.match_id, index.ruleset, index.players, index.expected,
                                            index.seq, index.outcome), prepare=True)
                return [row[APPEND_FUNCTION] for row in curs.fetchall()]
        except IntegrityError as exc:
            raise IntegrityError(conflict_message(index)) from exc

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
