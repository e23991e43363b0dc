"""Fixtures shared by every test folder: a real PostgreSQL server, and
`db` (with `db_target`, where it lives), which runs a test once on each
backend.

One server per test session (tests/pg_server.py), started only if a test asks
for it. The tests share one migrated database, emptied at the start of each
test (its rows deleted, its numbering restarted: a tenth of the time of
copying a template database per test); a test that needs a database without
migrations gets one of its own. These fixtures are synchronous (they run
their few statements on a loop of their own), so any fixture may depend on them.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Coroutine, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from data.db import Database, connect
from tests.pg_server import PgServer

_SHARED = "toep_test"
_names = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgres"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a test's database lives: an SQLite file, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "nested" / "toep.sqlite3"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
async def db(db_target: str | Path) -> AsyncIterator[Database]:
    """An open database, with every migration applied."""
    database = await connect(db_target)
    yield database
    await database.close()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    server = PgServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_shared(pg_server: PgServer) -> str:
    """The URL of the database with every migration applied that tests share."""
    url: str = _run(_migrated(pg_server, _SHARED))
    return url


@pytest.fixture
def pg_empty_url(pg_server: PgServer) -> Iterator[str]:
    """A new database without migrations, of the test's own."""
    yield from _database(pg_server)


@pytest.fixture
def pg_url(pg_shared: str) -> str:
    """A migrated database without rows: the shared one, emptied."""
    _run(_emptied(pg_shared))
    return pg_shared


def _database(server: PgServer) -> Iterator[str]:
    name = f"test_{next(_names)}"
    url: str = _run(server.create_database(name))
    try:
        yield url
    finally:
        _run(server.admin(f"DROP DATABASE {name} WITH (FORCE)"))


def _run(work: Coroutine[Any, Any, Any]) -> Any:
    # A loop of our own: the test's loop (pytest-asyncio) is neither touched nor replaced.
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(work)
    finally:
        loop.close()


async def _migrated(server: PgServer, name: str) -> str:
    url = await server.create_database(name)
    database = await connect(url)
    await database.close()
    return url


async def _emptied(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        # Connections a test left open (a stopped bot's) can hold no lock on it.
        await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                           " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        tables = [row[0] for row in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_migrations'")]
        sequences = [row[0] for row in await conn.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")]
        async with conn.transaction():
            # Foreign keys are triggers: off for this transaction, any order deletes.
            await conn.execute("SET LOCAL session_replication_role = replica")
            for table in tables:
                await conn.execute(f"DELETE FROM {table}")
            for sequence in sequences:
                await conn.execute(f"SELECT setval('{sequence}', 1, false)")
    finally:
        await conn.close()
