"""Factories for the data tests: games in the lobby, in play and finished."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from data.db import Database
from data.games import Game, Seat, SeatResult, create_game, start_game
from data.stats import StatsDelta, finish_game

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
GUILD = 1000
CHANNEL = 2000
_channels = itertools.count(CHANNEL + 1)  # one open table per channel (migration 0005)
DEAL = {"hands": [["7C", "8D", "9D", "AC"], ["8C", "7H", "8H", "9S"]], "stock": ["10C"]}


def human_seats(users: Sequence[int]) -> list[Seat]:
    return [Seat(seat=i, name=f"user{user}", user_id=user) for i, user in enumerate(users)]


async def lobby(
    db: Database, users: Sequence[int] = (1, 2), *, guild: int = GUILD, public: bool = True
) -> Game:
    return await create_game(
        db,
        guild_id=guild,
        channel_id=next(_channels),
        host_id=users[0],
        public=public,
        rules={"limit": 15, "max_stake": None},
        seed=42,
        now=NOW,
        seats=human_seats(users),
    )


async def playing(
    db: Database,
    users: Sequence[int] = (1, 2),
    *,
    guild: int = GUILD,
    computers: int = 0,
    now: datetime = NOW,
) -> Game:
    game = await lobby(db, users, guild=guild)
    seats = human_seats(users) + [
        Seat(seat=len(users) + i, name=f"bot{i}", computer="normal") for i in range(computers)
    ]
    return await start_game(db, game.id, seats=seats, first_leader=0, now=now)


def results_by_place(places: Sequence[int]) -> list[SeatResult]:
    return [
        SeatResult(seat=i, marks=0 if place == 1 else 15, place=place)
        for i, place in enumerate(places)
    ]


async def finished(
    db: Database,
    users: Sequence[int],
    places: Sequence[int],
    *,
    guild: int = GUILD,
    rated: bool = True,
    minutes: int = 0,
) -> Game:
    """A finished game between people; `places` by seat, 1 best."""
    game = await playing(db, users, guild=guild)
    deltas = {
        user: StatsDelta(games=1, wins=int(place == 1), rounds=4, marks=4 * (place - 1))
        for user, place in zip(users, places, strict=True)
    }
    when = NOW + timedelta(minutes=minutes)
    await finish_game(db, game.id, results_by_place(places), deltas, rated, when)
    return game


async def until_blocked(db: Database, other: asyncio.Task[Any]) -> None:
    """Wait until `other` waits for a lock held by this test's open transaction.

    On PostgreSQL, `other` runs on a connection of its own and waits inside the
    server (a lock not granted). SQLite has one connection, which `other` can
    only wait for: a few turns of the loop bring it there."""
    if db.dialect.name != "postgresql":
        for _ in range(20):
            await asyncio.sleep(0)
        return
    async def waiting() -> int:  # a task of its own: this one holds a connection
        async with db.read() as conn:
            rows = await conn.execute_fetchall("SELECT COUNT(*) FROM pg_locks WHERE NOT granted")
        return int(rows[0][0])

    while not other.done() and not await asyncio.create_task(waiting()):
        await asyncio.sleep(0.01)
