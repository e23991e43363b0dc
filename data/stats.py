"""Player stats per guild, and finishing a game: results, stats, ratings at once.

The leaderboard queries live in data.leaderboard and are re-exported here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass, fields
from datetime import datetime

from data import ratings
from data.db import Database
from data.games import write_results
from data.gamevalues import SeatResult, require_status
from data.leaderboard import board_rank, leaderboard, leaderboard_count
from data.ratings import DEFAULT_RATING, Rating, RatingChange
from data.sql import Connection
from data.times import to_db

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class StatsDelta:
    """What one finished game adds to a person's stats; the caller counts it all."""

    games: int = 0
    wins: int = 0
    rounds: int = 0
    rounds_won: int = 0
    marks: int = 0  # marks taken
    toeps: int = 0
    toeps_won: int = 0  # the toeper won the round
    folds: int = 0
    vuile_was: int = 0  # vuile was called
    vuile_was_caught: int = 0  # checked and a bluff
    checks: int = 0
    checks_right: int = 0  # the check caught a bluff
    dead_man_rounds: int = 0
    dead_man_survived: int = 0

    def __post_init__(self) -> None:
        if any(value < 0 for value in astuple(self)):
            raise ValueError(f"stats deltas cannot be negative: {self}")


STAT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(StatsDelta))


@dataclass(frozen=True)
class PlayerStats:
    guild_id: int
    user_id: int
    totals: StatsDelta  # the sums over all finished games
    rating: Rating
    rated_games: int
    rank: int | None  # place on the leaderboard, None if not on it (min_games)


async def finish_game(
    db: Database,
    game_id: int,
    seats_results: Sequence[SeatResult],
    stats_deltas: Mapping[int, StatsDelta],
    rated: bool,
    now: datetime,
) -> list[RatingChange]:
    """Playing -> finished, in one transaction: seat results, stats, and ratings if rated.

    `seats_results` must cover every seat; `stats_deltas` is keyed by user id
    (people seated in the game only). Rated games rank the human seats by
    place (1 best, ties allowed). Returns the rating changes, if any.
    """
    async with db.transaction() as conn:
        game = await require_status(conn, game_id, ("playing",))
        seats = await _human_seats(conn, game_id)
        _check_results(game_id, seats, seats_results, stats_deltas)
        await write_results(conn, game_id, seats_results, seats)
        await conn.execute(
            "UPDATE games SET status = 'finished', rated = ?, finished_at = ? WHERE id = ?",
            (rated, to_db(now), game_id),
        )
        await add_stats(conn, game.guild_id, stats_deltas)
        if not rated:
            return []
        places = _human_places(seats, seats_results)
        return await ratings.update_ratings(conn, game.guild_id, places)


async def add_stats(
    conn: Connection, guild_id: int, deltas: Mapping[int, StatsDelta]
) -> None:
    """Add deltas to the users' stats inside the caller's transaction."""
    columns = ", ".join(STAT_FIELDS)
    marks = ", ".join("?" for _ in STAT_FIELDS)
    # PostgreSQL wants the stored row named: `name` alone could be either row.
    sums = ", ".join(f"{name} = player_stats.{name} + excluded.{name}" for name in STAT_FIELDS)
    await conn.executemany(
        f"INSERT INTO player_stats (guild_id, user_id, mu, sigma, {columns})"
        f" VALUES (?, ?, ?, ?, {marks}) ON CONFLICT (guild_id, user_id) DO UPDATE SET {sums}",
        [
            (guild_id, user, DEFAULT_RATING.mu, DEFAULT_RATING.sigma, *astuple(delta))
            for user, delta in sorted(deltas.items())
        ],
    )


async def player_stats(
    db: Database, guild_id: int, user_id: int, *, min_games: int = 1
) -> PlayerStats | None:
    """A person's stats and rating in a guild, with their leaderboard rank; None if never played."""
    async with db.read() as conn:
        rows = list(
            await conn.execute_fetchall(
                f"SELECT {', '.join(STAT_FIELDS)}, mu, sigma, ordinal, rated_games"
                " FROM player_stats WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
        )
        if not rows:
            return None
        row = rows[0]
        rating = Rating(row["mu"], row["sigma"])
        rank = await board_rank(conn, guild_id, row["ordinal"], row["rated_games"], min_games)
    totals = StatsDelta(**{name: row[name] for name in STAT_FIELDS})
    return PlayerStats(guild_id, user_id, totals, rating, row["rated_games"], rank)


async def _human_seats(conn: Connection, game_id: int) -> dict[int, int | None]:
    rows = await conn.execute_fetchall(
        "SELECT seat, user_id FROM seats WHERE game_id = ?", (game_id,)
    )
    return {row["seat"]: row["user_id"] for row in rows}


def _check_results(
    game_id: int,
    seats: Mapping[int, int | None],
    results: Sequence[SeatResult],
    deltas: Mapping[int, StatsDelta],
) -> None:
    if sorted(r.seat for r in results) != sorted(seats):
        raise ValueError(f"game {game_id}: results must cover seats {sorted(seats)} once each")
    strangers = set(deltas) - {user for user in seats.values() if user is not None}
    if strangers:
        raise ValueError(f"game {game_id}: stats for users not seated: {sorted(strangers)}")


def _human_places(seats: Mapping[int, int | None], results: Sequence[SeatResult]) -> dict[int, int]:
    places: dict[int, int] = {}
    for result in results:
        user = seats[result.seat]
        if user is None:
            continue
        if result.place is None:
            raise ValueError(f"seat {result.seat}: a rated game needs every person's place")
        places[user] = result.place
    return places


__all__ = [
    "STAT_FIELDS",
    "PlayerStats",
    "StatsDelta",
    "add_stats",
    "finish_game",
    "leaderboard",
    "leaderboard_count",
    "player_stats",
]
