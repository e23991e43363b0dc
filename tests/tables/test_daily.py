"""Toep van de dag's day in a time zone, and the duplicate rating (tables/daily.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from data.daily import Day, due_days, set_time_zone
from data.db import Database
from engine.duplicate import ranking
from tables.clock import FakeClock
from tables.daily import Daily, Standing, computer_names, day_at, new_ratings, zone, zone_name

GUILD = 4242


def test_the_day_runs_in_the_servers_time_zone() -> None:
    late = datetime(2026, 1, 5, 23, 30, tzinfo=UTC)
    assert day_at(late, "UTC") == ("2026-01-05", datetime(2026, 1, 6, tzinfo=UTC))
    # Amsterdam is an hour ahead in winter: its 6 January began at 23:00 UTC
    assert day_at(late, "Europe/Amsterdam") == ("2026-01-06",
                                                datetime(2026, 1, 6, 23, tzinfo=UTC))
    # summer time: two hours ahead
    assert day_at(datetime(2026, 7, 1, 21, 59, tzinfo=UTC), "Europe/Amsterdam")[0] == "2026-07-01"
    assert day_at(datetime(2026, 7, 1, 22, 0, tzinfo=UTC), "Europe/Amsterdam")[0] == "2026-07-02"


def test_a_name_that_is_no_time_zone_is_none() -> None:
    assert zone("Europe/Amsterdam") is not None
    assert zone_name(" europe/amsterdam ") == "Europe/Amsterdam" and zone_name("utc") == "UTC"
    for bad in ("Mars/Olympus", "", "../etc/passwd", "UTC\x00", "localtime", "x" * 300):
        assert zone(bad) is None and zone_name(bad) is None


def test_the_duplicate_rating_moves_with_the_day_against_the_field() -> None:
    rows = ranking({1: [5.0, 3.0], 2: [-1.0, -1.0], 3: [0.0, 0.0]})
    moved = new_ratings(rows, {1: 1500.0, 2: 1500.0, 3: 1500.0})
    assert moved[1] > 1500 > moved[2] and moved[3] == 1500.0
    assert abs(sum(moved.values()) - 4500) < 0.5
    # beating a far stronger field is worth more than beating a weaker one
    strong = new_ratings(rows, {1: 1500.0, 2: 1900.0, 3: 1900.0})
    assert strong[1] - 1500 > moved[1] - 1500
    assert new_ratings(ranking({1: [2.0]}), {1: 1432.0}) == {1: 1432.0}


def test_the_member_sits_at_the_boards_seat_among_the_computers() -> None:
    assert computer_names(2, "anna", ["c1", "c2", "c3"]) == ("c1", "c2", "anna", "c3")


async def test_a_new_time_zone_applies_from_the_next_day(db: Database) -> None:
    clock = FakeClock(datetime(2026, 1, 5, 23, 30, tzinfo=UTC))
    daily = Daily(db, clock, None, boards=1)
    first = await daily.today(GUILD)
    assert first.day == "2026-01-05" and first.closes_at == datetime(2026, 1, 6, tzinfo=UTC)
    await set_time_zone(db, GUILD, "Europe/Amsterdam")
    assert await daily.today(GUILD) == first  # the open day keeps its end
    await clock.advance(31 * 60)
    second = await daily.today(GUILD)
    assert second.day == "2026-01-06" and second.seed != first.seed
    assert second.closes_at == datetime(2026, 1, 6, 23, tzinfo=UTC)
    # moved back past a day already played: the next date opens, never the old one again
    await clock.advance(23 * 3600)
    await set_time_zone(db, GUILD, "America/New_York")
    third = await daily.today(GUILD)
    assert third.day == "2026-01-07"
    assert third.closes_at == datetime(2026, 1, 8, 5, tzinfo=UTC)


async def test_a_process_closes_only_the_days_of_its_own_servers(db: Database) -> None:
    clock = FakeClock(datetime(2026, 1, 5, 12, tzinfo=UTC))
    daily = Daily(db, clock, None, boards=1)
    mine, theirs = await daily.today(GUILD), await daily.today(GUILD + 1)
    await clock.advance(13 * 3600)
    closed = await daily.close_due(lambda guild_id: guild_id == GUILD)
    assert [c.day.guild_id for c in closed] == [GUILD]
    assert [d.guild_id for d in await due_days(db, clock.now())] == [theirs.guild_id]
    assert mine.day == theirs.day


async def test_a_day_that_cannot_close_holds_back_no_other_servers(
        db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock(datetime(2026, 1, 5, 12, tzinfo=UTC))
    daily = Daily(db, clock, None, boards=1)
    await set_time_zone(db, GUILD, "Europe/Amsterdam")  # its day ends first
    broken, fine = await daily.today(GUILD), await daily.today(GUILD + 1)
    standing = daily.standing

    async def failing(day: Day) -> Standing:
        if day.guild_id == GUILD:
            raise RuntimeError("a database hiccup")
        return await standing(day)
    monkeypatch.setattr(daily, "standing", failing)
    await clock.advance(13 * 3600)
    closed = await daily.close_due()
    assert [c.day.guild_id for c in closed] == [fine.guild_id]
    assert [d.day for d in await due_days(db, clock.now())] == [broken.day]
    assert "could not be closed" in caplog.text
    monkeypatch.setattr(daily, "standing", standing)
    assert [c.day.guild_id for c in await daily.close_due()] == [GUILD]  # the next tick


async def test_a_telling_board_that_fails_still_posts_the_ranking(
        db: Database, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock(datetime(2026, 1, 5, 12, tzinfo=UTC))
    daily = Daily(db, clock, None, boards=1)
    await daily.today(GUILD)

    async def failing(*args: object) -> None:
        raise ValueError("an event that does not read")
    monkeypatch.setattr(daily, "_closing", failing)
    await clock.advance(13 * 3600)
    [closing] = await daily.close_due()
    assert closing.day.closed and closing.telling is None
    assert await due_days(db, clock.now()) == []
    assert "telling board failed" in caplog.text
