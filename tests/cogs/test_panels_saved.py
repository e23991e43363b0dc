"""Hand panels saved for a restart (cogs/panels.py), without Discord: a save
the database refuses for a moment is made later, not lost; a restarted
registry takes the panels back with their token; a panel that lapsed or
whose game ended is not."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from typing import Any, cast

import discord
import pytest

from cogs import panels as hand
from data import panels as saved
from data.db import Database
from data.games import end_game
from tables.clock import FakeClock
from tests.data.helpers import NOW, playing

TOKEN = "aW50ZXJhY3Rpb246c2VjcmV0"


class _Interaction:
    """What a panel reads of its interaction."""

    def __init__(self, token: str) -> None:
        self.id, self.application_id, self.token = 77, 555, token
        self.message: object = object()


def _registry(db: Database, clock: FakeClock) -> hand.HandPanels:
    return hand.HandPanels(discord.Client(intents=discord.Intents.none()), db, clock.now)


async def test_a_failed_save_is_made_later_and_taken_back_after_a_restart(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock(NOW)
    game = await playing(db, (1, 2))
    panels = _registry(db, clock)
    panels.register(game.id, 1, cast(Any, _Interaction(TOKEN)), "nl")
    real, calls = saved.save_panels, []

    async def locked_once(*args: Any) -> None:
        calls.append(args)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        await real(*args)

    monkeypatch.setattr(saved, "save_panels", locked_once)
    await panels.flush()  # refused: kept for the next save
    assert await saved.take_back(db, NOW) == []
    await panels.close()  # shutting down saves what is pending
    assert len(calls) == 2

    clock_later = FakeClock(NOW + timedelta(minutes=10))
    restarted = _registry(db, clock_later)
    await restarted.take_back(game.id)
    panel = restarted.open[(game.id, 1)]
    assert panel.lang == "nl" and panel.opened == NOW
    assert panel.interaction.token == TOKEN and panel.interaction.application_id == 555
    await restarted.close()


async def test_lapsed_panels_and_those_of_ended_games_are_not_taken_back(
        db: Database) -> None:
    clock = FakeClock(NOW)
    ended, lapsing = await playing(db, (1, 2)), await playing(db, (3, 4))
    panels = _registry(db, clock)
    panels.register(ended.id, 1, cast(Any, _Interaction(TOKEN)), "en")
    panels.register(lapsing.id, 3, cast(Any, _Interaction(TOKEN)), "en")
    await panels.close()
    await end_game(db, ended.id, NOW)
    restarted = _registry(db, FakeClock(NOW + hand.TOKEN_LIFETIME))
    for table_id in (ended.id, lapsing.id):
        await restarted.take_back(table_id)
    assert restarted.open == {}
    assert await saved.take_back(db, NOW) == []  # their rows are gone too

