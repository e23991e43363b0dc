"""SIGTERM and SIGINT stop the bot gracefully (bot.py `ToepBot.stop_for`): clicks and
commands meanwhile are answered, privately and in the clicker's language, that Toep
restarts; the saves in flight finish; the leases are given up, so the next process
takes over at once; the process exits 0. The real-process tests run the bot as
bot.py runs it, on each backend (`db_target`)."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path

import pytest

import bot as bot_module
from bench.chaos import ChaosBot, highest_stamps
from bench.e2e_load import Seat, TableRun, Tally
from bench.e2e_wire import TOKEN, BotConfig
from bot import create_bot
from cogs.connector import discord_connector
from config import Settings
from data.db import connect
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_bot_shards import READY, load_for
from tests.e2e.test_bot_shards import config as shard_config
from tests.e2e.toep_world import open_private_table, open_world, start

RESTARTING = {"en-US": "Toep is restarting and did not take that.",
              "nl": "Toep start opnieuw op en heeft dat niet verwerkt."}


async def leases_and_events(target: str | Path) -> tuple[list[str], dict[int, int]]:
    """The owners of the leases left in the database, and each game's saved events."""
    db = await connect(target)
    try:
        async with db.read() as conn:
            owners = [str(row[0]) for row in
                      await conn.execute_fetchall("SELECT owner FROM leases")]
            rows = await conn.execute_fetchall(
                "SELECT game_id, COUNT(*) FROM game_events GROUP BY game_id")
    finally:
        await db.close()
    return owners, {int(row[0]): int(row[1]) for row in rows}


async def test_while_it_stops_clicks_and_commands_are_answered_restarting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_module, "STOP_WITHIN", 120.0)  # the test holds the stop up
    async with open_world(tmp_path) as world:
        table = await open_private_table(world, guests=("bram",))
        await start(world)
        assert table.game is not None and world.bot is not None
        cor = world.fake.add_user("cor", locale="nl")  # a Dutch onlooker
        events = len(table.game.events)
        bot = world.bot
        async with table.lock:  # a step in the table's hands: the stop waits for it
            bot.stop_for("SIGTERM")
            bot.stop_for("SIGINT")  # a second signal: already stopping
            hand = await world.click_table("anna", "hand")
            onlooker = await world.fake.click(cor, world.table_message(), label="My hand",
                                              locale="nl")
            command = await world.slash("bram", "toep new")
            for res, locale in ((hand, "en-US"), (onlooker, "nl"), (command, "en-US")):
                message = res.message
                assert message is not None and res.ephemeral, res
                assert message.content.startswith(RESTARTING[locale]), message.content
            assert not bot.is_closed()  # the gateway stays open until the tables closed
        await world.stop()
        assert len(table.game.events) == events  # none of it played
    owners, saved = await leases_and_events(world.path)
    assert owners == [] and saved.get(table.id, 0) == events


async def test_a_signal_while_it_starts_stops_it_once_the_tables_are_restored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Closing the database at once would pull it from under the restore: the stop
    waits for the set-up, then the bot stops without connecting, and cleanly."""
    caplog.set_level(logging.INFO, logger="toep")
    async with FakeDiscord(token=TOKEN) as fake:
        fake.add_guild("Café")
        path = tmp_path / "toep.sqlite3"
        bot = create_bot(Settings(discord_token=TOKEN, database_path=path),
                         connector=fake.connector(discord_connector))
        running = asyncio.create_task(bot.start(TOKEN))
        bot.stop_for("SIGTERM")  # before setup_hook even began
        await asyncio.wait_for(running, 30.0)  # ends by itself, without an error
        await bot.close()
        assert bot.is_closed() and fake.gateway_connections == []
    owners, _ = await leases_and_events(path)
    assert owners == [] and "SIGTERM: stopped in" in caplog.text
    assert "ready to play" not in caplog.text


async def test_a_stop_that_hangs_gives_up_before_the_supervisor_kills(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A step that never ends (a save the database does not answer) holds the stop
    up: after STOP_WITHIN the process exits at once with status 1, saying why."""
    monkeypatch.setattr(bot_module, "STOP_WITHIN", 0.2)
    exits: list[int] = []
    monkeypatch.setattr(bot_module, "hard_exit", exits.append)
    async with open_world(tmp_path, expect_logged=("toep",)) as world:
        table = await open_private_table(world, guests=("bram",))
        assert world.bot is not None
        async with table.lock:
            world.bot.stop_for("SIGTERM")
            await world.fake.wait_for(lambda: exits, 10.0)
        await world.stop()
    assert exits == [1]
    assert "SIGTERM: could not stop within 0 s (a save or the database" in caplog.text


async def test_sigterm_mid_game_saves_everything_frees_the_lease_and_exits_0(
    db_target: str | Path,
) -> None:
    """Two people and two computer players in a game; SIGTERM while the computers
    move. Every event some message showed is in the database, no lease is left,
    and the next process takes over at once and the game plays to its end."""
    tally = Tally()
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Café", locale="en-US")
        run = TableRun(0, fake.add_channel(guild, "toepen"),
                       Seat(fake.add_user("host", guild=guild)),
                       Seat(fake.add_user("guest", guild=guild)))
        bot = ChaosBot()
        load = load_for(fake, bot, run, tally)
        config = BotConfig(fake.port, fake.ca_pem, str(db_target), bot_pause=0.0)
        try:
            await bot.start(config)
            await bot.wait_ready(READY)
            await fake.wait_commands("toep", timeout=30.0)
            await load.open_table(run)
            people = asyncio.create_task(load.play_people(run))
            clicks = len(tally.clicks)
            await load.until("a few clicks", lambda: len(tally.clicks) >= clicks + 4)
            people.cancel()  # they wait for the bot while it is away (the chaos bench's do)
            assert await bot.terminate() == 0
            owners, saved = await leases_and_events(db_target)
            assert owners == []  # given up: free for any machine at once
            shown = highest_stamps(fake)
            assert shown and all(saved.get(game, 0) >= count for game, count in shown.items())

            await bot.start(config)
            await bot.wait_ready(READY)
            await load.play_people(run)
        finally:
            report = await bot.close()
            bot.kill()
        assert run.table is not None and run.table.status.value == "finished"
        assert report.texts == [] and fake.errors == [] and tally.problems.texts == []


async def test_bot_py_exits_0_after_a_signal_and_says_so_in_its_log(
    db_target: str | Path,
) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        fake.add_guild("Café")
        # A process of its own, and one of a cluster (shard 0 of 2: its shard's lease).
        for signum, shards in ((signal.SIGTERM, ()), (signal.SIGINT, (0,))):
            config = shard_config(fake, db_target, *shards)
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.e2e.second_bot", config.to_json(), '{"log": "INFO"}',
                stderr=asyncio.subprocess.PIPE)
            assert process.stderr is not None
            text = ""
            while "ready to play" not in text:
                line = await asyncio.wait_for(process.stderr.readline(), READY)
                assert line, text
                text += line.decode()
            process.send_signal(signum)
            rest = await asyncio.wait_for(process.stderr.read(), READY)
            text += rest.decode()
            assert await process.wait() == 0, text
            assert f"{signum.name}: stopping" in text and "Traceback" not in text, text
            assert f"{signum.name}: stopped in " in text, text
            assert not [line for line in text.splitlines() if line.startswith("toep:")]
            owners, _ = await leases_and_events(db_target)
            assert owners == []
