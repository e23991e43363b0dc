"""Restart: every unfinished table comes back from the database exactly where
it was, and a failed save puts the table back to its last saved state."""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data import games
from data.db import connect
from engine.events import Event
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.errors import TableFailure
from tables.manager import TableManager
from tables.snapshot import Status
from tables.table import Table, TableConfig, TableDeps
from tests.tables.conftest import InlineExecutor, Recorder, new_table, play_people


def _pick(seed: int) -> Callable[[list[Event]], Event]:
    """A choice that depends only on the seed and the options on offer, so a
    restored game is offered, and picks, exactly what the whole one did."""
    def pick(options: list[Event]) -> Event:
        text = f"{seed}:" + " ".join(str(e) for e in options)
        return options[zlib.crc32(text.encode()) % len(options)]
    return pick


async def _play(table: Table, seed: int, stop_after: int | None) -> None:
    """People choose by `_pick` (stopping after `stop_after` of their acts)."""
    await play_people(table, _pick(seed), limit=stop_after or 5000)


async def _fresh(path: Path, clock: FakeClock) -> tuple[TableManager, Recorder]:
    db = await connect(path)
    recorder = Recorder(db)
    manager = TableManager(TableDeps(db, clock, recorder, InlineExecutor(),
                                     TableConfig(bot_pause=0)), random.Random(3))
    clock.settle_hooks[:] = [manager.settled]
    return manager, recorder


async def _outcome(manager: TableManager, table_id: int) -> list[tuple[int | None, int | None]]:
    saved = await games.load_game(manager.deps.db, table_id)
    assert saved.game.status == "finished"
    return [(s.marks, s.place) for s in saved.seats]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), stop=st.integers(1, 60))
async def test_a_game_stopped_anywhere_and_restored_ends_the_same(
        tmp_path: Path, seed: int, stop: int) -> None:
    rules = TableRules(limit=6)
    # The game that never stopped.
    clock = FakeClock()
    manager, _ = await _fresh(tmp_path / f"whole-{seed}-{stop}.sqlite3", clock)
    whole = await new_table(manager, humans=2, bots=["normal", "easy"], rules=rules)
    await _play(whole, seed, None)
    expected = await _outcome(manager, whole.id)
    await manager.close()
    await manager.deps.db.close()
    # The same game, stopped after `stop` acts of its people, and restored.
    clock = FakeClock()
    path = tmp_path / f"cut-{seed}-{stop}.sqlite3"
    manager, _ = await _fresh(path, clock)
    cut = await new_table(manager, humans=2, bots=["normal", "easy"], rules=rules)
    try:
        await _play(cut, seed, stop)
    except AssertionError as err:
        assert "did not end" in str(err)
    finished = not cut.open
    await manager.close()
    await manager.deps.db.close()
    manager, recorder = await _fresh(path, clock)
    restored = await manager.restore()
    if finished:  # the game ended before the cut: nothing to restore
        assert restored == []
        assert await _outcome(manager, cut.id) == expected
        await manager.deps.db.close()
        return
    assert [t.id for t in restored] == [cut.id] and recorder.snaps  # shown again
    table = restored[0]
    await play_people(table, _pick(seed))
    assert await _outcome(manager, table.id) == expected
    await manager.close()
    await manager.deps.db.close()


async def test_restart_gives_the_player_on_turn_a_fresh_full_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "toep.sqlite3"
    manager, _ = await _fresh(path, clock)
    table = await new_table(manager, humans=2, bots=[])
    await clock.advance(10)  # the window closes; a person's turn, 20 s
    await clock.advance(15)
    assert table.game is not None and not any(table.game.forfeited)
    await manager.close()
    await manager.deps.db.close()
    await clock.advance(600)  # the bot is down for ten minutes
    manager, _ = await _fresh(path, clock)
    (again,) = await manager.restore()
    assert again.game is not None and not any(again.game.forfeited)
    assert again.deadline is not None and (again.deadline - clock.now()).total_seconds() == 20
    await clock.advance(19)
    assert not any(again.game.forfeited)
    await manager.close()
    await manager.deps.db.close()


async def test_lobbies_come_back_and_overdue_ones_close(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "toep.sqlite3"
    manager, _ = await _fresh(path, clock)
    lobby = await new_table(manager, humans=2, bots=["easy"], start=False)
    await manager.close()
    await manager.deps.db.close()
    manager, _ = await _fresh(path, clock)
    (again,) = await manager.restore()
    assert again.status is Status.LOBBY and [s.name for s in again.seats] == ["Host", "P2", "Bot 1"]
    assert again.id == lobby.id
    await clock.advance(16 * 60)
    assert again.status is Status.CANCELLED
    await manager.close()
    await manager.deps.db.close()


async def test_a_failed_save_puts_the_table_back(tmp_path: Path) -> None:
    clock = FakeClock()
    manager, recorder = await _fresh(tmp_path / "toep.sqlite3", clock)
    table = await new_table(manager, humans=2, bots=[])
    assert table.game is not None
    told = len(recorder.snaps)
    await manager.deps.db.close()  # the disk goes away
    with pytest.raises(TableFailure):
        await table.act(1, "vuile_was", stamp=table.stamp)
    assert len(recorder.snaps) == told  # nobody heard of an event that was not saved
    assert table.game.events == []  # back to what the database holds
    await manager.close()
