"""While the bot runs, a click's listener and its answer's request jump the
event loop's queue (cogs/queue_jump.py, `ToepBot._schedule_event`); other
events wait their turn, and the loop gets its task factory back on close."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import discord

from tests.e2e.toep_world import open_world


async def test_a_clicks_listener_runs_before_the_work_already_queued(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    async with open_world(tmp_path) as world:
        bot = world.bot
        assert bot is not None
        assert loop.get_task_factory() is not None
        heard: list[str] = []

        async def on_interaction(_: object) -> None:
            heard.append("click")

        async def on_toep_probe() -> None:
            heard.append("other event")

        bot.add_listener(on_interaction)
        bot.add_listener(on_toep_probe)
        for _ in range(3):
            loop.call_soon(heard.append, "queued")
        # Not a component: the bot's own listener (cogs/clicks.py) leaves it be.
        bot.dispatch("interaction", SimpleNamespace(type=discord.InteractionType.ping))
        bot.dispatch("toep_probe")
        async with asyncio.timeout(5):
            while len(heard) < 5:
                await asyncio.sleep(0)
        assert heard == ["click", "queued", "queued", "queued", "other event"]
    assert loop.get_task_factory() is None
