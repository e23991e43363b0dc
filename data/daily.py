"""Toep van de dag: a server's daily settings, its days, its members' boards
and their daily figures (the duplicate rating, days, streaks), kept apart
from the tables' games and ratings."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from data.db import Database
from data.sql import Connection, Row

log = logging.getLogger(__name__)

START_RATING = 1500.0


@dataclass(frozen=True)
class DailySettings:
    guild_id: int
    time_zone: str = "UTC"
    channel_id: int | None = None


@dataclass(frozen=True)
class Day:
    """A server's day, or a tournament (`kind`): the same boards, its own seed."""

    guild_id: int
    day: str  # YYYY-MM-DD in the server's time zone; "tournament-..." for a tournament
    seed: str  # secret until `closed`
    commitment: str
    boards: int
    closes_at: datetime
    par: list[list[int]] | None
    closed: bool
    kind: str = "day"
    channel_id: int | None = None  # a tournament's results channel

    @property
    def tournament(self) -> bool:
        return self.kind == "tournament"


@dataclass(frozen=True)
class PlayedBoard:
    board: int
    name: str
    events: list[dict[str, object]]
    score: int | None


@dataclass(frozen=True)
class DailyPlayer:
    rating: float = START_RATING
    days: int = 0
    streak: int = 0
    best_streak: int = 0
    last_day: str | None = None


def stamp(when: datetime) -> str:
    """A moment (timezone-aware) as stored: UTC in one format, so the text
    sorts as the time does."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


async def get_settings(db: Database, guild_id: int) -> DailySettings:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT time_zone, channel_id FROM daily_settings WHERE guild_id = ?", (guild_id,))
    if not rows:
        return DailySettings(guild_id)
    return DailySettings(guild_id, rows[0][0], rows[0][1])


async def set_time_zone(db: Database, guild_id: int, time_zone: str) -> None:
    """The server's day runs in `time_zone` (an IANA name, checked by the caller)."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO daily_settings (guild_id, time_zone) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET time_zone = excluded.time_zone",
            (guild_id, time_zone))


async def set_channel(db: Database, guild_id: int, channel_id: int | None) -> None:
    """Where a closing day's results go; None: nowhere."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO daily_settings (guild_id, channel_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id",
            (guild_id, channel_id))


_DAY_COLUMNS = ("guild_id, day, seed, commitment, boards, closes_at, par, closed, kind,"
                " channel_id")


def _day(row: Row) -> Day:
    par = row["par"]
    return Day(row["guild_id"], row["day"], row["seed"], row["commitment"], row["boards"],
               datetime.fromisoformat(row["closes_at"].replace("Z", "+00:00")),
               None if par is None else json.loads(par), bool(row["closed"]), row["kind"],
               row["channel_id"])


async def open_day(db: Database, guild_id: int, day: str, seed: str, commitment: str,
                   boards: int, closes_at: datetime) -> Day:
    """The server's `day`, opened with this seed unless it was already open
    (two members racing to open it get the same day)."""
    async with db.transaction() as conn:
        await conn.execute(
            f"INSERT INTO daily_days ({_DAY_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, NULL, 0, 'day', NULL)"
            " ON CONFLICT (guild_id, day) DO NOTHING",
            (guild_id, day, seed, commitment, boards, stamp(closes_at)))
        rows = await conn.execute_fetchall(
            f"SELECT {_DAY_COLUMNS} FROM daily_days WHERE guild_id = ? AND day = ?",
            (guild_id, day))
    return _day(rows[0])


async def get_day(db: Database, guild_id: int, day: str) -> Day | None:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {_DAY_COLUMNS} FROM daily_days WHERE guild_id = ? AND day = ?",
            (guild_id, day))
    return _day(rows[0]) if rows else None


async def current_day(db: Database, guild_id: int, now: datetime, kind: str = "day"
                      ) -> Day | None:
    """The server's day (or tournament) open at `now`: not closed, not past its end."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {_DAY_COLUMNS} FROM daily_days WHERE guild_id = ? AND kind = ?"
            " AND closed = 0 AND closes_at > ? ORDER BY closes_at LIMIT 1",
            (guild_id, kind, stamp(now)))
    return _day(rows[0]) if rows else None


async def open_tournament(db: Database, guild_id: int, key: str, seed: str, commitment: str,
                          boards: int, now: datetime, closes_at: datetime,
                          channel_id: int) -> Day | None:
    """A tournament, unless one is open in the server already (None)."""
    async with db.transaction() as conn:
        busy = await conn.execute_fetchall(
            "SELECT 1 FROM daily_days WHERE guild_id = ? AND kind = 'tournament'"
            " AND closed = 0 AND closes_at > ?", (guild_id, stamp(now)))
        if busy:
            return None
        await conn.execute(
            f"INSERT INTO daily_days ({_DAY_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, NULL, 0, 'tournament', ?)",
            (guild_id, key, seed, commitment, boards, stamp(closes_at), channel_id))
        rows = await conn.execute_fetchall(
            f"SELECT {_DAY_COLUMNS} FROM daily_days WHERE guild_id = ? AND day = ?",
            (guild_id, key))
    return _day(rows[0])


async def last_closed(db: Database, guild_id: int) -> Day | None:
    """The server's most recent closed day (its seed is public)."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {_DAY_COLUMNS} FROM daily_days WHERE guild_id = ? AND closed = 1"
            " AND kind = 'day' ORDER BY day DESC LIMIT 1", (guild_id,))
    return _day(rows[0]) if rows else None


async def due_days(db: Database, now: datetime) -> list[Day]:
    """Open days whose end has come, oldest first."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {_DAY_COLUMNS} FROM daily_days WHERE closed = 0 AND closes_at <= ?"
            " ORDER BY closes_at", (stamp(now),))
    return [_day(r) for r in rows]


async def unposted_days(db: Database) -> list[Day]:
    """Closed days whose results have not reached their channel yet, oldest first."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            f"SELECT {_DAY_COLUMNS} FROM daily_days WHERE closed = 1 AND posted = 0"
            " ORDER BY closes_at")
    return [_day(r) for r in rows]


async def mark_posted(db: Database, day: Day) -> None:
    async with db.transaction() as conn:
        await conn.execute("UPDATE daily_days SET posted = 1 WHERE guild_id = ? AND day = ?",
                           (day.guild_id, day.day))


async def set_par(db: Database, guild_id: int, day: str, par: list[list[int]]) -> None:
    async with db.transaction() as conn:
        await conn.execute("UPDATE daily_days SET par = ? WHERE guild_id = ? AND day = ?",
                           (json.dumps(par), guild_id, day))


async def boards_of(db: Database, guild_id: int, day: str, user_id: int) -> list[PlayedBoard]:
    """A member's boards of the day begun so far, in order."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT board, name, events, score FROM daily_boards"
            " WHERE guild_id = ? AND day = ? AND user_id = ? ORDER BY board",
            (guild_id, day, user_id))
    return [PlayedBoard(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]


async def save_board(db: Database, day: Day, user_id: int, board: PlayedBoard, now: datetime,
                     finished_day: bool = False) -> bool:
    """Save a board's events (and score), refused (False) once the day is
    closed or its end has come. `finished_day`: it was the member's last
    board, so their days and streak move on in the same transaction."""
    async with db.transaction() as conn:
        open_rows = await conn.execute_fetchall(
            "SELECT closed FROM daily_days WHERE guild_id = ? AND day = ? AND closes_at > ?",
            (day.guild_id, day.day, stamp(now)))
        if not open_rows or open_rows[0][0]:
            return False
        await conn.execute(
            "INSERT INTO daily_boards (guild_id, day, user_id, board, name, events, score)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, day, user_id, board)"
            " DO UPDATE SET events = excluded.events, score = excluded.score",
            (day.guild_id, day.day, user_id, board.board, board.name,
             json.dumps(board.events), board.score))
        if finished_day:
            await _count_day(conn, day, user_id)
    return True


async def _count_day(conn: Connection, day: Day, user_id: int) -> None:
    rows = await conn.execute_fetchall(
        "SELECT streak, best_streak, last_day FROM daily_players"
        " WHERE guild_id = ? AND user_id = ?", (day.guild_id, user_id))
    streak = 1
    if rows and rows[0][2] is not None and _day_before(day.day) == rows[0][2]:
        streak = rows[0][0] + 1
    best = max(streak, rows[0][1] if rows else 0)
    await conn.execute(
        "INSERT INTO daily_players (guild_id, user_id, days, streak, best_streak, last_day)"
        " VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " days = daily_players.days + 1, streak = excluded.streak,"
        " best_streak = excluded.best_streak, last_day = excluded.last_day",
        (day.guild_id, user_id, streak, best, day.day))


def _day_before(day: str) -> str:
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


async def day_scores(db: Database, day: Day) -> dict[int, tuple[str, list[int]]]:
    """Every member who finished all the day's boards: name and scores."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT user_id, board, name, score FROM daily_boards"
            " WHERE guild_id = ? AND day = ? AND score IS NOT NULL ORDER BY user_id, board",
            (day.guild_id, day.day))
    found: dict[int, tuple[str, list[int]]] = {}
    for user_id, _board, name, score in rows:
        found.setdefault(user_id, (name, []))[1].append(score)
    return {u: v for u, v in found.items() if len(v[1]) == day.boards}


async def all_events(db: Database, day: Day, user_ids: Sequence[int]
                     ) -> dict[int, list[list[dict[str, object]]]]:
    """The finished members' events, board by board (the closing message's
    telling board)."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT user_id, events FROM daily_boards WHERE guild_id = ? AND day = ?"
            " ORDER BY user_id, board", (day.guild_id, day.day))
    wanted = set(user_ids)
    out: dict[int, list[list[dict[str, object]]]] = {}
    for user_id, events in rows:
        if user_id in wanted:
            out.setdefault(user_id, []).append(json.loads(events))
    return out


async def get_player(db: Database, guild_id: int, user_id: int) -> DailyPlayer:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT rating, days, streak, best_streak, last_day FROM daily_players"
            " WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
    if not rows:
        return DailyPlayer()
    r = rows[0]
    return DailyPlayer(float(r[0]), r[1], r[2], r[3], r[4])


async def ratings_of(db: Database, guild_id: int, user_ids: Sequence[int]) -> dict[int, float]:
    out = dict.fromkeys(user_ids, START_RATING)
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT user_id, rating FROM daily_players WHERE guild_id = ?", (guild_id,))
    for user_id, rating in rows:
        if user_id in out:
            out[user_id] = float(rating)
    return out


async def close_day(db: Database, day: Day, ratings: Mapping[int, float]) -> bool:
    """Close the day and set the new duplicate ratings, in one transaction;
    False if it was closed already (by another process or call)."""
    async with db.transaction() as conn:
        changed = await conn.execute(
            "UPDATE daily_days SET closed = 1, posted = 0"
            " WHERE guild_id = ? AND day = ? AND closed = 0",
            (day.guild_id, day.day))
        if not changed:
            return False
        for user_id, rating in ratings.items():
            await conn.execute(
                "UPDATE daily_players SET rating = ? WHERE guild_id = ? AND user_id = ?",
                (rating, day.guild_id, user_id))
    return True


async def played_days(db: Database, guild_id: int, user_id: int, limit: int = 10
                      ) -> list[tuple[str, bool, list[int | None]]]:
    """A member's days, newest first: the day, whether it is closed, and
    their score on each board begun."""
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT b.day, d.closed, b.score FROM daily_boards b JOIN daily_days d"
            " ON d.guild_id = b.guild_id AND d.day = b.day"
            " WHERE b.guild_id = ? AND b.user_id = ? ORDER BY b.day DESC, b.board",
            (guild_id, user_id))
    out: list[tuple[str, bool, list[int | None]]] = []
    for day, closed, score in rows:
        if not out or out[-1][0] != day:
            if len(out) == limit:
                break
            out.append((day, bool(closed), []))
        out[-1][2].append(score)
    return out
