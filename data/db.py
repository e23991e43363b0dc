"""The database connection: opening, PRAGMAs, migrations and transactions.

One connection serves the whole bot: an SQLite file through aiosqlite, or a
PostgreSQL database through asyncpg when given a `postgresql://` URL
(data/sql.py holds the differences). An asyncio lock serialises its use, so
a reader never sees another coroutine's half-done transaction.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Protocol, TypeVar

import aiosqlite
import asyncpg

from data import migrate
from data.errors import (
    DatabaseCorruptError,
    DatabaseOpenError,
    DataError,
    MigrationError,
    TransactionError,
)
from data.sql import Connection, PostgresConnection, Query, SqliteConnection
from data.url import is_postgres_url, shown_url

log = logging.getLogger(__name__)

DEFAULT_PATH = "data/toep.sqlite3"
DEFAULT_BUSY_TIMEOUT_MS = 5000
_WAL_RETRY_S = 0.05
_CORRUPT_CODES = frozenset({"SQLITE_NOTADB", "SQLITE_CORRUPT"})
T = TypeVar("T")


class Fence(Protocol):
    """A check of every write transaction: that this process may still write."""

    def query(self, conn: Connection) -> Query:
        """A SELECT run with BEGIN, inside the transaction (one round trip)."""
        ...

    async def verdict(self, conn: Connection, found: int) -> None:
        """Given how many rows the query found: raise to refuse the write."""
        ...


class Database:
    """An open database. Use `transaction()` to write and `read()` to read."""

    def __init__(self, conn: Connection, name: str, path: Path | None = None) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._path = path
        self.name = name  # the file, or the URL without its password: for messages
        self.dialect = conn.dialect
        # Checked inside every write transaction, with BEGIN; raising refuses the
        # write (data/lease.py: only the lease's holder may write).
        self.fence: Fence | None = None

    @property
    def path(self) -> Path:
        """The SQLite file (a PostgreSQL database has none: DataError)."""
        if self._path is None:
            raise DataError(f"{self.name} is not a database file")
        return self._path

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """BEGIN (IMMEDIATE on SQLite) ... COMMIT; any exception rolls back and propagates."""
        async with self._hold():
            try:
                # Like COMMIT, BEGIN runs to its end even if the caller is
                # cancelled meanwhile; then it is rolled back, so the lock is
                # never released with the connection inside a transaction.
                fence = self.fence
                found = await self._finish(self._conn.begin(
                    None if fence is None else fence.query(self._conn)))
            except BaseException:
                await self._rollback()
                raise
            try:
                if fence is not None:
                    await fence.verdict(self._conn, found)
                yield self._conn
            except BaseException:
                await self._rollback()
                raise
            await self._finish(self._conn.execute("COMMIT"))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """Exclusive use of the connection for reads; sees only committed data."""
        async with self._hold():
            yield self._conn

    async def pragma(self, name: str) -> Any:
        """The value of a PRAGMA (name from a fixed set: tests and diagnostics)."""
        if name not in {"journal_mode", "synchronous", "foreign_keys", "busy_timeout"}:
            raise ValueError(f"unknown pragma {name!r}")
        if not isinstance(self._conn, SqliteConnection):
            raise DataError(f"{self.name} has no PRAGMAs: it is not SQLite")
        async with self.read() as conn:
            rows = list(await conn.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0]

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    @asynccontextmanager
    async def _hold(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and task is self._owner:
            # asyncio.Lock is not reentrant: waiting would deadlock this task.
            raise TransactionError("nested use of the database in one task")
        async with self._lock:
            self._owner = task
            try:
                await self._conn.ensure_open()
                yield
            finally:
                self._owner = None

    async def _finish(self, work: Awaitable[T]) -> T:
        # A cancelled caller must not release the lock while COMMIT is still
        # queued on the connection's thread: let it run to its end.
        pending = asyncio.ensure_future(work)
        try:
            return await asyncio.shield(pending)
        except asyncio.CancelledError:
            await pending
            raise

    async def _rollback(self) -> None:
        if self._conn.in_transaction:
            await self._finish(self._conn.execute("ROLLBACK"))


async def connect(
    path: str | Path = DEFAULT_PATH,
    *,
    migrations_dir: Path | None = None,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    integrity_check: bool = True,
) -> Database:
    """Open (creating if needed) the database at `path` and bring its schema up to date.

    `path` is an SQLite file, or a `postgresql://` URL (the database must exist).
    Raises DatabaseOpenError (DatabaseCorruptError for a damaged file) or
    MigrationError; the file is never repaired, truncated or replaced.
    """
    if isinstance(path, str) and is_postgres_url(path):
        return await connect_postgres(path, migrations_dir=migrations_dir)
    file = Path(path)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(file, isolation_level=None)
        conn.row_factory = sqlite3.Row
    except (OSError, sqlite3.Error) as error:
        raise DatabaseOpenError(f"cannot open database {file}: {error}") from error
    try:
        await _prepare(conn, file, busy_timeout_ms, integrity_check)
        wrapped = SqliteConnection(conn)
        await _migrate(wrapped, migrations_dir)
    except BaseException:
        await conn.close()
        raise
    log.info("database %s open", file)
    return Database(wrapped, str(file), file)


async def connect_postgres(url: str, *, migrations_dir: Path | None = None,
                           timeout_s: float = 10) -> Database:
    """Open the PostgreSQL database at `url` and bring its schema up to date."""
    name = shown_url(url)
    try:
        conn = await PostgresConnection.open(url, timeout_s)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
            ValueError) as error:
        raise DatabaseOpenError(f"cannot open database {name}: {error}") from error
    try:
        await _migrate(conn, migrations_dir)
    except BaseException:
        await conn.close()
        raise
    log.info("database %s open", name)
    return Database(conn, name)


async def _migrate(conn: Connection, migrations_dir: Path | None) -> None:
    migrations = migrate.discover(migrations_dir or migrate.MIGRATIONS_DIR)
    await migrate.apply_migrations(conn, migrations)


async def _prepare(
    conn: aiosqlite.Connection, file: Path, busy_timeout_ms: int, integrity_check: bool
) -> None:
    try:
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        # Check before switching to WAL: that switch writes to the file header.
        if integrity_check:
            await _quick_check(conn, file)
        else:
            await conn.execute_fetchall("PRAGMA schema_version")
        await _set_pragmas(conn, file, busy_timeout_ms)
    except sqlite3.Error as error:
        raise _open_error(file, error) from error


async def _quick_check(conn: aiosqlite.Connection, file: Path) -> None:
    rows = list(await conn.execute_fetchall("PRAGMA quick_check"))
    problems = [str(row[0]) for row in rows if row[0] != "ok"]
    if problems:
        raise DatabaseCorruptError(
            f"database {file} failed its integrity check: {'; '.join(problems[:3])}; "
            "the file was left untouched (restore a backup or move it aside)"
        )


async def _set_pragmas(conn: aiosqlite.Connection, file: Path, busy_timeout_ms: int) -> None:
    mode = await _switch_to_wal(conn, busy_timeout_ms)
    if mode.lower() != "wal":
        raise DatabaseOpenError(f"database {file}: WAL journal mode unavailable ({mode})")
    await conn.execute("PRAGMA synchronous = FULL")
    await conn.execute("PRAGMA foreign_keys = ON")


async def _switch_to_wal(conn: aiosqlite.Connection, busy_timeout_ms: int) -> str:
    """`PRAGMA journal_mode = WAL`, waiting out other processes opening the same file.

    Processes of a cluster that start together on a new file all switch it at
    once; SQLite then answers one of them SQLITE_BUSY at once, without its busy
    handler (waiting could deadlock inside SQLite), so the wait happens here,
    within the same busy timeout.
    """
    deadline = asyncio.get_running_loop().time() + busy_timeout_ms / 1000
    while True:
        try:
            rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
            return str(rows[0][0])
        except sqlite3.OperationalError as error:
            busy = getattr(error, "sqlite_errorname", "") == "SQLITE_BUSY"
            if not busy or asyncio.get_running_loop().time() >= deadline:
                raise
            await asyncio.sleep(_WAL_RETRY_S)


def _open_error(file: Path, error: sqlite3.Error) -> DatabaseOpenError:
    code = getattr(error, "sqlite_errorname", "")
    if code in _CORRUPT_CODES:
        return DatabaseCorruptError(
            f"database {file} is not a usable SQLite database ({error}); "
            "the file was left untouched (restore a backup or move it aside)"
        )
    return DatabaseOpenError(f"cannot open database {file}: {error}")


__all__ = [
    "DEFAULT_PATH",
    "Database",
    "DatabaseCorruptError",
    "DatabaseOpenError",
    "MigrationError",
    "connect",
    "connect_postgres",
]
