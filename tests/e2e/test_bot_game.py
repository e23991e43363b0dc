"""The bot end to end through the fake Discord: a table in a channel, private
hands, buttons with clocks, restarts, refusals (issue 5)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from data import games
from tables.snapshot import Status
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.toep_world import World


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord(token="MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz012345"
                           ) as fake:
        w = World(fake, tmp_path / "toep.sqlite3")
        w.setup()
        await w.start()
        yield w
        await w.stop()
        assert fake.errors == []


async def _open_private_table(world: World, limit: int = 5) -> None:
    res = await world.slash("anna", "toep new", {"private": True, "limit": limit})
    assert res.ephemeral
    await world.slash("anna", "toep invite", {"member": world.people["bram"]})
    await world.wait_table_message("anna")
    await world.click_table("bram", "join")
    await world.click_table("anna", "addbot", "normal")
    await world.click_table("anna", "addbot", "easy")
    await world.wait_table_message("Bot 2")


async def test_a_whole_game_of_two_people_and_two_computers(world: World) -> None:
    await _open_private_table(world)
    await world.click_table("anna", "start")
    await world.play_to_the_end()
    table = world.table()
    assert table.status is Status.FINISHED
    saved = await games.load_game(world.bot.db, table.id)  # type: ignore[union-attr]
    assert saved.game.status == "finished"
    assert world.fake.rejections == [] or all(r.code != 40060 for r in world.fake.rejections)
    # Clicks reach the bot by their custom_id (cogs/clicks.py): discord.py keeps none of
    # the views it sent (each edit's buttons would otherwise pile up).
    assert world.bot is not None and world.bot.persistent_views == []
    # A closed table leaves memory: the manager and the presenter forget it
    # once its last state is shown, and its panels go with it.
    await world.bot_settled()
    assert world.bot.manager.tables == {} and world.bot.presenter.shown == {}
    assert world.bot.presenter.panels == {}
    # The final standings as a picture on the table message, with its text as alt text.
    message = await world.fake.wait_for(
        lambda: next((m for m in world.fake.channel_messages(world.channel)
                      if any(a.filename == "slates.png" for a in m.attachments)
                      and "anna" in (m.attachments[0].description or "")), None), 10.0)
    picture = message.attachments[0]
    assert picture.data.startswith(b"\x89PNG\r\n\x1a\n") and 2_000 < len(picture.data) < 200_000
    image = Image.open(io.BytesIO(picture.data))
    assert image.width == 800 and 300 < image.height < 1200
