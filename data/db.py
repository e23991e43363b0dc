"""The database connections: opening, PRAGMAs, migrations and transactions.

An SQLite file is served by one connection (aiosqlite), used by one
coroutine at a time: SQLite has one writer anyway, and a reader never sees
another coroutine's half-done transaction. A PostgreSQL database (asyncpg,
given a `postgresql://` URL; data/sql.py holds the differences) is served by
a small pool, opened as needed up to `POOL_SIZE`, so one transaction's round
trips and commit no longer hold up all the others. Each connection serves
one coroutine at a time; the few writes that read what another transaction
may change at once take row or advisory locks (`Dialect.share_rows`,
`Connection.lock`), which SQLite's single writer makes needless.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
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
# PostgreSQL connections per process at most: each holds a server process.
# A few let the group commit (data/group_commit.py) flush while a lobby's
# transaction runs; more would only wait for the same two cores.
POOL_SIZE = 4
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

    def __init__(self, conn: Connection, name: str, path: Path | None = None,
                 more: Callable[[], Awaitable[Connection]] | None = None,
                 size: int = 1) -> None:
        """`conn`, and up to `size` connections in all, the others opened by
        `more` when every open one is in use."""
        if size < 1 or (size > 1 and more is None):
            raise ValueError(f"a pool of {size} connections needs a way to open them")
        self._idle = [conn]
        self._open = [conn]
        self._more = more
        self._slots = asyncio.Semaphore(size)
        self._size = size
        self._holders: set[asyncio.Task[Any]] = set()  # each holds a connection
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
        async with self._hold() as conn:
            try:
                # Like COMMIT, BEGIN runs to its end even if the caller is
                # cancelled meanwhile; then it is rolled back, so the connection
                # is never handed back inside a transaction.
                fence = self.fence
                found = await self._finish(conn.begin(
                    None if fence is None else fence.query(conn)))
            except BaseException:
                await self._rollback(conn)
                raise
            try:
                if fence is not None:
                    await fence.verdict(conn, found)
                yield conn
            except BaseException:
                await self._rollback(conn)
                raise
            await self._finish(conn.execute("COMMIT"))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """Exclusive use of the connection for reads; sees only committed data."""
        async with self._hold() as conn:
            yield conn

    async def pragma(self, name: str) -> Any:
        """The value of a PRAGMA (name from a fixed set: tests and diagnostics)."""
        if name not in {"journal_mode", "synchronous", "foreign_keys", "busy_timeout"}:
            raise ValueError(f"unknown pragma {name!r}")
        if not isinstance(self._open[0], SqliteConnection):
            raise DataError(f"{self.name} has no PRAGMAs: it is not SQLite")
        async with self.read() as conn:
            rows = list(await conn.execute_fetchall(f"PRAGMA {name}"))
        return rows[0][0]

    async def close(self) -> None:
        """Close every connection, once each is handed back."""
        for _ in range(self._size):
            await self._slots.acquire()
        try:
            for conn in self._open:
                await conn.close()
        finally:
            for _ in range(self._size):
                self._slots.release()

    @asynccontextmanager
    async def _hold(self) -> AsyncIterator[Connection]:
        task = asyncio.current_task()
        if task is not None and task in self._holders:
            # Waiting for a second connection could deadlock this task (with
            # every other one held by tasks that wait for it), and its two
            # transactions would not see each other.
            raise TransactionError("nested use of the database in one task")
        async with self._slots:
            conn = self._idle.pop() if self._idle else await self._open_another()
            if task is not None:
                self._holders.add(task)
            try:
                await conn.ensure_open()
                yield conn
            finally:
                if task is not None:
                    self._holders.discard(task)
                self._idle.append(conn)

    async def _open_another(self) -> Connection:
        # Only with a free slot and no idle connection: fewer than `size` are open.
        assert self._more is not None
        conn = await self._more()
        self._open.append(conn)
        return conn

    async def _finish(self, work: Awaitable[T]) -> T:
        # A cancelled caller must not hand the connection back while COMMIT is
        # still queued on it: let it run to its end.
        pending = asyncio.ensure_future(work)
        try:
            return await asyncio.shield(pending)
        except asyncio.CancelledError:
            await pending
            raise

    async def _rollback(self, conn: Connection) -> None:
        if conn.in_transaction:
            await self._finish(conn.execute("ROLLBACK"))


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
        conn = await _open_sqlite(file)
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


async def _open_sqlite(file: Path) -> aiosqlite.Connection:
    """aiosqlite's connection, whose worker thread is gone if opening failed: left
    to stop on its own, it may answer after the event loop closed (a start that
    fails at once), and print a second traceback, "Event loop is closed"."""
    opening = aiosqlite.connect(file, isolation_level=None)
    try:
        conn = await opening
    except BaseException:
        await asyncio.to_thread(opening._thread.join, 5.0)  # its stop is queued already
        raise
    conn.row_factory = sqlite3.Row
    return conn


async def connect_postgres(url: str, *, migrations_dir: Path | None = None,
                           timeout_s: float = 10, pool_size: int = POOL_SIZE) -> Database:
    """Open the PostgreSQL database at `url` and bring its schema up to date;
    up to `pool_size` connections serve it, the others opened when needed."""
    name = shown_url(url)
    migrating = await _open_postgres(url, name, timeout_s, limited=False)
    try:
        await _migrate(migrating, migrations_dir)
    finally:
        await migrating.close()
    conn = await _open_postgres(url, name, timeout_s)
    log.info("database %s open", name)

    async def more() -> Connection:
        return await PostgresConnection.open(url, timeout_s)

    return Database(conn, name, more=more, size=pool_size)


async def _open_postgres(url: str, name: str, timeout_s: float, *,
                         limited: bool = True) -> PostgresConnection:
    try:
        return await PostgresConnection.open(url, timeout_s, limited=limited)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
            ValueError) as error:
        raise DatabaseOpenError(f"cannot open database {name}: {error}") from error


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
