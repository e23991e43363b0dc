"""A table whose channel is lost ends unrated and nobody forfeits, not even a
person whose clock runs out before the bot hears of the loss."""

from __future__ import annotations

from data import bans, games
from tables.clock import FakeClock
from tables.manager import TableManager
from tables.snapshot import Status
from tests.tables.conftest import Recorder, new_table


async def _forfeits(manager: TableManager, clock: FakeClock) -> int:
    counted = 0
    for user in (1, 2):
        counted += len(await bans.forfeits_in_window(manager.deps.db, 10, user, clock.now()))
    return counted


async def test_a_game_whose_channel_is_gone_ends_unrated(
        manager: TableManager, clock: FakeClock, recorder: Recorder) -> None:
    table = await new_table(manager, humans=2, bots=["normal"])
    await table.lose_channel("channel_gone")
    assert table.status is Status.ENDED and recorder.last.end_reason == "channel_gone"
    saved = await games.load_game(manager.deps.db, table.id)
    assert saved.game.status == "ended" and not saved.game.rated
    assert table.game is not None and not any(table.game.forfeited)
    await clock.advance(60)
    assert await _forfeits(manager, clock) == 0


async def test_a_lobby_whose_channel_is_gone_is_cancelled(manager: TableManager) -> None:
    table = await new_table(manager, humans=2, bots=[], start=False)
    await table.lose_channel("no_permission")
    assert table.status is Status.CANCELLED and table.end_reason == "no_permission"
    assert (await games.load_game(manager.deps.db, table.id)).game.status == "cancelled"


async def test_a_clock_that_runs_out_where_nobody_could_see_it_forfeits_nobody(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=[])
    problems = {20: "no_permission"}
    manager.deps.reach.channel_problem = lambda guild, channel: problems.get(channel)
    await clock.advance(10)  # the first clock (a window) runs out
    assert table.status is Status.ENDED and table.end_reason == "no_permission"
    assert table.game is not None and not any(table.game.forfeited)
    assert await _forfeits(manager, clock) == 0


async def test_a_channel_check_that_fails_leaves_the_clock_running(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=[])

    def broken(guild: int, channel: int) -> str | None:
        raise RuntimeError("the cache is not there")

    manager.deps.reach.channel_problem = broken
    await clock.advance(10)  # the window runs out and closes, as if asked nothing
    assert table.status is Status.PLAYING and table.deadline is not None
    assert table.game is not None and table.game.events[-1].do == "close_window"
