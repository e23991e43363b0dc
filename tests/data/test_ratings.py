from __future__ import annotations

import asyncio

import pytest

from data.db import Database
from data.ratings import DEFAULT_RATING, Rating, RatingChange, rate, update_ratings
from tests.data.helpers import GUILD, until_blocked


def test_winner_rises_loser_falls() -> None:
    winner, loser = rate([DEFAULT_RATING, DEFAULT_RATING], [1, 2])
    assert winner.mu > DEFAULT_RATING.mu > loser.mu
    assert winner.sigma < DEFAULT_RATING.sigma and loser.sigma < DEFAULT_RATING.sigma


def test_places_order_the_changes() -> None:
    after = rate([DEFAULT_RATING] * 4, [1, 2, 3, 4])
    assert after[0].mu > after[1].mu > after[2].mu > after[3].mu


def test_ties_move_equally() -> None:
    after = rate([DEFAULT_RATING] * 3, [1, 2, 2])
    assert after[1] == after[2]


def test_upset_moves_more_than_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    expected = rate([strong, weak], [1, 2])
    upset = rate([strong, weak], [2, 1])
    assert upset[1].mu - weak.mu > expected[0].mu - strong.mu > 0


def test_ordinal() -> None:
    assert Rating(30.0, 2.0).ordinal == pytest.approx(24.0)
    assert DEFAULT_RATING.ordinal == pytest.approx(0.0)


async def _rated(db: Database, places: dict[int, int]) -> list[RatingChange]:
    async with db.transaction() as conn:
        return await update_ratings(conn, GUILD, places)


async def test_games_finishing_at_once_rate_the_second_from_the_first(db: Database) -> None:
    async with db.transaction() as conn:  # the first, not yet committed
        first = await update_ratings(conn, GUILD, {1: 1, 2: 2})
        second = asyncio.create_task(_rated(db, {1: 2, 2: 1}))
        await until_blocked(db, second)
    assert [change.before for change in await second] == [change.after for change in first]
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT rated_games FROM player_stats")
    assert [row[0] for row in rows] == [2, 2]
