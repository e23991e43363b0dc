"""The guild leaderboard: people with enough rated games, best ordinal first.

It reads only player_stats (one row per person) along the index
(guild_id, ordinal DESC, user_id), so its cost does not grow with the number
of games played. Equal ratings share a place (data/places.py), as equal
marks do in a game's standings.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from data.db import Database
from data.places import shared_places
from data.sql import Connection

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LeaderboardRow:
    rank: int  # 1 = top; equal ratings share a rank
    user_id: int
    ordinal: float  # mu - 3 sigma: the order of the board
    mu: float
    sigma: float
    games: int
    wins: int
    win_share: float  # wins / games
    marks_per_round: float | None  # None before any round was counted
    rated_games: int


def _eligible(min_games: int) -> int:
    # nobody is ranked on a rating no game has touched
    return max(min_games, 1)


async def leaderboard(
    db: Database, guild_id: int, *, min_games: int = 1, limit: int = 10, offset: int = 0
) -> list[LeaderboardRow]:
    """One page of the leaderboard: people with at least min_games rated games."""
    if limit < 0 or offset < 0:
        raise ValueError("limit and offset cannot be negative")
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT user_id, ordinal, mu, sigma, games, wins, rounds, marks, rated_games"
            " FROM player_stats WHERE guild_id = ? AND rated_games >= ?"
            " ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, _eligible(min_games), limit, offset),
        )
        rows = list(rows)
        # The page's first row may tie with the last of the page before.
        first = (await _above(conn, guild_id, rows[0]["ordinal"], min_games) + 1
                 if rows and offset else None)
    ranks = shared_places([row["ordinal"] for row in rows], before=offset, first_place=first)
    return [
        LeaderboardRow(
            rank=ranks[i],
            user_id=row["user_id"],
            ordinal=row["ordinal"],
            mu=row["mu"],
            sigma=row["sigma"],
            games=row["games"],
            wins=row["wins"],
            win_share=row["wins"] / row["games"] if row["games"] else 0.0,
            marks_per_round=row["marks"] / row["rounds"] if row["rounds"] else None,
            rated_games=row["rated_games"],
        )
        for i, row in enumerate(rows)
    ]


async def leaderboard_count(db: Database, guild_id: int, *, min_games: int = 1) -> int:
    """How many people the leaderboard lists (for paging)."""
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall(
                "SELECT COUNT(*) FROM player_stats WHERE guild_id = ? AND rated_games >= ?",
                (guild_id, _eligible(min_games)),
            )
        )
    return int(rows[0][0])


async def board_rank(
    conn: Connection,
    guild_id: int,
    ordinal: float,
    rated_games: int,
    min_games: int,
) -> int | None:
    """The person's rank on the board (as the leaderboard shows it: a tie
    shares the rank), or None if not on it."""
    if rated_games < _eligible(min_games):
        return None
    return await _above(conn, guild_id, ordinal, min_games) + 1


async def _above(conn: Connection, guild_id: int, ordinal: float, min_games: int) -> int:
    """How many on the board are rated higher than `ordinal`."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT COUNT(*) FROM player_stats WHERE guild_id = ? AND rated_games >= ?"
            " AND ordinal > ?",
            (guild_id, _eligible(min_games), ordinal),
        )
    )
    return int(rows[0][0])
