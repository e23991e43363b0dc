"""Fixtures shared by every test folder: a real PostgreSQL server, and
`db` (with `db_target`, where it lives), which runs a test once on each
backend.

One server per test session (tests/pg_server.py), started only if a test asks
for it; each test gets a database of its own, made from a migrated template
and dropped afterwards. These fixtures are synchronous (they run their few
statements on a loop of their own), so any fixture may depend on them.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from data.db import Database, connect
from tests.pg_server import PgServer

_TEMPLATE = "toep_template"
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
def pg_template(pg_server: PgServer) -> str:
    """A database with every migration applied, to copy for each test."""
    _run(_migrate(pg_server, _TEMPLATE))
    return _TEMPLATE


@pytest.fixture
def pg_empty_url(pg_server: PgServer) -> Iterator[str]:
    """A new, empty database of the test session's server."""
    yield from _database(pg_server, None)


@pytest.fixture
def pg_url(pg_server: PgServer, pg_template: str) -> Iterator[str]:
    """A new database with every migration applied."""
    yield from _database(pg_server, pg_template)


def _database(server: PgServer, template: str | None) -> Iterator[str]:
    name = f"test_{next(_names)}"
    url: str = _run(server.create_database(name, template))
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


async def _migrate(server: PgServer, name: str) -> None:
    database = await connect(await server.create_database(name))
    await database.close()
