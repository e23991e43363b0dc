"""Fixtures for end-to-end tests against the fake Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import discord
import pytest

from tests.e2e.fake_discord import FakeDiscord

BotRunner = Callable[[discord.Client, FakeDiscord], Awaitable[None]]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started fake with Discord's default rules; build FakeDiscord(...) for other limits."""
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
async def run_bot() -> AsyncIterator[BotRunner]:
    """`await run_bot(client, fake)`: start the client, wait until the fake sent it its guilds.

    Build the client with connector=fake.connector() (and a small guild_ready_timeout if the
    test waits for on_ready). Every client is closed, and its task awaited, after the test.
    """
    running: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def start(client: discord.Client, fake: FakeDiscord) -> None:
        task = asyncio.create_task(client.start(fake.settings.token))
        running.append((client, task))
        ready = asyncio.create_task(fake.wait_ready())
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():  # the client failed to log in or connect: show why
            ready.cancel()
            task.result()
        await ready

    yield start
    for client, task in running:
        await client.close()
        if not task.done() or not task.cancelled():
            await asyncio.gather(task, return_exceptions=True)
