"""Tables under test: a temporary database (on each backend: `db_target`,
tests/conftest.py), a fake clock, computer players that answer without
pausing, and a listener that checks write-ahead."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

import pytest

from data.db import Database
from engine import events as ev
from engine.events import Happening
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.manager import TableManager
from tables.snapshot import SeatUpdate, TableSnapshot
from tables.table import Table, TableConfig, TableDeps

T = TypeVar("T")


class InlineExecutor(Executor):
    """Runs computer decisions at once, so tests need no threads."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


class Recorder:
    """Keeps every snapshot; checks each event was saved before it was told."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.snaps: list[TableSnapshot] = []
        self.updates: list[SeatUpdate] = []
        self.happenings: list[Happening] = []
        self.unsaved: list[str] = []

    async def table_changed(self, table: Table, snap: TableSnapshot,
                            updates: Sequence[SeatUpdate],
                            happenings: Sequence[Happening]) -> None:
        self.snaps.append(snap)
        self.updates.extend(updates)
        self.happenings.extend(happenings)
        if table.game is not None:
            async with self.db.read() as conn:
                rows = list(await conn.execute_fetchall(
                    "SELECT COUNT(*) FROM game_events WHERE game_id = ?", (table.id,)))
            saved = int(rows[0][0])
            if saved != len(table.game.events):
                self.unsaved.append(f"{saved} saved, {len(table.game.events)} told")

    @property
    def last(self) -> TableSnapshot:
        return self.snaps[-1]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def recorder(db: Database) -> Recorder:
    return Recorder(db)


@pytest.fixture
def deps(db: Database, clock: FakeClock, recorder: Recorder) -> TableDeps:
    return TableDeps(db, clock, recorder, InlineExecutor(), TableConfig(bot_pause=0))


@pytest.fixture
async def manager(deps: TableDeps, clock: FakeClock) -> AsyncIterator[TableManager]:
    tables = TableManager(deps, random.Random(7))
    clock.settle_hooks.append(tables.settled)
    yield tables
    await tables.close()


async def new_table(manager: TableManager, *, public: bool = True, humans: int = 2,
                    bots: Sequence[str] = ("normal", "normal"), rules: TableRules | None = None,
                    start: bool = True) -> Table:
    """Host 1 seated, then people 2, 3, ... and computer players."""
    table = await manager.create(guild_id=10, channel_id=20, host_id=1, host_name="Host",
                                 public=public, rules=rules or TableRules())
    for user in range(2, humans + 1):
        if not public:
            await table.invite(1, user)
        await table.join(user, f"P{user}")
    for level in bots:
        await table.add_bot(1, level)
    if start:
        await table.start(1)
        await table.settled()
    return table


async def play_people(table: Table, pick: Callable[[list[Any]], Any] | None = None,
                      limit: int = 5000) -> None:
    """Every person plays their first legal event (or `pick`) until the end."""
    for _ in range(limit):
        await table.settled()
        game = table.game
        assert game is not None
        if game.over or not table.open:
            return
        waiting = game.waiting()
        people = [s for s in waiting.seats
                  if not table.seats[s].is_bot and s not in table.passed]
        if not people:
            raise AssertionError(f"stuck: {game.phase} waiting for {waiting.seats}")
        seat = people[0]
        user = table.seats[seat].user_id
        assert user is not None
        legal = game.legal_events(seat)
        if waiting.window:
            await table.act(user, "pass", stamp=table.stamp)
            continue
        event = (pick or (lambda options: options[0]))(legal)
        await table.act(user, event.do, event.card, table.stamp)
    raise AssertionError("the game did not end")


async def person_acts(table: Table) -> bool:
    """The first person the game waits for (who has not passed) passes the
    window, or plays a card (or calls, or plays in); False if there is none."""
    game = table.game
    assert game is not None
    waiting = game.waiting()
    people = [s for s in waiting.seats if not table.seats[s].is_bot and s not in table.passed]
    if not people:
        return False
    user = table.seats[people[0]].user_id
    assert user is not None
    if waiting.window:
        await table.act(user, "pass", stamp=table.stamp)
        return True
    legal = game.legal_events(people[0])
    event = next((e for e in legal if e.do in (ev.PLAY, ev.CALL, ev.PLAY_IN)), legal[0])
    await table.act(user, event.do, event.card, table.stamp)
    return True
