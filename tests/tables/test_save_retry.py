"""Saves that fail on a timer or a computer's turn are tried again; a game
that cannot be saved for minutes ends unrated, and says so."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from data import games
from data.db import Database, connect
from engine import events as ev
from engine.game import Phase
from tables.clock import FakeClock
from tables.manager import TableManager
from tables.save_retry import SaveTrouble
from tables.snapshot import Status
from tables.table import Table
from tests.tables.conftest import Recorder, new_table


class FailingWrites:
    """The log writer's saves fail while `failing` is set (a disk that is full)."""

    def __init__(self, manager: TableManager) -> None:
        self.failing = False
        self.failed = 0
        writer = manager.deps.writer
        real = writer.append

        async def append(*args: Any, **kwargs: Any) -> Any:
            if self.failing:
                self.failed += 1
                raise sqlite3.OperationalError("database or disk is full")
            return await real(*args, **kwargs)

        writer.append = append  # type: ignore[method-assign]


def _phase(table: Table) -> Phase:
    """The phase of the game as the table holds it now (a failed save puts a
    new, rebuilt game in its place)."""
    assert table.game is not None
    return table.game.phase


@pytest.fixture
def writes(manager: TableManager) -> FailingWrites:
    return FailingWrites(manager)


async def test_a_window_that_ran_out_is_closed_once_the_save_works(
        manager: TableManager, clock: FakeClock, writes: FailingWrites) -> None:
    table = await new_table(manager, humans=2, bots=[])
    game = table.game
    assert game is not None and game.phase is Phase.WINDOW
    writes.failing = True
    await clock.advance(10)  # the window runs out; closing it cannot be saved
    assert _phase(table) is Phase.WINDOW and writes.failed == 1
    await clock.advance(0.5 + 1 + 2)  # tried again after 0.5, 1 and 2 seconds
    assert writes.failed == 4 and _phase(table) is Phase.WINDOW
    writes.failing = False
    await clock.advance(4)
    assert table.game is not None and table.game.phase is Phase.PLAY
    assert table.game.events[-1] == ev.act(ev.CLOSE_WINDOW)
    assert table.deadline is not None  # the next decision's clock is armed
    saved = await games.load_game(manager.deps.db, table.id)
    assert saved.game.status == "playing"


async def test_a_computer_plays_on_once_its_move_can_be_saved(
        manager: TableManager, clock: FakeClock, writes: FailingWrites,
        recorder: Recorder) -> None:
    table = await new_table(manager, humans=1, bots=["normal"])
    await table.act(1, "pass", stamp=table.stamp)  # the window closes
    await table.settled()
    game = table.game
    assert game is not None and game.waiting().seats == (0,) and game.phase is Phase.PLAY
    assert game.can(ev.act(ev.TOEP, 0))
    await table.act(1, ev.TOEP, stamp=table.stamp)
    stamp = table.stamp
    writes.failing = True  # the computer's answer cannot be saved ...
    await table.settled()
    assert writes.failed == 1 and table.stamp == stamp
    await clock.advance(0.5 + 1)
    assert writes.failed == 3 and table.stamp == stamp
    writes.failing = False  # ... until it can
    await clock.advance(2)
    assert table.stamp != stamp and writes.failed == 3
    assert _phase(table) is not Phase.TOEP_ANSWER
    assert recorder.unsaved == []


async def test_a_game_that_cannot_be_saved_for_minutes_ends_unrated(
        manager: TableManager, clock: FakeClock, writes: FailingWrites,
        recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:
    table = await new_table(manager, humans=2, bots=[])
    writes.failing = True
    real_end = games.end_game
    ends: list[int] = []

    async def end_game(*args: Any, **kwargs: Any) -> None:
        ends.append(1)
        if writes.failing:
            raise sqlite3.OperationalError("database or disk is full")
        await real_end(*args, **kwargs)

    monkeypatch.setattr(games, "end_game", end_game)
    await clock.advance(10 + 170)
    assert table.status is Status.PLAYING
    await clock.advance(20)  # three minutes of failing saves
    assert table.status is Status.ENDED and table.end_reason == "save_failed"
    assert recorder.last.status is Status.ENDED and recorder.last.end_reason == "save_failed"
    assert table.game is not None and not any(table.game.forfeited)
    assert ends and (await games.load_game(manager.deps.db, table.id)).game.status == "playing"
    writes.failing = False  # the disk has room again: the end is saved too
    await clock.advance(60)
    saved = await games.load_game(manager.deps.db, table.id)
    assert saved.game.status == "ended" and not saved.game.rated


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    """Waits only 50 ms for a write lock another connection holds."""
    database = await connect(tmp_path / "toep.sqlite3", busy_timeout_ms=50)
    yield database
    await database.close()


async def test_a_database_locked_by_another_connection_for_a_while(
        manager: TableManager, clock: FakeClock) -> None:
    table = await new_table(manager, humans=2, bots=[])
    game = table.game
    assert game is not None
    other = sqlite3.connect(manager.deps.db.path, timeout=0, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    try:
        await clock.advance(10)
        assert _phase(table) is Phase.WINDOW
        await clock.advance(4)
        assert _phase(table) is Phase.WINDOW
    finally:
        other.rollback()
        other.close()
    await clock.advance(8)
    assert table.game is not None and table.game.phase is Phase.PLAY


def test_the_pause_grows_and_gives_up() -> None:
    from datetime import UTC, datetime, timedelta

    trouble = SaveTrouble(timedelta(minutes=3))
    start = datetime(2026, 1, 1, tzinfo=UTC)
    pauses = [trouble.failed(start + timedelta(seconds=i)) for i in range(7)]
    assert pauses == [0.5, 1, 2, 4, 8, 15, 15]
    assert trouble.failed(start + timedelta(minutes=3)) is None
    trouble.saved()
    assert not trouble.failing and trouble.failed(start) == 0.5


class Flaky:
    """A save that fails `failures` times, then works."""

    def __init__(self, failures: int) -> None:
        self.failures, self.calls = failures, 0

    async def __call__(self) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise sqlite3.OperationalError("database is locked")


async def test_a_step_is_retried_after_a_pause_and_given_up_after_minutes() -> None:
    from datetime import timedelta

    from tables.save_retry import Retries
    from tables.table_clocks import TableClocks

    clock = FakeClock()
    retries = Retries(1, timedelta(minutes=3), clock, TableClocks(clock))
    retried: list[float] = []
    gave_up: list[bool] = []

    async def give_up() -> None:
        gave_up.append(True)

    save = Flaky(failures=1)
    assert not await retries.step(save, retried.append, give_up)
    assert await retries.step(save, retried.append, give_up) and retried == [0.5]
    assert not retries.trouble.failing
    assert not await retries.step(Flaky(1), retried.append, give_up)
    await clock.advance(180)
    assert not await retries.step(Flaky(1), retried.append, give_up)
    assert gave_up == [True] and retried == [0.5, 0.5]


async def test_the_save_of_an_end_is_tried_again_however_long_it_fails() -> None:
    from datetime import timedelta

    from tables.save_retry import LONGEST_PAUSE, Retries
    from tables.table_clocks import TableClocks

    clock = FakeClock()
    retries = Retries(1, timedelta(minutes=3), clock, TableClocks(clock))
    save = Flaky(failures=100)

    async def again() -> None:
        await retries.until_saved(save, "its end", again)

    await again()
    await clock.advance(600)  # far past the three minutes a step is given
    assert 30 < save.calls < 100 and retries.trouble.failing
    await clock.advance(100 * LONGEST_PAUSE)
    assert save.calls == 101 and not retries.trouble.failing and clock.pending() == []


async def test_a_person_whose_click_could_not_be_saved_gets_the_whole_clock_back(
        manager: TableManager, clock: FakeClock, writes: FailingWrites,
        recorder: Recorder) -> None:
    """They acted in time; the disk failed them. Their clock starts afresh,
    so storage trouble never runs a person out of time."""
    from tables.errors import TableFailure

    table = await new_table(manager, humans=2, bots=[])
    await clock.advance(10)  # the vuile was window closes
    game = table.game
    assert game is not None and game.phase is Phase.PLAY
    (seat,) = game.waiting().seats
    person = table.seats[seat].user_id
    assert person is not None
    first, stamp = table.deadline, table.stamp
    assert first is not None
    await clock.advance((first - clock.now()).total_seconds() - 2)
    writes.failing = True
    with pytest.raises(TableFailure):
        await table.act(person, ev.TOEP, stamp=stamp)
    writes.failing = False
    assert table.deadline is not None and table.deadline > first
    shown = recorder.last.clock
    assert shown is not None and shown.deadline == table.deadline  # on the table too
    await clock.advance(5)  # past the first deadline: nothing ran out
    assert table.game is not None and not any(table.game.forfeited)
    assert table.stamp == stamp
    await table.act(person, ev.TOEP, stamp=stamp)  # now it is saved
    assert table.game.events[-1] == ev.act(ev.TOEP, seat)
