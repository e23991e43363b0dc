"""A bot started while Discord's gateway refuses connections (an outage, or a restart
in the middle of one) waits for it and connects once it is back, instead of dying on
discord.py's first-connection retry."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tables.clock import FakeClock
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.toep_world import TOKEN, World


async def test_a_bot_started_during_a_gateway_outage_connects_after_it(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        world = World(fake, tmp_path / "toep.sqlite3", clock=FakeClock())
        world.setup(("anna",))
        await fake.drop_gateway(down_for=600.0)  # no bot connected yet: only the outage
        starting = asyncio.create_task(world.start())
        try:
            # However long its start takes, the bot meets the outage, then it ends.
            await fake.wait_for(
                lambda: [h for h in fake.fault_hits if h.kind == "gateway-refused"], 60.0)
            fake.restore_gateway()
            bot = await starting
            assert world.task is not None and not world.task.done()
            res = await world.slash("anna", "toep new", {"private": True})
            assert res.acknowledged and bot.is_ready()
        finally:
            await world.stop()
        assert fake.errors == []
