"""A click on a hand panel whose move has to wait (past capacity, or behind
another save): the panel keeps the question it showed until the move lands.
Shown again meanwhile, the same question would invite a second click, and
that one would be refused as late ("That moment has passed")."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from engine.game import Phase
from tables.table import Table
from tests.e2e.fake_discord.models import Message
from tests.e2e.toep_world import World, careful, open_private_table, open_world, start


async def _anna_to_play(world: World) -> tuple[Table, Message, str]:
    """A table of anna, bram and a computer, played until anna is to play a
    card: the table, anna's hand panel and the custom_id of a card to play."""
    table = await open_private_table(world, guests=("bram",), bots=("normal",))
    await start(world)
    anna = world.seat("anna")
    await world.drive(careful, lambda t: t.game is not None and t.game.phase is Phase.PLAY
                      and list(t.game.waiting().seats) == [anna])
    panel = await world.panel("anna")
    assert panel is not None
    play = next(str(b["custom_id"]) for b in panel.buttons()
                if not b.get("disabled") and ":play:" in str(b["custom_id"]))
    return table, panel, play


async def test_a_clicked_panel_is_not_asked_the_same_question_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path) as world:
        bot = world.bot
        assert bot is not None
        table, panel, play = await _anna_to_play(world)
        # The move waits until told, as it waits for a slot past capacity.
        gate = asyncio.Event()
        act = table.act

        async def held(*args: Any, **kwargs: Any) -> None:
            await gate.wait()
            await act(*args, **kwargs)

        monkeypatch.setattr(table, "act", held)
        edits = len(panel.edits)
        res = await world.fake.click(world.people["anna"], panel, play)
        assert res.acknowledged
        # Meanwhile the table is shown again: its panels are looked at.
        async with table.lock:
            await table.show()
        await bot.presenter.settled()
        assert len(panel.edits) == edits, "the clicked question was shown again"
        gate.set()
        await world.bot_settled()
        assert len(panel.edits) > edits  # the card played shows
        assert world.fake.store.errors == []


async def test_a_followed_panel_lets_go_of_the_message_clicked(tmp_path: Path) -> None:
    async with open_world(tmp_path) as world:
        bot = world.bot
        assert bot is not None
        table, panel, play = await _anna_to_play(world)  # her panel from "My hand"
        user_id = world.people["anna"].id
        assert bot.presenter.panels[(table.id, user_id)].interaction.message is None
        edits = len(panel.edits)
        res = await world.fake.click(world.people["anna"], panel, play)  # on the panel
        assert res.acknowledged
        await world.bot_settled()
        assert bot.presenter.panels[(table.id, user_id)].interaction.message is None
        assert len(panel.edits) > edits  # and it still follows the game
        assert world.fake.store.errors == []
