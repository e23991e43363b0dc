from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite
import pytest

from data.db import connect
from data.errors import MigrationError
from data.migrate import _BOOTSTRAP, MIGRATIONS_DIR, _apply_one, discover, split_statements


def test_split_keeps_trigger_bodies_whole() -> None:
    sql = (
        "-- a comment\nCREATE TABLE t (x INTEGER);\n"
        "CREATE TRIGGER t_no BEFORE UPDATE ON t\nBEGIN\n"
        "    SELECT RAISE(ABORT, 'no; never');\nEND;\n-- trailing comment\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


def test_split_refuses_an_unfinished_statement() -> None:
    with pytest.raises(MigrationError, match="incomplete"):
        split_statements("CREATE TABLE t (x INTEGER)")


def test_shipped_migrations_are_numbered_from_one() -> None:
    migrations = discover(MIGRATIONS_DIR)
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))


def test_gap_in_numbers_is_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;\n")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;\n")
    with pytest.raises(MigrationError, match="expected migration 0002"):
        discover(tmp_path)


def test_badly_named_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "1_a.sql").write_text("SELECT 1;\n")
    with pytest.raises(MigrationError, match=r"0001_name\.sql"):
        discover(tmp_path)


async def test_0005_keeps_one_open_table_per_channel_of_an_old_database(tmp_path: Path) -> None:
    """A database from before migration 0005 may hold two open tables in one
    channel: the newest game in play stays, the rest close, nothing is deleted."""
    before = tmp_path / "old"
    before.mkdir()
    for migration in discover(MIGRATIONS_DIR)[:4]:
        file = next(MIGRATIONS_DIR.glob(f"{migration.version:04d}_*.sql"))
        (before / file.name).write_text(file.read_text())
    path = tmp_path / "toep.sqlite3"
    db = await connect(path, migrations_dir=before)
    statuses = ["lobby", "playing", "playing", "lobby", "lobby", "lobby"]
    channels = [1, 1, 1, 1, 2, 2]
    async with db.transaction() as conn:
        for status, channel in zip(statuses, channels, strict=True):
            await conn.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, public, rules, seed, status,"
                " created_at) VALUES (1, ?, 1, 1, '{}', 0, ?, '2025-01-01T00:00:00+00:00')",
                (channel, status))
    await db.close()

    db = await connect(path)
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT id, status FROM games ORDER BY id")
    await db.close()
    assert [row[1] for row in rows] == ["cancelled", "ended", "playing", "cancelled",
                                        "cancelled", "lobby"]


async def test_processes_that_open_a_new_database_together_all_start(tmp_path: Path) -> None:
    """A cluster's processes start at once on a fresh file: each migration is applied
    by one of them, and the others find it applied once they get their turn."""
    path = tmp_path / "fresh.sqlite3"
    first = await connect(path)
    behind = await aiosqlite.connect(path, isolation_level=None)  # looked before `first` did
    try:
        await behind.execute("PRAGMA busy_timeout = 5000")
        await behind.execute(_BOOTSTRAP)
        migration = discover()[0]
        assert not await _apply_one(behind, migration)  # no "table already exists"
        assert not behind.in_transaction
    finally:
        await behind.close()
        await first.close()
    dbs = await asyncio.gather(*(connect(tmp_path / "together.sqlite3") for _ in range(3)))
    for db in dbs:
        await db.close()
