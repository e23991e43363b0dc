"""Outages are the bot's, not the player's, end to end: while the gateway is
down the turn clock waits (and the table says so instead of counting down),
afterwards the decision gets its clock back in full; restored tables arm
their clocks only once their guild has arrived."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from cogs.i18n import t
from tables.snapshot import Status
from tables.table import Table
from tests.e2e.toep_world import (
    World,
    counted_forfeits,
    open_private_table,
    open_public_table,
    open_world,
    start,
    to_a_turn,
)

PAUSED = t("en", "clock.paused")


async def _private_turn(world: World) -> tuple[Table, int]:
    """anna and bram at a private table with a 10 s clock, at the first turn."""
    table = await open_private_table(world, guests=("bram",), clock=10)
    await start(world)
    return table, await to_a_turn(world, table)


async def test_the_turn_clock_waits_out_a_gateway_outage(tmp_path: Path) -> None:
    # discord.py logs each refused reconnect ("Attempting a reconnect in ...").
    async with open_world(tmp_path, expect_logged=("discord.client",)) as world:
        table = await open_public_table(world)
        game = table.game
        assert game is not None
        seat = await to_a_turn(world, table)
        clock = world.fake_clock
        await clock.advance(15)  # 5 of the 20 seconds left

        await world.fake.drop_gateway(down_for=3.0)
        await world.fake.wait_for(lambda: table.deadline is None)
        await clock.advance(120)  # the outage goes on: nobody forfeits
        assert not game.forfeited[seat] and table.status is Status.PLAYING
        await world.wait_table_message(PAUSED)  # no countdown that lies

        world.fake.restore_gateway()  # the bot reconnects and resumes
        await world.fake.wait_for(lambda: table.deadline is not None, 30.0)
        assert table.deadline == clock.now() + timedelta(seconds=20)  # in full
        message = await world.fake.wait_for(
            lambda: m if PAUSED not in (m := world.table_message()).text else None)
        assert "<t:" in message.text
        await clock.advance(19)
        assert not game.forfeited[seat]
        await clock.advance(1)  # a whole clock while connected: a forfeit that counts
        assert game.forfeited[seat] and await counted_forfeits(world, table) == 1


async def test_a_late_resume_and_a_new_session_give_the_clock_back(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table, seat = await _private_turn(world)
        game = table.game
        assert game is not None
        world.fake.delay_resume(1.0)
        await world.fake.drop_gateway(invalidate=True)  # no resume: a new READY
        await world.fake.wait_for(lambda: table.deadline is None)
        await world.fake_clock.advance(60)
        assert not game.forfeited[seat]
        await world.fake.wait_for(lambda: table.deadline is not None, 30.0)
        assert table.deadline == world.fake_clock.now() + timedelta(seconds=10)
        assert not game.forfeited[seat]


async def test_restored_tables_wait_for_their_guild(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        table, seat = await _private_turn(world)
        game = table.game
        assert game is not None
        await world.stop()

        world.fake.delay_guild_create(1.5)  # the guild comes a while after READY
        starting = asyncio.create_task(world.start())

        def restored() -> Table | None:
            bot = world.bot
            if bot is None or bot._manager is None:
                return None
            return bot.manager.get(table.id)

        again = await world.fake.wait_for(restored)
        assert again.game is not None
        await world.fake_clock.advance(60)  # before the guild arrived: no clock ran
        assert not again.game.forfeited[seat] and again.deadline is None
        await starting
        await world.fake.wait_for(lambda: again.deadline is not None, 10.0)
        assert again.deadline == world.fake_clock.now() + timedelta(seconds=10)
        assert not again.game.forfeited[seat]
