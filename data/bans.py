"""Forfeits and bans (R19).

Three forfeits at public tables within seven days ban a player from joining
public tables for seven days from the third. The caller decides which
forfeits count (public table, at least two people); this module stores them
and draws the conclusion. Time always comes from the caller.

A ban's start and its lifting are each told to the player once
(cogs/ban_notices.py); when, is kept with the ban (`start_told_at`,
`lift_told_at`), so an untold notice survives a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from data.db import Database
from data.sql import Connection, Row
from data.times import from_db, from_db_opt, to_db

log = logging.getLogger(__name__)

ForfeitKind = Literal["timeout", "walkout"]
FORFEITS_FOR_BAN = 3
WINDOW = timedelta(days=7)
BAN_LENGTH = timedelta(days=7)


@dataclass(frozen=True)
class Forfeit:
    game_id: int
    guild_id: int
    user_id: int
    kind: ForfeitKind
    at: datetime


@dataclass(frozen=True)
class Ban:
    id: int
    guild_id: int
    user_id: int
    since: datetime
    until: datetime
    lifted_by: int | None
    lifted_at: datetime | None


@dataclass(frozen=True)
class Standing:
    """Where a player stands toward a ban at one moment."""

    counted: int  # forfeits that count toward a ban now (in the window, after the last ban)
    banned: Ban | None  # the ban in force, if any

    @property
    def next_bans(self) -> bool:
        """Whether one more forfeit now would start a ban."""
        return self.banned is None and self.counted + 1 >= FORFEITS_FOR_BAN


@dataclass(frozen=True)
class Notice:
    """A ban's start or lifting, not yet told to its player."""

    ban: Ban
    kind: Literal["start", "lift"]


@dataclass(frozen=True)
class ForfeitOutcome:
    recorded: bool  # False: this user's forfeit of this game was already stored
    ban: Ban | None  # the ban this forfeit started, if any


async def record_forfeit(
    db: Database, *, game_id: int, guild_id: int, user_id: int, kind: ForfeitKind, at: datetime
) -> ForfeitOutcome:
    """Store a forfeit; if it is the third within seven days, ban from `at` (one transaction)."""
    async with db.transaction() as conn:
        outcome = await record_forfeit_in(conn, Forfeit(game_id, guild_id, user_id, kind, at))
    if outcome.ban is not None:
        log_ban(outcome.ban)
    return outcome


async def record_forfeit_in(conn: Connection, forfeit: Forfeit) -> ForfeitOutcome:
    """`record_forfeit` inside the caller's transaction (a table saves a forfeit
    with the event that brought it, so a crash cannot keep one without the other).

    Forfeits already answered by a ban (those up to its start) do not count
    again, so one bad week gives one ban, lifted or not.
    """
    guild_id, user_id, at = forfeit.guild_id, forfeit.user_id, forfeit.at
    # Forfeits of one person saved at once are counted one after the other:
    # each sees the others, so the third bans once, not twice or never.
    await conn.lock(f"forfeits:{guild_id}:{user_id}")
    inserted = await conn.execute(
        "INSERT INTO forfeits (game_id, guild_id, user_id, kind, at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (game_id, user_id) DO NOTHING",
        (forfeit.game_id, guild_id, user_id, forfeit.kind, to_db(at)),
    )
    if inserted == 0:
        return ForfeitOutcome(recorded=False, ban=None)
    if await _counting_forfeits(conn, guild_id, user_id, at) < FORFEITS_FOR_BAN:
        return ForfeitOutcome(recorded=True, ban=None)
    if await _active(conn, guild_id, user_id, at) is not None:
        return ForfeitOutcome(recorded=True, ban=None)
    return ForfeitOutcome(recorded=True, ban=await _insert_ban(conn, guild_id, user_id, at))


def log_ban(ban: Ban) -> None:
    log.info("guild %s: user %s banned from public tables until %s",
             ban.guild_id, ban.user_id, ban.until)


async def forfeits_in_window(
    db: Database, guild_id: int, user_id: int, now: datetime, days: int = 7
) -> list[Forfeit]:
    """The user's forfeits in (now - days, now], oldest first."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT game_id, guild_id, user_id, kind, at FROM forfeits"
            " WHERE guild_id = ? AND user_id = ? AND at > ? AND at <= ? ORDER BY at, id",
            (guild_id, user_id, to_db(now - timedelta(days=days)), to_db(now)),
        )
    return [
        Forfeit(row["game_id"], row["guild_id"], row["user_id"], row["kind"], from_db(row["at"]))
        for row in rows
    ]


async def standing(db: Database, guild_id: int, user_id: int, now: datetime) -> Standing:
    """How many of the user's forfeits count toward a ban at `now`, and their ban."""
    async with db.read() as conn:
        return Standing(await _counting_forfeits(conn, guild_id, user_id, now),
                        await _active(conn, guild_id, user_id, now))


async def untold(db: Database) -> list[tuple[int, int]]:
    """(guild, user) of everyone with a notice not yet told."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT DISTINCT guild_id, user_id FROM bans WHERE {_UNTOLD}")
    return [(int(row["guild_id"]), int(row["user_id"])) for row in rows]


async def untold_for(db: Database, guild_id: int, user_id: int) -> list[Notice]:
    """The user's notices not yet told, oldest first (a start before its lifting)."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {_BAN_COLUMNS}, start_told_at, lift_told_at FROM bans"
            f" WHERE guild_id = ? AND user_id = ? AND ({_UNTOLD}) ORDER BY since, id",
            (guild_id, user_id))
    notices: list[Notice] = []
    for row in rows:
        ban = _ban(row)
        if row["start_told_at"] is None:
            notices.append(Notice(ban, "start"))
        if ban.lifted_at is not None and row["lift_told_at"] is None:
            notices.append(Notice(ban, "lift"))
    return notices


async def mark_told(db: Database, notices: Sequence[Notice], now: datetime) -> None:
    """The notices were told (each only once: a told one stays told)."""
    async with db.transaction() as conn:
        for notice in notices:
            column = "start_told_at" if notice.kind == "start" else "lift_told_at"
            await conn.execute(
                f"UPDATE bans SET {column} = ? WHERE id = ? AND {column} IS NULL",
                (to_db(now), notice.ban.id))


async def active_ban(db: Database, guild_id: int, user_id: int, now: datetime) -> Ban | None:
    """The ban keeping the user from public tables at `now`, if any."""
    async with db.read() as conn:
        return await _active(conn, guild_id, user_id, now)


async def list_bans(db: Database, guild_id: int, now: datetime) -> list[Ban]:
    """The guild's bans in force at `now`, ending soonest first."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {_BAN_COLUMNS} FROM bans WHERE guild_id = ? AND lifted_at IS NULL"
            " AND since <= ? AND until > ? ORDER BY until, id",
            (guild_id, to_db(now), to_db(now)),
        )
    return [_ban(row) for row in rows]


async def lift_ban(db: Database, guild_id: int, user_id: int, by: int, now: datetime) -> Ban | None:
    """Lift the user's ban in force at `now`; returns it lifted, or None if there was none."""
    async with db.transaction() as conn:
        ban = await _active(conn, guild_id, user_id, now)
        if ban is None:
            return None
        await conn.execute(
            "UPDATE bans SET lifted_by = ?, lifted_at = ? WHERE id = ?", (by, to_db(now), ban.id)
        )
    log.info("guild %s: ban of user %s lifted by %s", guild_id, user_id, by)
    return Ban(ban.id, guild_id, user_id, ban.since, ban.until, by, now)


_BAN_COLUMNS = "id, guild_id, user_id, since, until, lifted_by, lifted_at"
# A ban whose start, or whose lifting, its player has not been told of.
_UNTOLD = "start_told_at IS NULL OR (lifted_at IS NOT NULL AND lift_told_at IS NULL)"


async def _counting_forfeits(
    conn: Connection, guild_id: int, user_id: int, at: datetime
) -> int:
    rows = list(
        await conn.execute_fetchall(
            "SELECT COUNT(*) FROM forfeits WHERE guild_id = ? AND user_id = ? AND at <= ?"
            " AND at > ? AND at > COALESCE((SELECT MAX(since) FROM bans"
            "  WHERE guild_id = ? AND user_id = ? AND since <= ?), '')",
            (guild_id, user_id, to_db(at), to_db(at - WINDOW), guild_id, user_id, to_db(at)),
        )
    )
    return int(rows[0][0])


async def _active(
    conn: Connection, guild_id: int, user_id: int, now: datetime
) -> Ban | None:
    rows = list(
        await conn.execute_fetchall(
            f"SELECT {_BAN_COLUMNS} FROM bans WHERE guild_id = ? AND user_id = ?"
            " AND lifted_at IS NULL AND since <= ? AND until > ? ORDER BY until DESC LIMIT 1",
            (guild_id, user_id, to_db(now), to_db(now)),
        )
    )
    return _ban(rows[0]) if rows else None


async def _insert_ban(
    conn: Connection, guild_id: int, user_id: int, since: datetime
) -> Ban:
    until = since + BAN_LENGTH
    rows = await conn.execute_fetchall(
        "INSERT INTO bans (guild_id, user_id, since, until) VALUES (?, ?, ?, ?) RETURNING id",
        (guild_id, user_id, to_db(since), to_db(until)),
    )
    ban_id = int(rows[0][0])
    return Ban(ban_id, guild_id, user_id, since, until, None, None)


def _ban(row: Row) -> Ban:
    return Ban(
        id=row["id"],
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        since=from_db(row["since"]),
        until=from_db(row["until"]),
        lifted_by=row["lifted_by"],
        lifted_at=from_db_opt(row["lifted_at"]),
    )
