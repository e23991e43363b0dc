"""A bot started while Discord's gateway refuses connections (an outage, or a restart
in the middle of one) waits for it and connects once it is back, instead of dying on
discord.py's first-connection retry."""

from __future__ import annotations

from pathlib import Path

from tables.clock import FakeClock
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.toep_world import TOKEN, World


async def test_a_bot_started_during_a_gateway_outage_connects_after_it(tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        world = World(fake, tmp_path / "toep.sqlite3", clock=FakeClock())
        world.setup(("anna",))
        await fake.drop_gateway(down_for=1.0)  # no bot connected yet: only the outage
        try:
            bot = await world.start()
            assert [h for h in fake.fault_hits if h.kind == "gateway-refused"]
            assert world.task is not None and not world.task.done()
            res = await world.slash("anna", "toep new", {"private": True})
            assert res.acknowledged and bot.is_ready()
        finally:
            await world.stop()
        assert fake.errors == []
