from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from data.db import connect
from data.errors import MigrationError
from data.migrate import MIGRATIONS_DIR, discover, split_statements
from data.sql import STATEMENT_ERRORS


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


async def test_0005_keeps_one_open_table_per_channel_of_an_old_database(
    tmp_path: Path, empty_target: str | Path
) -> None:
    """A database from before migration 0005 may hold two open tables in one
    channel: the newest game in play stays, the rest close, nothing is deleted."""
    before = tmp_path / "old"
    before.mkdir()
    for migration in discover(MIGRATIONS_DIR)[:4]:
        file = next(MIGRATIONS_DIR.glob(f"{migration.version:04d}_*.sql"))
        (before / file.name).write_text(file.read_text())
    path = empty_target
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


def shipped_plus(tmp_path: Path, extra: str) -> Path:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, folder)
    (folder / f"{len(discover(MIGRATIONS_DIR)) + 1:04d}_extra.sql").write_text(extra)
    return folder


async def versions(target: str | Path) -> list[int]:
    db = await connect(target)
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT version FROM schema_migrations ORDER BY 1")
    await db.close()
    return [int(row[0]) for row in rows]


async def test_a_failed_migration_leaves_nothing_of_itself(
    tmp_path: Path, empty_target: str | Path
) -> None:
    shipped = [m.version for m in discover(MIGRATIONS_DIR)]
    await (await connect(empty_target)).close()
    broken = shipped_plus(tmp_path, "CREATE TABLE half (x INTEGER);\n"
                                    "ALTER TABLE games ADD COLUMN extra INTEGER;\n"
                                    "INSERT INTO no_such_table VALUES (1);\n")
    with pytest.raises(MigrationError, match="failed at statement 3"):
        await connect(empty_target, migrations_dir=broken)
    assert await versions(empty_target) == shipped
    db = await connect(empty_target)
    async with db.read() as conn:
        with pytest.raises(STATEMENT_ERRORS):  # neither the table nor the column is there
            await conn.execute_fetchall("SELECT x FROM half")
    async with db.read() as conn:
        with pytest.raises(STATEMENT_ERRORS):
            await conn.execute_fetchall("SELECT extra FROM games")
    await db.close()


async def test_processes_starting_together_migrate_once(empty_target: str | Path) -> None:
    shipped = [m.version for m in discover(MIGRATIONS_DIR)]
    opened = await asyncio.gather(*(connect(empty_target) for _ in range(3)))
    for db in opened:
        await db.close()
    assert await versions(empty_target) == shipped
