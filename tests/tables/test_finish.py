"""A game whose result cannot be saved stays "playing", in memory as in the
database, until a later try (or a restart) saves it."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from data import games, stats
from data.db import connect
from tables.clock import FakeClock
from tables.manager import TableManager
from tables.snapshot import Status
from tables.table import TableConfig, TableDeps
from tests.tables.conftest import InlineExecutor, Recorder, new_table


async def _manager(path: Path, clock: FakeClock) -> TableManager:
    db = await connect(path)
    manager = TableManager(TableDeps(db, clock, Recorder(db), InlineExecutor(),
                                     TableConfig(bot_pause=0)), random.Random(3))
    clock.settle_hooks[:] = [manager.settled]
    return manager


async def _locked(*args: Any, **kwargs: Any) -> None:
    raise sqlite3.OperationalError("database is locked")


async def test_a_result_that_fails_to_save_is_saved_after_a_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    path = tmp_path / "toep.sqlite3"
    manager = await _manager(path, clock)
    table = await new_table(manager, humans=2, bots=[])
    monkeypatch.setattr(stats, "finish_game", _locked)
    await table.walk_out(2)  # a game of two: walking out ends it
    assert table.game is not None and table.game.over and table.status is Status.PLAYING
    await clock.advance(10)  # tried again, and again it fails
    assert table.status is Status.PLAYING
    assert (await games.load_game(manager.deps.db, table.id)).game.status == "playing"
    await manager.close()
    await manager.deps.db.close()

    monkeypatch.undo()
    manager = await _manager(path, clock)
    (again,) = await manager.restore()
    assert again.status is Status.FINISHED
    saved = await games.load_game(manager.deps.db, table.id)
    assert saved.game.status == "finished" and [s.place for s in saved.seats] == [1, 2]
    await manager.close()
    await manager.deps.db.close()
