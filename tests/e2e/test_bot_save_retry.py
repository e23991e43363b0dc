"""Saves that fail on a clock or a computer's turn are tried again, end to
end: a database locked by another connection for a while holds the table
up only until it is free; a game that cannot be saved for minutes ends
unrated with a message in the channel."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from cogs.i18n import t
from data import games
from engine.game import Phase
from tables.snapshot import Status
from tables.table import TableConfig
from tests.e2e.toep_world import careful, open_private_table, open_world, ping_always, start

# A failed save is logged (with its traceback) where it fails, as it should be.
SAVE_LOGS = ("tables.table", "data.group_commit")


async def test_a_window_closes_once_the_locked_database_is_free(tmp_path: Path) -> None:
    async with open_world(tmp_path, expect_logged=SAVE_LOGS) as world:
        table = await open_private_table(world, guests=("bram",), clock=10)
        await start(world)
        assert table.game is not None and table.game.phase is Phase.WINDOW
        stamp = table.stamp
        other = sqlite3.connect(world.path, timeout=0, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            # The window runs out; closing it waits for the lock (5 s), then fails.
            await world.fake_clock.advance(table.rules.window)
            assert table.stamp == stamp and table.status is Status.PLAYING
        finally:
            other.rollback()
            other.close()
        await world.fake_clock.advance(1)  # tried again: the lock is free now
        assert table.game is not None and table.game.phase is Phase.PLAY
        assert table.deadline is not None and table.deadline > world.fake_clock.now()
        await world.wait_table_message("is to play")


async def test_a_game_that_cannot_be_saved_for_minutes_ends_with_a_message(
        tmp_path: Path) -> None:
    config = TableConfig(bot_pause=0, save_give_up=timedelta(minutes=3))
    async with open_world(tmp_path, config=config, expect_logged=SAVE_LOGS) as world:
        table = await open_private_table(world, guests=("bram",), bots=("easy",))
        await start(world)
        writer = table.deps.writer

        async def full_disk(*args: Any, **kwargs: Any) -> Any:
            raise sqlite3.OperationalError("database or disk is full")

        writer.append = full_disk  # type: ignore[method-assign]
        await world.fake_clock.advance(table.rules.window)
        for _ in range(20):
            await world.fake_clock.advance(15)
        assert table.status is Status.ENDED and table.end_reason == "save_failed"
        await world.wait_table_message(t("en", "table.ended.save_failed"))
        saved = await games.load_game(table.deps.db, table.id)
        assert saved.game.status == "ended" and not saved.game.rated
        assert table.game is not None and not any(table.game.forfeited)


def _locked(path: Path) -> sqlite3.OperationalError:
    """A real "database is locked" (SQLITE_BUSY), as a save past the busy timeout gets."""
    holder = sqlite3.connect(path, isolation_level=None)
    waiter = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        waiter.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as err:
        return err
    finally:
        holder.close()
        waiter.close()
    raise AssertionError("the second connection got the lock")


async def test_a_ping_whose_save_fails_is_saved_once_the_database_is_free(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path) as world:
        table = await open_private_table(world, guests=("bram",))
        await ping_always(world)
        calls: list[int | None] = []
        real = games.set_ping

        async def locked_once(db: Any, game_id: int, ping_id: int | None) -> None:
            calls.append(ping_id)
            if len(calls) == 1:
                raise _locked(tmp_path / "locked.sqlite3")
            await real(db, game_id, ping_id)

        monkeypatch.setattr(games, "set_ping", locked_once)
        await start(world)
        await world.drive(careful, lambda t: t.game is not None and t.game.phase is Phase.PLAY)
        await world.bot_settled()  # the update whose save failed was tried again
        assert world.bot is not None
        ping = world.bot.presenter.shown[table.id].pings.ping_id
        assert ping is not None and calls[0] == ping
        # A restart finds the ping standing in the channel (and deletes it with the next).
        assert (await games.load_game(world.bot.db, table.id)).game.ping_id == ping
