"""The data tests run on each backend: `db` and `db_target` come from
tests/conftest.py. A test of SQLite only asks for `sqlite_db` (or calls
`connect` on a path of its own) instead."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.db import Database, connect


@pytest.fixture(params=["sqlite", "postgres"])
def empty_target(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """Where a database with no migrations applied yet lives, on each backend."""
    if request.param == "sqlite":
        return tmp_path / "toep.sqlite3"
    url: str = request.getfixturevalue("pg_empty_url")
    return url


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await connect(tmp_path / "nested" / "toep.sqlite3")
    yield database
    await database.close()
