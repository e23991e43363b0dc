"""A closed day's results reach the channel even when Discord fails at the
moment of closing: the day closes (its ratings move once), and its post is
tried again at the next tick until it lands, once; a restart in between
loses it neither."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from data import daily as store
from tests.e2e.test_daily import _daily, _open, _play_day, _small_days
from tests.e2e.toep_world import World, open_world

DAY = "2026-01-05"  # the fake clock's day, UTC; it closes at midnight
TICK = 60 + 5  # the cog closes due days once a minute


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    # The cog warns of the failed post, as it should.
    async with open_world(tmp_path, ("anna",), expect_logged=("cogs.daily_cog",)) as opened:
        _small_days(opened)
        yield opened


async def _finish_a_day(world: World) -> None:
    await world.slash("anna", "toep-admin daily-settings", {"channel": world.channel})
    anna = await _daily(world, "anna")
    await _open(world, "anna", anna)
    await _play_day(world, "anna", anna)


async def _unposted(world: World) -> list[str]:
    assert world.bot is not None
    return [d.day for d in await store.unposted_days(world.bot.db)]


async def test_a_post_refused_by_discord_is_posted_at_the_next_tick(world: World) -> None:
    assert world.bot is not None and world.guild is not None
    await _finish_a_day(world)
    world.fake.fail_edits(503, times=1000, channel=world.channel, posts=True)
    await world.fake_clock.advance(12 * 3600 + 120)  # past midnight: the day closes
    await world.fake.wait_for(lambda: any(h.status == 503 for h in world.fake.fault_hits))
    day = await store.get_day(world.bot.db, world.guild.id, DAY)
    assert day is not None and day.closed
    await world.bot_settled()
    assert world.fake.channel_messages(world.channel) == []
    assert await _unposted(world) == [DAY]

    world.fake.end_storms()  # Discord answers again
    await world.fake_clock.advance(TICK)
    await world.fake.wait_for(lambda: len(world.fake.channel_messages(world.channel)) == 1)
    assert "is closed" in world.fake.channel_messages(world.channel)[0].text
    await world.bot_settled()
    assert await _unposted(world) == []
    await world.fake_clock.advance(3 * TICK)  # and not again
    await world.bot_settled()
    assert len(world.fake.channel_messages(world.channel)) == 1


async def test_a_post_lost_to_a_restart_is_posted_after_it(world: World) -> None:
    assert world.bot is not None and world.guild is not None
    await _finish_a_day(world)
    world.fake.fail_edits(503, times=1000, channel=world.channel, posts=True)
    await world.fake_clock.advance(12 * 3600 + 120)
    await world.fake.wait_for(lambda: any(h.status == 503 for h in world.fake.fault_hits))
    await world.bot_settled()
    assert await _unposted(world) == [DAY]
    await world.stop()
    world.fake.end_storms()
    await world.start()
    _small_days(world)
    await world.fake_clock.advance(TICK)
    await world.fake.wait_for(lambda: len(world.fake.channel_messages(world.channel)) == 1)
    await world.bot_settled()
    assert await _unposted(world) == []
