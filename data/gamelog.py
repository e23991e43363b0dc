"""The event log and the chance log (deals) of a game: append-only, numbered.

Write-ahead: the table appends an event and waits for the commit before
anyone hears of it. An append that does not continue the log exactly (a gap,
a duplicate) raises LogOrderError and writes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from data.db import Database
from data.errors import GameStateError, LogOrderError, NotFoundError
from data.jsonutil import dump_object
from data.sql import Connection

log = logging.getLogger(__name__)

LogName = Literal["events", "deals"]
# identifiers cannot be bound as parameters; these two are the only ones used
_TABLES: dict[LogName, str] = {"events": "game_events", "deals": "game_deals"}


async def append_events(
    db: Database, game_id: int, first_n: int, events: Sequence[Mapping[str, Any]]
) -> int:
    """Append events numbered first_n, first_n+1, ...; returns the next number."""
    async with db.transaction() as conn:
        await require_playing(conn, game_id)
        return await insert_log(conn, "events", game_id, first_n, events)


async def append_deals(
    db: Database, game_id: int, first_n: int, deals: Sequence[Mapping[str, Any]]
) -> int:
    """Append deals (docs/records.md `deals` entries) numbered from first_n; returns the next."""
    async with db.transaction() as conn:
        await require_playing(conn, game_id)
        return await insert_log(conn, "deals", game_id, first_n, deals)


async def append_events_and_deals(
    db: Database,
    game_id: int,
    events_from: int,
    events: Sequence[Mapping[str, Any]],
    deals_from: int,
    deals: Sequence[Mapping[str, Any]],
) -> None:
    """Both logs in one transaction: an event and the chance it brought
    are saved together or not at all."""
    async with db.transaction() as conn:
        await require_playing(conn, game_id)
        await insert_log(conn, "events", game_id, events_from, events)
        await insert_log(conn, "deals", game_id, deals_from, deals)


async def next_number(conn: Connection, name: LogName, game_id: int) -> int:
    """The number the next entry of the log must have (0 for an empty log)."""
    rows = list(
        await conn.execute_fetchall(
            f"SELECT COALESCE(MAX(n) + 1, 0) FROM {_TABLES[name]} WHERE game_id = ?",
            (game_id,),
        )
    )
    return int(rows[0][0])


async def insert_log(
    conn: Connection,
    name: LogName,
    game_id: int,
    first_n: int,
    bodies: Sequence[Mapping[str, Any]],
) -> int:
    """Insert inside the caller's transaction, after checking the numbering."""
    expected = await next_number(conn, name, game_id)
    if first_n != expected:
        raise LogOrderError(
            f"game {game_id}: {name} log continues at {expected}, refusing an append at {first_n}"
        )
    texts = [dump_object(body) for body in bodies]  # refuse a bad body before writing
    await conn.executemany(
        f"INSERT INTO {_TABLES[name]} (game_id, n, body) VALUES (?, ?, ?)",
        [(game_id, first_n + i, text) for i, text in enumerate(texts)],
    )
    return first_n + len(texts)


async def require_playing(conn: Connection, game_id: int) -> None:
    rows = list(await conn.execute_fetchall(
        f"SELECT status FROM games WHERE id = ?{conn.dialect.share_rows}", (game_id,)))
    if not rows:
        raise NotFoundError(f"no game {game_id}")
    if rows[0][0] != "playing":
        raise GameStateError(f"game {game_id} is {rows[0][0]}: its logs take no more entries")
