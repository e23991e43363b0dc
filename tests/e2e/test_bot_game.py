"""The bot end to end through the fake Discord: a table in a channel, private
hands, buttons with clocks, restarts, refusals (issue 5)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

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
