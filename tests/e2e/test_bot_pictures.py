"""Slate pictures are drawn off the event loop, one at a time, in the
presenter's own thread; and while the bot runs, a thread that holds the
interpreter's lock (a picture, a computer player thinking) gives it back to
the event loop quickly (bot.py SWITCH_INTERVAL)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot import SWITCH_INTERVAL
from cogs import presenter as presenter_module
from tables.snapshot import Status
from tests.e2e.toep_world import careful, open_private_table, open_world, start


def _threads_drawing(monkeypatch: pytest.MonkeyPatch, name: str) -> list[str]:
    """The names of the threads the presenter's picture function `name` ran in."""
    threads: list[str] = []
    real: Callable[..., Any] = getattr(presenter_module, name)

    def recorded(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(presenter_module, name, recorded)
    return threads


async def test_pictures_are_drawn_in_the_presenters_one_thread(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rounds = _threads_drawing(monkeypatch, "round_picture")
    standings = _threads_drawing(monkeypatch, "standings_picture")
    async with open_world(tmp_path) as world:
        table = await open_private_table(world, guests=("bram",), bots=("normal",), rounds=2)
        await start(world)
        await world.drive(careful, lambda t: t.game is not None and len(t.game.rounds) == 1)
        await world.bot_settled()  # the table after the first round is shown
        await world.play_to_the_end()
        assert table.status is Status.FINISHED
        await world.wait_table_message("wins the game!", timeout=15.0)
        await world.bot_settled()
    drawn = rounds + standings
    assert rounds and len(standings) == 1
    assert len(set(drawn)) == 1 and drawn[0].startswith("toep-pictures")


async def test_the_lock_changes_hands_quickly_while_the_bot_runs(tmp_path: Path) -> None:
    before = sys.getswitchinterval()
    assert before != SWITCH_INTERVAL  # Python's own, 0.005
    async with open_world(tmp_path):
        assert sys.getswitchinterval() == SWITCH_INTERVAL
    assert sys.getswitchinterval() == before  # given back when the bot closes
