"""Openskill ratings (Plackett-Luce), per guild and user.

Only people are rated; computer players are not in the model. The order of
players on the leaderboard is the ordinal, mu - 3 sigma: a newcomer starts at
0 and climbs as the rating grows surer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from data.sql import Connection

log = logging.getLogger(__name__)

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    before: Rating
    after: Rating


DEFAULT_RATING = Rating(mu=_MODEL.mu, sigma=_MODEL.sigma)


def rate(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """New ratings after one game; place 1 is best, equal places are ties."""
    if len(ratings) != len(places):
        raise ValueError("one place per rating")
    if len(ratings) < 2:
        return list(ratings)
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Rating(mu=team[0].mu, sigma=team[0].sigma) for team in rated]


async def update_ratings(
    conn: Connection, guild_id: int, places: Mapping[int, int]
) -> list[RatingChange]:
    """Rate one game of the people in `places` (user -> place), in the caller's transaction."""
    users = sorted(places)
    if len(users) < 2:
        return []  # nobody to be measured against
    # Two games of the same people finishing at once: the second rates from
    # the first's result, never from what both read before either wrote.
    await conn.lock(f"ratings:{guild_id}")
    before = [await _current(conn, guild_id, user) for user in users]
    after = rate(before, [places[user] for user in users])
    await conn.executemany(
        "INSERT INTO player_stats (guild_id, user_id, mu, sigma, rated_games)"
        " VALUES (?, ?, ?, ?, 1) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, rated_games = player_stats.rated_games + 1",
        [(guild_id, user, new.mu, new.sigma) for user, new in zip(users, after, strict=True)],
    )
    return [RatingChange(u, b, a) for u, b, a in zip(users, before, after, strict=True)]


async def _current(conn: Connection, guild_id: int, user_id: int) -> Rating:
    rows = list(
        await conn.execute_fetchall(
            "SELECT mu, sigma FROM player_stats WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
    )
    return Rating(rows[0]["mu"], rows[0]["sigma"]) if rows else DEFAULT_RATING
