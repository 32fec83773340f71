"""PostgreSQL recorder: eventsourcing's application recorder plus the match index, one transaction.

Appends go through ``GroupCommit``: the appends of one process that arrive together are one
autocommitted call of a server-side function, ``kifu_append_batch``. It moves each match's index
row (a row not at the expected seq refuses that append alone), then takes eventsourcing's table
lock once, notifies (eventsourcing's channel, and Kifu's live channel with the ids and seqs of the
matches that moved: ``kifu.store.live``), inserts the rows of every append that passed, and the
server commits.
eventsourcing locks the events table for every insert so that notification ids are handed out
in commit order (a reader of the log never skips a row that commits late), and the lock is held
until the commit's log flush returns: one append per transaction capped every process on the
database together near 1/flush appends/s (measured: 29 sessions on average waiting for the lock
under ``kifu loadtest``). One lock and one flush per group lifts that cap; the log stays in
commit order. (eventsourcing's own pipelined transaction held the lock across two client round
trips as well; this path never had it.)

Index rows are locked first and in match-id order within a group, the same order in every
process, so two groups never deadlock on each other's rows; a second writer on the same match
waits on the row, then re-checks ``seq = expected`` under READ COMMITTED and is refused cleanly.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError, ProgrammingError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.errors import DuplicateObject
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier, Literal

from .group_commit import GroupCommit, Pending
from .index import EVENTS_TABLE, MATCHES_TABLE, IndexRow, IndexWrite, conflict_message
from .live import PAYLOAD_MAX, live_channel

DDL_LOCK = 0x4B4946550001  # advisory lock key ("KIFU" 1) held while creating tables
BATCH_FUNCTION = "kifu_append_batch"


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
                  "live": Literal(live_channel(self.datastore.schema, events_table_name)),
                  "most": Literal(PAYLOAD_MAX),
                  "batch": Identifier(BATCH_FUNCTION)}
        self.sql_create_statements.append(SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{batch}(events {schema}.{event}[], owners int[], m_ids text[], "
            "m_rulesets text[], m_players text[], m_expected bigint[], m_seqs bigint[], m_outcomes text[]) "
            "RETURNS SETOF int LANGUAGE plpgsql AS $BODY$ "
            "DECLARE i int; landed int[] := '{{}}'; note text := ''; piece text; "
            "BEGIN "
            "  FOR i IN 1 .. coalesce(array_length(m_ids, 1), 0) LOOP "
            "    IF m_expected[i] IS NULL THEN "
            "      INSERT INTO {schema}.{matches} (match_id, ruleset, players, seq, outcome) "
            "      VALUES (m_ids[i], m_rulesets[i], m_players[i], m_seqs[i], m_outcomes[i]) "
            "      ON CONFLICT (match_id) DO NOTHING; "
            "    ELSE "
            "      UPDATE {schema}.{matches} SET seq = m_seqs[i], outcome = COALESCE(m_outcomes[i], outcome) "
            "      WHERE match_id = m_ids[i] AND seq = m_expected[i]; "
            "    END IF; "
            "    IF FOUND THEN landed := landed || i; ELSE RETURN NEXT i; END IF; "
            "  END LOOP; "
            "  IF cardinality(landed) = 0 THEN RETURN; END IF; "
            "  SET LOCAL lock_timeout = '" + str(int(datastore.lock_timeout)) + "s'; "
            "  LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "  NOTIFY {channel}; "
            "  FOREACH i IN ARRAY landed LOOP "          # the live channel: which matches moved, to what seq
            "    piece := m_ids[i] || ':' || m_seqs[i]; "
            "    IF length(note) + length(piece) >= {most} THEN PERFORM pg_notify({live}, note); note := ''; END IF; "
            "    note := CASE WHEN note = '' THEN piece ELSE note || ',' || piece END; "
            "  END LOOP; "
            "  PERFORM pg_notify({live}, note); "
            "  INSERT INTO {schema}.{table} AS t (originator_id, originator_version, topic, state) "
            "    SELECT u.originator_id, u.originator_version, u.topic, u.state "
            "    FROM unnest(events, owners) WITH ORDINALITY "
            "AS u(originator_id, originator_version, topic, state, o, n) "
            "    WHERE u.o = ANY(landed) ORDER BY u.n; "
            "END; $BODY$").format(**events))
        self._append_batch = SQL("SELECT * FROM {schema}.{batch}(%s, %s::int[], %s::text[], %s::text[], %s::text[], "
                                 "%s::bigint[], %s::bigint[], %s::text[])").format(**events)
        self._group = GroupCommit(self._commit_batch)
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

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """With an index write: in the next group commit (one call of the batch function)."""
        index: IndexWrite | None = kwargs.get("index")
        if index is None or not stored_events:
            ids: Sequence[int] | None = super().insert_events(stored_events, **kwargs)   # (retry() erases its type)
            return ids
        self._group.write(stored_events, index)
        return None

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def _commit_batch(self, batch: list[Pending]) -> None:
        """One autocommitted call for the whole group. Index rows are locked in match-id order,
        the same in every process, so two groups never wait on each other's rows (a deadlock);
        a group's version-check failures are refused alone, the rest is inserted under one
        table lock and one commit."""
        order = sorted(batch, key=lambda p: p.index.match_id if p.index is not None else "")
        events, owners = [], []
        for number, pending in enumerate(order, start=1):
            for e in pending.rows:
                events.append(self.construct_pg_stored_event(e.originator_id, e.originator_version, e.topic, e.state))
                owners.append(number)
        writes = [p.index for p in order]
        columns = [[getattr(w, name) for w in writes]
                   for name in ("match_id", "ruleset", "players", "expected", "seq", "outcome")]
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(self._append_batch, (events, owners, *columns), prepare=True)
            refused = {row[BATCH_FUNCTION] for row in curs.fetchall()}
        for number, pending in enumerate(order, start=1):
            if number in refused and pending.index is not None:   # (every write here has one: insert_events)
                pending.error = IntegrityError(conflict_message(pending.index))

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
