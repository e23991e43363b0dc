"""A fresh database file per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data.db import Database, connect


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await connect(tmp_path / "nested" / "toep.sqlite3")
    yield database
    await database.close()
