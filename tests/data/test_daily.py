"""Toep van de dag's data, on both backends: settings, days, boards, streaks,
the closing of a day."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from data.daily import (
    DailyPlayer,
    DailySettings,
    PlayedBoard,
    all_events,
    boards_of,
    close_day,
    current_day,
    day_scores,
    due_days,
    get_day,
    get_player,
    get_settings,
    last_closed,
    open_day,
    open_tournament,
    played_days,
    ratings_of,
    save_board,
    set_channel,
    set_par,
    set_time_zone,
)
from data.db import Database
from tests.data.helpers import GUILD

NOON = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
CLOSES = datetime(2026, 12, 5, 0, 0, tzinfo=UTC)
EVENTS: list[dict[str, object]] = [{"do": "close_window"}]


async def test_settings_default_to_utc_and_no_channel(db: Database) -> None:
    assert await get_settings(db, GUILD) == DailySettings(GUILD)
    await set_time_zone(db, GUILD, "Europe/Amsterdam")
    await set_channel(db, GUILD, 77)
    assert await get_settings(db, GUILD) == DailySettings(GUILD, "Europe/Amsterdam", 77)
    await set_channel(db, GUILD, None)
    assert (await get_settings(db, GUILD)).channel_id is None


async def test_a_day_opens_once_whoever_comes_second(db: Database) -> None:
    first = await open_day(db, GUILD, "2026-12-04", "seed-a", "hash-a", 2, CLOSES)
    second = await open_day(db, GUILD, "2026-12-04", "seed-b", "hash-b", 2, CLOSES)
    assert first == second and first.seed == "seed-a" and first.closes_at == CLOSES
    assert await get_day(db, GUILD, "2026-12-04") == first
    assert await get_day(db, GUILD, "2026-12-05") is None
    assert await current_day(db, GUILD, NOON) == first
    assert await current_day(db, GUILD, CLOSES) is None
    await set_par(db, GUILD, "2026-12-04", [[1, 3], [-1]])
    assert (await get_day(db, GUILD, "2026-12-04")).par == [[1, 3], [-1]]  # type: ignore[union-attr]
    assert await due_days(db, NOON) == []
    assert [d.day for d in await due_days(db, CLOSES + timedelta(seconds=1))] == ["2026-12-04"]


async def test_boards_scores_and_the_streak(db: Database) -> None:
    day = await open_day(db, GUILD, "2026-12-04", "s", "h", 2, CLOSES)
    assert await save_board(db, day, 1, PlayedBoard(0, "anna", EVENTS, None), NOON)
    assert await save_board(db, day, 1, PlayedBoard(0, "anna", EVENTS * 2, 3), NOON)
    assert await day_scores(db, day) == {}  # one board of two
    assert await save_board(db, day, 1, PlayedBoard(1, "anna", EVENTS, -1), NOON, finished_day=True)
    assert await save_board(db, day, 2, PlayedBoard(0, "bram", EVENTS, 5), NOON)
    assert await boards_of(db, GUILD, "2026-12-04", 1) == [
        PlayedBoard(0, "anna", EVENTS * 2, 3), PlayedBoard(1, "anna", EVENTS, -1)]
    assert await day_scores(db, day) == {1: ("anna", [3, -1])}
    assert (await all_events(db, day, [1]))[1] == [EVENTS * 2, EVENTS]
    assert await get_player(db, GUILD, 1) == DailyPlayer(1500.0, 1, 1, 1, "2026-12-04")
    # the next day in a row grows the streak; a gap starts it again
    nxt = await open_day(db, GUILD, "2026-12-05", "s2", "h2", 1, CLOSES + timedelta(days=1))
    await save_board(db, nxt, 1, PlayedBoard(0, "anna", EVENTS, 0), NOON, finished_day=True)
    assert (await get_player(db, GUILD, 1)).streak == 2
    later = await open_day(db, GUILD, "2026-12-09", "s3", "h3", 1, CLOSES + timedelta(days=5))
    await save_board(db, later, 1, PlayedBoard(0, "anna", EVENTS, 0), NOON, finished_day=True)
    player = await get_player(db, GUILD, 1)
    assert (player.days, player.streak, player.best_streak) == (3, 1, 2)
    days = await played_days(db, GUILD, 1)
    assert [(d, c) for d, c, _ in days] == [("2026-12-09", False), ("2026-12-05", False),
                                           ("2026-12-04", False)]
    assert days[-1][2] == [3, -1]


async def test_a_closed_day_takes_no_more_boards_and_closes_once(db: Database) -> None:
    day = await open_day(db, GUILD, "2026-12-04", "s", "h", 1, CLOSES)
    await save_board(db, day, 1, PlayedBoard(0, "anna", EVENTS, 3), NOON, finished_day=True)
    assert await ratings_of(db, GUILD, [1, 2]) == {1: 1500.0, 2: 1500.0}
    assert await close_day(db, day, {1: 1512.5})
    assert not await close_day(db, day, {1: 1600.0})
    assert (await get_player(db, GUILD, 1)).rating == 1512.5
    assert not await save_board(db, day, 2, PlayedBoard(0, "bram", EVENTS, 1), NOON)
    # nor once its end has come, closed or not
    other = await open_day(db, GUILD, "2026-12-06", "s4", "h4", 1, CLOSES + timedelta(days=2))
    assert not await save_board(db, other, 2, PlayedBoard(0, "bram", EVENTS, 1),
                                CLOSES + timedelta(days=2))
    assert await boards_of(db, GUILD, "2026-12-04", 2) == []
    closed = await last_closed(db, GUILD)
    assert closed is not None and closed.closed and closed.seed == "s"


async def test_one_tournament_at_a_time_beside_the_day(db: Database) -> None:
    day = await open_day(db, GUILD, "2026-12-04", "s", "h", 2, CLOSES)
    first = await open_tournament(db, GUILD, "tournament-1", "ts", "th", 3, NOON,
                                  NOON + timedelta(hours=2), 55)
    assert first is not None and first.tournament and first.channel_id == 55
    assert not day.tournament and first.boards == 3
    assert await open_tournament(db, GUILD, "tournament-2", "x", "y", 1, NOON,
                                 NOON + timedelta(hours=1), 55) is None
    assert await current_day(db, GUILD, NOON) == day
    assert await current_day(db, GUILD, NOON, "tournament") == first
    # once its window has passed, another may open
    later = NOON + timedelta(hours=3)
    assert await current_day(db, GUILD, later, "tournament") is None
    second = await open_tournament(db, GUILD, "tournament-2", "x", "y", 1, later,
                                   later + timedelta(hours=1), 56)
    assert second is not None and second.day == "tournament-2"
    assert await close_day(db, first, {})
    assert await last_closed(db, GUILD) is None  # the days' seeds only
