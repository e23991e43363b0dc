"""Openskill ratings (Plackett-Luce), per guild and user.

Only people are rated; computer players are not in the model. The rating a
player sees, and the order of the leaderboard, is the ordinal, mu - 3 sigma:
a cautious estimate of skill. A newcomer starts at 0 and climbs as the
rating grows surer, so in the first games it rises even after a loss: it
means little until PROVISIONAL_GAMES rated games are played. Until then a
player is "unrated" (stats, the end of a game) and not on the leaderboard.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from data.sql import Connection

log = logging.getLogger(__name__)

_MODEL = PlackettLuce()
# Rated games before a rating is shown and a player is on the leaderboard.
PROVISIONAL_GAMES = 3


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
    games: int  # rated games with this one

    @property
    def shown(self) -> bool:
        """Whether the rating after this game means something (PROVISIONAL_GAMES)."""
        return self.games >= PROVISIONAL_GAMES


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
    current = [await _current(conn, guild_id, user) for user in users]
    before = [rating for rating, _ in current]
    after = rate(before, [places[user] for user in users])
    await conn.executemany(
        "INSERT INTO player_stats (guild_id, user_id, mu, sigma, rated_games)"
        " VALUES (?, ?, ?, ?, 1) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, rated_games = player_stats.rated_games + 1",
        [(guild_id, user, new.mu, new.sigma) for user, new in zip(users, after, strict=True)],
    )
    return [RatingChange(u, b, a, games + 1)
            for u, (b, games), a in zip(users, current, after, strict=True)]


async def _current(conn: Connection, guild_id: int, user_id: int) -> tuple[Rating, int]:
    """The rating and the number of rated games so far."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT mu, sigma, rated_games FROM player_stats WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
    )
    if not rows:
        return DEFAULT_RATING, 0
    return Rating(rows[0]["mu"], rows[0]["sigma"]), int(rows[0]["rated_games"])
