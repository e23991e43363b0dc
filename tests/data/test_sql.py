"""The connection interface: one query text, run on either backend."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from data import migrate, sql
from data.db import Database, connect, connect_postgres
from data.errors import ConstraintError
from data.meta import get_meta, set_meta
from data.sql import OUTAGE_ERRORS, Connection, PostgresConnection, Query, inlined, numbered
from tests.pg_proxy import FreezingProxy
from tests.pg_server import PgServer


def test_placeholders_are_numbered_outside_quotes() -> None:
    assert numbered("SELECT ? , '?', \"a?\" FROM t WHERE x IN (?, ?)") == (
        "SELECT $1 , '?', \"a?\" FROM t WHERE x IN ($2, $3)")


def test_values_are_written_in_as_literals_or_refused() -> None:
    query = Query("SELECT ?, '?' WHERE k = ANY(?) AND n = ?", ["it's", ["a", "b"], 7])
    assert inlined(query) == "SELECT 'it''s', '?' WHERE k = ANY(ARRAY['a', 'b']) AND n = 7"
    bad: object
    for bad in ("a\\b", "a\0b", True, 1.5, [], None):
        with pytest.raises((TypeError, ValueError)):
            inlined(Query("SELECT ?", [bad]))
    with pytest.raises(ValueError):
        inlined(Query("SELECT ?, ?", [1]))


async def test_a_fence_checks_each_write_with_its_begin_and_may_refuse_it(
        db: Database) -> None:
    await set_meta(db, "it's", "1")
    await set_meta(db, "b", "2")
    found: list[int] = []

    class Fence:
        def query(self, conn: Connection) -> Query:
            where, params = conn.one_of("key", ["it's", "b", "zz"])
            return Query(f"SELECT key FROM bot_meta WHERE {where} AND value <> ?",
                         [*params, "2"])

        async def verdict(self, conn: Connection, rows: int) -> None:
            found.append(rows)
            if rows:
                raise LookupError("refused")

    db.fence = Fence()
    with pytest.raises(LookupError):
        await set_meta(db, "c", "3")
    db.fence = None
    assert found == [1] and await get_meta(db, "c") is None


async def test_one_query_text_runs_on_either_backend(db: Database) -> None:
    async with db.transaction() as conn:
        changed = await conn.execute(
            "INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("a", "1"))
        await conn.executemany(
            "INSERT INTO bot_meta (key, value) VALUES (?, ?)", [("b", "2"), ("c", "3")])
        await conn.executemany("INSERT INTO bot_meta (key, value) VALUES (?, ?)", [])
        updated = await conn.execute("UPDATE bot_meta SET value = 'x' WHERE key <> ?", ("a",))
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT key, value FROM bot_meta WHERE key IN (?, ?) ORDER BY key", ("a", "b"))
    assert (changed, updated) == (1, 2)
    assert [(row[0], row["value"]) for row in rows] == [("a", "1"), ("b", "x")]
    assert [tuple(row) for row in rows] == [("a", "1"), ("b", "x")]


async def test_a_broken_unique_key_is_one_error_on_both(db: Database) -> None:
    with pytest.raises(ConstraintError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO bot_meta (key, value) VALUES ('k', '1')")
            await conn.execute("INSERT INTO bot_meta (key, value) VALUES ('k', '2')")
    async with db.read() as conn:  # rolled back whole
        assert not await conn.execute_fetchall("SELECT * FROM bot_meta")
        assert not conn.in_transaction


async def test_discord_ids_need_64_bits(db: Database) -> None:
    snowflake = 1_234_567_890_123_456_789
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (?)", (snowflake,))
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT guild_id FROM guild_settings")
    assert rows[0][0] == snowflake


async def test_one_of_matches_any_number_of_values(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.executemany("INSERT INTO bot_meta (key, value) VALUES (?, 'v')",
                               [("a",), ("b",), ("c",)])
    found = []
    async with db.read() as conn:
        for values in (["a"], ["a", "c"], ["b", "x", "c", "a"], []):
            where, params = conn.one_of("key", values)
            rows = await conn.execute_fetchall(
                f"SELECT key FROM bot_meta WHERE {where} ORDER BY key", params)
            found.append([row[0] for row in rows])
    assert found == [["a"], ["a", "c"], ["a", "b", "c"], []]


async def test_a_postgresql_session_left_inside_a_transaction_is_ended_by_the_server(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """As when its host vanished mid-transaction: what it locked (here a lock by
    name, as the lease takers hold) is free again once its time is up, not hours later."""
    default = await PostgresConnection.open(pg_url, 10)
    rows = await default.execute_fetchall("SHOW idle_in_transaction_session_timeout")
    await default.close()
    assert rows[0][0] == "1min"
    monkeypatch.setattr(sql, "IDLE_IN_TRANSACTION_MS", 300)
    stuck = await PostgresConnection.open(pg_url, 10)
    other = await PostgresConnection.open(pg_url, 10)
    try:
        await stuck.begin()
        await stuck.lock("leases")  # and then it waits, and waits
        await other.begin()
        await asyncio.wait_for(other.lock("leases"), 10)  # taken once the server ended it
        for _ in range(100):  # and the server hung up on it
            if stuck.raw.is_closed():
                break
            await asyncio.sleep(0.05)
        with pytest.raises(asyncpg.InterfaceError):  # "connection is closed"
            await stuck.execute("SELECT 1")
    finally:
        await other.close()
        await stuck.close()


async def test_migrations_have_no_statement_limit_and_every_other_statement_has(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration may rewrite a big table for minutes; a save must not wait so
    long on a server that stopped answering (tests/data/test_group_commit.py)."""
    limits: list[float | None] = []
    real = migrate.apply_migrations

    async def watched(conn: Connection, migrations: list[migrate.Migration]) -> list[int]:
        assert isinstance(conn, PostgresConnection)
        limits.append(conn.statement_timeout)
        return await real(conn, migrations)

    monkeypatch.setattr(migrate, "apply_migrations", watched)
    db = await connect(pg_url)
    try:
        async with db.read() as conn:
            assert isinstance(conn, PostgresConnection)
            assert limits == [None] and conn.statement_timeout == sql.STATEMENT_TIMEOUT_S
    finally:
        await db.close()


async def test_a_lock_held_too_long_elsewhere_is_an_outage_and_the_connection_stays(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's own lock limit ends the wait (below the statement limit,
    which would drop the connection as if the server were silent)."""
    monkeypatch.setattr(sql, "LOCK_TIMEOUT_MS", 200)
    holder = await PostgresConnection.open(pg_url, 10, limited=False)
    waiter = await PostgresConnection.open(pg_url, 10)
    try:
        await holder.begin()
        await holder.lock("leases")
        await waiter.begin()
        with pytest.raises(OUTAGE_ERRORS) as refused:
            await waiter.lock("leases")
        assert isinstance(refused.value, asyncpg.LockNotAvailableError)
        await waiter.execute("ROLLBACK")
        assert not waiter.raw.is_closed()
        assert [tuple(row) for row in await waiter.execute_fetchall("SELECT 1")] == [(1,)]
    finally:
        await waiter.close()
        await holder.close()


async def test_closing_on_a_server_that_stopped_answering_is_not_waited_for(
        pg_server: PgServer, pg_url: str) -> None:
    """A bot that stops while its database's machine is frozen still stops."""
    async with FreezingProxy(pg_server) as proxy:
        db = await connect_postgres(proxy.url(pg_url), timeout_s=0.5)
        proxy.freeze()
        await asyncio.wait_for(db.close(), 10)
