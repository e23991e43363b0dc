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
from tests.e2e.toep_world import careful, open_private_table, open_world, start


async def test_a_clicked_panel_is_not_asked_the_same_question_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_world(tmp_path) as world:
        bot = world.bot
        assert bot is not None
        table = await open_private_table(world, guests=("bram",), bots=("normal",))
        await start(world)
        anna = world.seat("anna")
        await world.drive(careful, lambda t: t.game is not None and t.game.phase is Phase.PLAY
                          and list(t.game.waiting().seats) == [anna])
        panel = await world.panel("anna")
        assert panel is not None
        play = next(str(b["custom_id"]) for b in panel.buttons()
                    if not b.get("disabled") and ":play:" in str(b["custom_id"]))
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
