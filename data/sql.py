"""The one connection interface every query goes through, on SQLite and PostgreSQL.

Every query of the data package is written once, with `?` placeholders, in
the SQL both databases speak; a connection runs it on its own driver
(aiosqlite, or asyncpg with `?` turned into `$1, $2, ...`). The few places
where the two really differ are the fields of `Dialect` and the methods
below, nowhere else (the schema's differences: data/pg_schema.py).

A violated constraint (a UNIQUE index, a CHECK, an append-only trigger)
raises `ConstraintError` on both, naming the constraint as the database did.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import aiosqlite
import asyncpg

from data.errors import ConstraintError

log = logging.getLogger(__name__)

Params = Sequence[Any]

# The database's own troubles (locked, full, gone away): a caller may retry
# later. Anything else a driver raises is a bug of ours or a broken schema.
OUTAGE_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.OperationalError,
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,  # the server shuts down or restarts
    asyncpg.InsufficientResourcesError,
    asyncpg.LockNotAvailableError,  # lock_timeout: a lock held too long elsewhere
    asyncpg.InterfaceError,
    # The network: a server that refuses, resets, or cannot be reached at all
    # (its host down: connecting times out, TimeoutError, or no route).
    OSError,
)
# Everything a driver may raise: the outside world's words, never a card.
DRIVER_ERRORS: tuple[type[Exception], ...] = (
    sqlite3.Error,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
)
# What a statement of ours may raise from the database: the above and a
# broken constraint.
STATEMENT_ERRORS: tuple[type[Exception], ...] = (*DRIVER_ERRORS, ConstraintError)


class Row(Protocol):
    """A result row: by column position or by column name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


@dataclass(frozen=True)
class Dialect:
    name: str
    # Opens a write transaction. SQLite's IMMEDIATE takes the write lock at
    # once, so a transaction's reads already see what nobody else can change.
    begin: str
    # Ends a SELECT inside a write transaction: the rows it reads stay as read
    # until the transaction ends, and a row changed by a transaction that
    # committed while this one waited is read as it is now. SQLite needs none:
    # BEGIN IMMEDIATE holds the one write lock already.
    share_rows: str
    update_rows: str  # the same, for rows this transaction may change


SQLITE = Dialect("sqlite", "BEGIN IMMEDIATE", "", "")
POSTGRESQL = Dialect("postgresql", "BEGIN", " FOR SHARE", " FOR UPDATE")


@dataclass(frozen=True)
class Query:
    sql: str
    params: Params = ()


class Connection(ABC):
    """One open connection; `Database` (data/db.py) serialises its use."""

    dialect: Dialect

    @abstractmethod
    async def begin(self, check: Query | None = None) -> int:
        """Open a write transaction and, if given, run `check` (a SELECT) first
        inside it, in the same round trip where the driver allows; returns the
        number of rows `check` found (0 without one)."""

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Run one statement and return all of its rows."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement once per parameter row."""

    @staticmethod
    @abstractmethod
    def one_of(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        """A condition "`column` is one of `values`" and its parameters."""

    @abstractmethod
    async def lock(self, name: str) -> None:
        """Inside a write transaction: hold the lock `name` until it ends.

        Two transactions holding it never overlap: one migrates the schema,
        or takes leases (data/lease.py), at a time."""

    async def ensure_open(self) -> None:
        """Before each use: reconnect if the connection was lost (a server
        restart); a reconnect that fails raises, and the caller retries later."""
        return None

    @property
    @abstractmethod
    def in_transaction(self) -> bool: ...

    @abstractmethod
    async def close(self) -> None: ...


class SqliteConnection(Connection):
    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def begin(self, check: Query | None = None) -> int:
        await self.execute(self.dialect.begin)
        return 0 if check is None else len(await self.execute_fetchall(check.sql, check.params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        with _sqlite_constraints():
            cursor = await self.raw.execute(sql, params)
        return cursor.rowcount

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        with _sqlite_constraints():
            return list(await self.raw.execute_fetchall(sql, params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        args = list(rows)
        if not args:  # no trip to the connection's thread for nothing
            return
        with _sqlite_constraints():
            await self.raw.executemany(sql, args)

    @staticmethod
    def one_of(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        return f"{column} IN ({','.join('?' * len(values))})", list(values)

    async def lock(self, name: str) -> None:
        # BEGIN IMMEDIATE took the database's one write lock already.
        return None

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    async def close(self) -> None:
        await self.raw.close()


# The server ends a session of ours that waits this long inside a transaction:
# its process is gone (a host that vanished mid-transaction sends no goodbye),
# and the rows it locked (the leases, a game's) would otherwise stay locked for
# every other cluster until TCP gives the connection up, hours later. Ours never
# wait so long: a transaction sends its statements back to back.
IDLE_IN_TRANSACTION_MS = 60_000
# Seconds a statement may go unanswered. A server whose machine froze or whose
# network went away sends nothing, not even a reset: without a limit a save
# would wait for TCP to give up (a quarter of an hour, or for ever while the
# kernel still takes the bytes), and every table with it. Past it the
# connection is dropped and the statement fails as an outage, which its
# caller tries again, on a new connection. Ours take milliseconds; a
# migration, which may rewrite a big table, has no limit.
STATEMENT_TIMEOUT_S = 20.0
# Milliseconds a statement may wait for a lock (the server's own limit, below
# the one above): a wait behind a session whose machine vanished ends cleanly,
# as a lock the database would not give (an outage, tried again), instead of
# reading as a silent server and costing the connection.
LOCK_TIMEOUT_MS = 15_000


async def _connect(url: str, timeout_s: float, limited: bool) -> asyncpg.Connection:
    settings = {"idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS)}
    if limited:
        settings["lock_timeout"] = str(LOCK_TIMEOUT_MS)
    return await asyncpg.connect(url, timeout=timeout_s, server_settings=settings)


class PostgresConnection(Connection):
    dialect = POSTGRESQL

    def __init__(self, conn: asyncpg.Connection, url: str, timeout_s: float,
                 limited: bool) -> None:
        self.raw = conn
        self._url = url
        self._timeout_s = timeout_s
        self._limited = limited
        self._closed = False
        self.statement_timeout = STATEMENT_TIMEOUT_S if limited else None

    @contextlib.contextmanager
    def _dropped_if_silent(self) -> Iterator[None]:
        """Around a statement run with `timeout=self.statement_timeout` (the
        driver's own timer: no task more per statement): past it, the connection
        is dropped, since whatever it was in the middle of is unknown."""
        try:
            yield
        except TimeoutError:
            if self.statement_timeout is None:
                raise
            self.raw.terminate()
            raise TimeoutError(f"PostgreSQL did not answer for {self.statement_timeout:g} s;"
                               " the connection was dropped") from None

    @classmethod
    async def open(cls, url: str, timeout_s: float, *, limited: bool = True
                   ) -> PostgresConnection:
        """`limited`: each statement's wait for an answer, and for a lock, is
        (see above); a migration's connection is not, since a migration may
        rewrite a big table, or wait for another process's migration."""
        return cls(await _connect(url, timeout_s, limited), url, timeout_s, limited)

    async def ensure_open(self) -> None:
        # An SQLite file never goes away; a server does restart, and a bot
        # must not need one too. Nothing is lost: whatever was not committed
        # was refused to its caller, who tries again.
        if self.raw.is_closed() and not self._closed:
            log.warning("the connection to PostgreSQL was lost; connecting again")
            self.raw = await _connect(self._url, self._timeout_s, self._limited)

    async def begin(self, check: Query | None = None) -> int:
        # With a check, one round trip for both: the simple protocol takes several
        # statements at once, but no parameters, so the check's values are written in.
        sql = self.dialect.begin if check is None else f"{self.dialect.begin}; {inlined(check)}"
        with self._dropped_if_silent():
            status = await self.raw.execute(sql, timeout=self.statement_timeout)
        return 0 if check is None else _rowcount(status)

    async def execute(self, sql: str, params: Params = ()) -> int:
        with _pg_constraints(), self._dropped_if_silent():
            status = await self.raw.execute(numbered(sql), *params,
                                            timeout=self.statement_timeout)
        return _rowcount(status)

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        with _pg_constraints(), self._dropped_if_silent():
            return list(await self.raw.fetch(numbered(sql), *params,
                                             timeout=self.statement_timeout))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        args = list(rows)
        if not args:
            return
        with _pg_constraints(), self._dropped_if_silent():
            await self.raw.executemany(numbered(sql), args, timeout=self.statement_timeout)

    @staticmethod
    def one_of(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
        # One array parameter: the query's text, and so its prepared
        # statement, stays the same however many values there are.
        return f"{column} = ANY(?)", [list(values)]

    async def lock(self, name: str) -> None:
        with self._dropped_if_silent():
            await self.raw.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", name,
                                   timeout=self.statement_timeout)

    @property
    def in_transaction(self) -> bool:
        # A dropped connection's transaction is the server's to end: no ROLLBACK.
        return not self.raw.is_closed() and bool(self.raw.is_in_transaction())

    async def close(self) -> None:
        self._closed = True
        try:  # a goodbye the server answers; one that does not answer is not waited for
            await self.raw.close(timeout=self._timeout_s)
        except (OSError, asyncpg.InterfaceError):
            self.raw.terminate()


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (none inside quotes)."""
    return "".join(f"${n}" if n else part for part, n in _placeholders(sql))


def inlined(query: Query) -> str:
    """A query with its values written in as PostgreSQL literals, for the
    simple protocol. Only what a check needs: integers, texts and lists of them;
    a text with a backslash or a NUL is refused rather than escaped."""
    values = [_literal(value) for value in query.params]
    parts = list(_placeholders(query.sql))
    if sum(1 for _, n in parts if n) != len(values):
        raise ValueError(f"{len(values)} values for the placeholders of {query.sql!r}")
    return "".join(values[n - 1] if n else part for part, n in parts)


def _placeholders(sql: str) -> Iterator[tuple[str, int]]:
    """The query's characters, each `?` outside quotes numbered from 1 (others: 0)."""
    count = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "?":
            count += 1
            yield char, count
            continue
        yield char, 0


def _literal(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str | list | tuple):
        raise TypeError(f"no literal for {type(value).__name__} values")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if "\\" in value or "\0" in value:
            raise ValueError(f"refusing to write {value!r} in as a literal")
        return "'" + value.replace("'", "''") + "'"
    if not value:
        raise ValueError("no literal for an empty list: its type is unknown")
    return f"ARRAY[{', '.join(map(_literal, value))}]"


def _rowcount(status: str) -> int:
    # asyncpg answers with the command tag: "UPDATE 3", "INSERT 0 1", "SELECT 2".
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


@contextlib.contextmanager
def _sqlite_constraints() -> Iterator[None]:
    try:
        yield
    except sqlite3.IntegrityError as err:
        raise ConstraintError(str(err)) from err


@contextlib.contextmanager
def _pg_constraints() -> Iterator[None]:
    try:
        yield
    except asyncpg.IntegrityConstraintViolationError as err:
        name = getattr(err, "constraint_name", None)
        raise ConstraintError(f"{err} (constraint {name})" if name else str(err)) from err
