"""Opening the database: PRAGMAs, migrations, transactions, damaged files."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from data import db as db_module
from data.db import Database, connect
from data.errors import (
    ConstraintError,
    DatabaseCorruptError,
    DatabaseOpenError,
    MigrationError,
    TransactionError,
)
from data.migrate import MIGRATIONS_DIR
from tests.data.helpers import GUILD, lobby
from tests.pg_server import PgServer


def tables_of(path: Path) -> set[str]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT name FROM sqlite_schema WHERE type = 'table'").fetchall()
    return {row[0] for row in rows}


SHIPPED = sorted(int(p.name[:4]) for p in MIGRATIONS_DIR.glob("*.sql"))
NEXT = SHIPPED[-1] + 1  # the number a test's extra migration takes
EXTRA = f"{NEXT:04d}_extra"


def versions_of(path: Path) -> list[int]:
    with sqlite3.connect(path) as raw:
        return [row[0] for row in raw.execute("SELECT version FROM schema_migrations ORDER BY 1")]


async def test_creates_folder_and_file(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "toep.sqlite3"
    db = await connect(path)
    await db.close()
    assert path.is_file()
    assert {"games", "seats", "game_events", "bans", "player_stats"} <= tables_of(path)
    assert versions_of(path) == SHIPPED


async def test_pragmas_are_set(sqlite_db: Database) -> None:
    db = sqlite_db
    assert await db.pragma("journal_mode") == "wal"
    assert await db.pragma("synchronous") == 2  # FULL
    assert await db.pragma("foreign_keys") == 1
    assert await db.pragma("busy_timeout") == 5000


async def test_wal_is_persistent_in_the_file(sqlite_db: Database) -> None:
    # journal_mode=WAL is a property of the file: a plain connection sees it too
    with sqlite3.connect(sqlite_db.path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopening_applies_nothing_and_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "toep.sqlite3"
    db = await connect(path)
    game = await lobby(db)
    await db.close()
    db = await connect(path)
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall("SELECT id FROM games"))
    await db.close()
    assert [row[0] for row in rows] == [game.id]
    assert versions_of(path) == SHIPPED


def migrations_with(tmp_path: Path, extra: str) -> Path:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, folder)
    (folder / f"{EXTRA}.sql").write_text(extra)
    return folder


async def test_failed_migration_is_rolled_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "toep.sqlite3"
    db = await connect(path)
    await lobby(db)
    await db.close()
    broken = migrations_with(
        tmp_path,
        "CREATE TABLE half (x INTEGER);\nALTER TABLE games ADD COLUMN extra INTEGER;\n"
        "INSERT INTO no_such_table VALUES (1);\n",
    )
    with pytest.raises(MigrationError, match=f"{EXTRA} failed at statement 3"):
        await connect(path, migrations_dir=broken)
    assert "half" not in tables_of(path)
    assert versions_of(path) == SHIPPED
    with sqlite3.connect(path) as raw:
        columns = [row[1] for row in raw.execute("PRAGMA table_info(games)")]
        assert "extra" not in columns
        assert raw.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


async def test_a_new_migration_is_applied_once(tmp_path: Path) -> None:
    path = tmp_path / "toep.sqlite3"
    await (await connect(path)).close()
    folder = migrations_with(tmp_path, "CREATE TABLE extra (x INTEGER);\n")
    for _ in range(2):
        db = await connect(path, migrations_dir=folder)
        await db.close()
    assert "extra" in tables_of(path)
    assert versions_of(path) == [*SHIPPED, NEXT]


async def test_edited_migration_stops_start_up(tmp_path: Path) -> None:
    path = tmp_path / "toep.sqlite3"
    await (await connect(path)).close()
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, folder)
    first = folder / "0001_initial.sql"
    first.write_text(first.read_text() + "\n-- edited\n")
    with pytest.raises(MigrationError, match="changed after it was applied"):
        await connect(path, migrations_dir=folder)


async def test_database_newer_than_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "toep.sqlite3"
    folder = migrations_with(tmp_path, "CREATE TABLE extra (x INTEGER);\n")
    await (await connect(path, migrations_dir=folder)).close()
    with pytest.raises(MigrationError, match="does not know"):
        await connect(path)


async def test_corrupt_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "toep.sqlite3"
    garbage = b"this is not an sqlite database, just some bytes" * 100
    path.write_bytes(garbage)
    with pytest.raises(DatabaseCorruptError, match="not a usable SQLite database"):
        await connect(path)
    assert path.read_bytes() == garbage


async def test_unopenable_path_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "is_a_folder"
    path.mkdir()
    with pytest.raises(DatabaseOpenError, match="cannot open database"):
        await connect(path)


async def test_a_missing_postgres_database_is_a_clear_error(pg_server: PgServer) -> None:
    with pytest.raises(DatabaseOpenError, match=r"cannot open database postgresql://.*no_such_db"):
        await connect(pg_server.url("no_such_db"))


async def test_an_unreachable_postgres_server_is_a_clear_error_without_the_password(
    tmp_path: Path,
) -> None:
    url = f"postgresql://toep:s3cret@/toep?host={tmp_path}"  # no server listens there
    with pytest.raises(DatabaseOpenError, match="cannot open database") as refused:
        await connect(url)
    assert "s3cret" not in str(refused.value) and "toep:***@" in str(refused.value)


async def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(ConstraintError, match=r"(?i)foreign key"):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO seats (game_id, seat, name, user_id) VALUES (?, ?, ?, ?)",
                (999, 0, "ghost", 1),
            )


async def test_rollback_on_error_leaves_nothing(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)", (GUILD, "nl")
            )
            raise RuntimeError("boom")
    async with db.read() as conn:
        rows = list(await conn.execute_fetchall("SELECT COUNT(*) FROM guild_settings"))
    assert rows[0][0] == 0


async def test_commit_makes_writes_visible(db: Database, db_target: str | Path) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (?)", (GUILD,))
    other = await connect(db_target)  # as another process would see it
    async with other.read() as conn:
        rows = await conn.execute_fetchall("SELECT COUNT(*) FROM guild_settings")
    await other.close()
    assert rows[0][0] == 1


async def test_nested_transaction_is_refused(db: Database) -> None:
    async with db.transaction():
        with pytest.raises(TransactionError):
            async with db.transaction():
                pass


async def test_cancelled_transactions_leave_the_connection_usable(db: Database) -> None:
    async def write(key: str) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO bot_meta (key, value) VALUES (?, 'x')", (key,))

    for attempt in range(5):
        task = asyncio.create_task(write(f"k{attempt}"))
        # The task owns the connection from just before its BEGIN: cancel it
        # while that BEGIN is queued on the connection's thread.
        for _ in range(10_000):
            if task in db._holders:
                break
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        # Not "cannot start a transaction within a transaction", nor a hang.
        await asyncio.wait_for(write(f"after{attempt}"), 10)
    async with db.read() as conn:
        assert not conn.in_transaction
        rows = list(await conn.execute_fetchall("SELECT COUNT(*) FROM bot_meta"))
    assert rows[0][0] == 5  # the cancelled writes left nothing behind


class _BusyThenWal:
    """A connection that answers the WAL switch SQLITE_BUSY a few times first."""

    def __init__(self, busy_times: int) -> None:
        self.busy_times = busy_times
        self.asked = 0

    async def execute_fetchall(self, sql: str) -> list[tuple[str]]:
        self.asked += 1
        if self.asked <= self.busy_times:
            error = sqlite3.OperationalError("database is locked")
            error.sqlite_errorname = "SQLITE_BUSY"
            raise error
        return [("wal",)]


async def test_the_wal_switch_waits_out_processes_opening_the_file_together() -> None:
    conn = _BusyThenWal(busy_times=3)
    assert await db_module._switch_to_wal(conn, busy_timeout_ms=5000) == "wal"  # type: ignore[arg-type]
    assert conn.asked == 4


async def test_the_wal_switch_gives_up_after_the_busy_timeout() -> None:
    conn = _BusyThenWal(busy_times=1_000_000)
    with pytest.raises(sqlite3.OperationalError):
        await db_module._switch_to_wal(conn, busy_timeout_ms=120)  # type: ignore[arg-type]
    assert conn.asked >= 2


async def test_postgres_serves_transactions_at_once_on_a_few_connections(pg_url: str) -> None:
    db = await connect(pg_url)
    held = asyncio.Event()
    release = asyncio.Event()

    async def hold(key: str = "held") -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO bot_meta (key, value) VALUES (?, 'x')", (key,))
            held.set()
            await release.wait()

    async def hold_not(key: str) -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO bot_meta (key, value) VALUES (?, 'x')", (key,))

    holder = asyncio.create_task(hold())
    await held.wait()
    await asyncio.wait_for(hold_not("other"), 10)  # not held up by the open one
    assert len(db._open) == 2  # opened when needed, not before
    release.set()
    await holder
    many = [asyncio.create_task(hold(f"k{n}")) for n in range(db_module.POOL_SIZE + 2)]
    release.clear()
    await asyncio.sleep(0.2)
    assert len(db._open) == db_module.POOL_SIZE  # never more
    release.set()
    await asyncio.gather(*many)
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT COUNT(*) FROM bot_meta")
    assert rows[0][0] == 2 + db_module.POOL_SIZE + 2
    await db.close()
