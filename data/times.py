"""Timestamps as stored: ISO-8601 text in UTC with microseconds; and the
database's own clock (`database_now`), which judges what several processes
compare, such as when a lease lapses.

One fixed format keeps text comparison in SQL equal to time comparison, so
window queries (forfeits in the last seven days) can use plain `>` and `<=`.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from data.sql import Connection

log = logging.getLogger(__name__)


def to_db(moment: datetime) -> str:
    """The stored text of an aware datetime; a naive one is refused."""
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        raise ValueError(f"naive datetime {moment!r}: pass a timezone-aware datetime")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def from_db(text: str) -> datetime:
    """The aware UTC datetime of a stored timestamp."""
    return datetime.fromisoformat(text).astimezone(UTC)


def from_db_opt(text: str | None) -> datetime | None:
    """Like from_db, passing NULL through."""
    return None if text is None else from_db(text)


# The database's clock, read by the database: one clock for every process that
# shares it, whatever their machines' clocks say. PostgreSQL's clock_timestamp()
# is the moment the statement runs (now() would be when the transaction began,
# before any wait for a lock); SQLite's 'now' is the moment of the statement on
# the one machine that holds the file, to the millisecond.
_NOW_SQL = {"sqlite": "SELECT strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')",
            "postgresql": "SELECT clock_timestamp()"}


async def database_now(conn: Connection) -> datetime:
    """The database server's time now (aware, UTC)."""
    (row,) = await conn.execute_fetchall(_NOW_SQL[conn.dialect.name])
    moment = row[0]
    if isinstance(moment, str):
        return from_db(moment)
    assert isinstance(moment, datetime)
    return moment.astimezone(UTC)
