"""A bot started while Discord's gateway refuses connections (an outage, or a restart
in the middle of one) waits for it and connects once it is back, instead of dying on
discord.py's first-connection retry."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from tables.clock import FakeClock
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.toep_world import TOKEN, World


def ready_to_play(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("ready to play")]


async def test_a_bot_started_during_a_gateway_outage_connects_after_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="toep")
    async with FakeDiscord(token=TOKEN) as fake:
        world = World(fake, tmp_path / "toep.sqlite3", clock=FakeClock())
        world.setup(("anna",))
        await fake.drop_gateway(down_for=600.0)  # no bot connected yet: only the outage
        starting = asyncio.create_task(world.start())
        try:
            # However long its start takes, the bot meets the outage, then it ends.
            await fake.wait_for(
                lambda: [h for h in fake.fault_hits if h.kind == "gateway-refused"], 60.0)
            assert ready_to_play(caplog) == []  # set up, restored, but not connected
            fake.restore_gateway()
            bot = await starting
            assert world.task is not None and not world.task.done()
            res = await world.slash("anna", "toep new", {"private": True})
            assert res.acknowledged and bot.is_ready()
            again = asyncio.Event()

            async def ready_again() -> None:
                again.set()

            bot.add_listener(ready_again, "on_ready")
            await fake.invalidate_session()  # a new session, a new READY: nothing new to tell
            await asyncio.wait_for(again.wait(), 30.0)
            assert ready_to_play(caplog) == ["ready to play (all shards); "
                                             "0 table(s) restored"]
        finally:
            await world.stop()
        assert fake.errors == []
