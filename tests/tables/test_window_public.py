"""The vuile was window at a live table leaks nothing (R12, DESIGN.md "What
each player sees"): it waits for everyone in the round whether or not they
may call, stays open until its time is up or all have passed, and computer
seats pass after the same pause whatever their cards.

Pauses here take fake time: a computer acts only when the test moves the
clock on by its pause, so the moment it passes can be seen."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

import pytest

from data.db import Database
from engine import events as ev
from engine.bots import Bot, make_bot
from engine.events import Event
from engine.game import Game, Phase
from engine.rules import TableRules
from engine.state import DEAD_MAN
from engine.views import SeatView
from tables.clock import FakeClock
from tables.manager import TableManager
from tables.table import Table, TableConfig, TableDeps
from tests.tables.conftest import InlineExecutor, Recorder, person_acts

PAUSE = 1.2
THINK = 0.3


class PausingClock(FakeClock):
    """A fake clock whose pauses last until the test moves time past them."""

    def __init__(self) -> None:
        super().__init__()
        self.asleep: set[asyncio.Task[object]] = set()
        self.settle_hooks.append(self.quiet)

    async def sleep(self, seconds: float) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def wake() -> None:
            if not done.done():
                done.set_result(None)

        self.call_at(self.now() + timedelta(seconds=seconds), wake)
        task = asyncio.current_task()
        assert task is not None
        self.asleep.add(task)
        try:
            await done
        finally:
            self.asleep.discard(task)

    def move(self, seconds: float) -> None:
        """Time passes in a computation (no timer runs meanwhile)."""
        self._now += timedelta(seconds=seconds)

    async def quiet(self) -> None:
        """Until every other task has finished or sleeps in a pause of this clock
        (a save in a database thread is waited for)."""
        me = asyncio.current_task()
        for _ in range(20_000):
            if all(t is me or t.done() or t in self.asleep for t in asyncio.all_tasks()):
                return
            await asyncio.sleep(0.001)
        raise AssertionError("the tables never came to rest")


@pytest.fixture
def clock() -> FakeClock:
    return PausingClock()


@pytest.fixture
async def manager(db: Database, clock: FakeClock,
                  recorder: Recorder) -> AsyncIterator[TableManager]:
    deps = TableDeps(db, clock, recorder, InlineExecutor(), TableConfig(bot_pause=PAUSE))
    tables = TableManager(deps, random.Random(7))
    yield tables
    await tables.close()


async def _table(manager: TableManager, rules: TableRules) -> Table:
    """The host and one more person, two computer players; started."""
    table = await manager.create(guild_id=10, channel_id=20, host_id=1, host_name="Host",
                                 public=True, rules=rules)
    await table.join(2, "P2")
    for _ in range(2):
        await table.add_bot(1, "normal")
    await table.start(1)
    assert isinstance(manager.deps.clock, PausingClock)
    await manager.deps.clock.quiet()
    return table


def _game(table: Table) -> Game:
    assert table.game is not None
    return table.game


async def _drive(table: Table, clock: FakeClock, done: Callable[[Game], bool]) -> None:
    """People pass every window and play their first legal card; computers
    act when their pause is over. Stops as soon as `done`, before any pause."""
    assert isinstance(clock, PausingClock)
    for _ in range(5000):
        await clock.quiet()
        game = _game(table)
        if done(game):
            return
        assert not game.over, "the game ended first"
        if not await person_acts(table):
            await clock.advance(PAUSE)
    raise AssertionError("never got there")


def _next_round(now: int) -> Callable[[Game], bool]:
    return lambda game: game.round_number > now or game.over


def _dead_mans_window(game: Game) -> bool:
    return game.kind == DEAD_MAN and game.phase is Phase.WINDOW


async def test_the_dead_mans_window_waits_for_everyone_when_nobody_can_call(
        manager: TableManager, clock: FakeClock) -> None:
    table = await _table(manager, TableRules(limit=5))
    game = _game(table)
    await _drive(table, clock, _dead_mans_window)
    assert not any(game.legal_events(s) for s in range(game.n))  # nobody holds a genuine hand
    in_round = tuple(s for s in range(game.n) if game.in_round[s])
    assert game.waiting().seats == in_round and game.waiting().window
    opened = clock.now()
    assert table.deadline == opened + timedelta(seconds=table.rules.window)
    snap = table.snapshot()
    assert snap.clock is not None and snap.clock.seats == in_round
    await clock.advance(PAUSE)  # the computers pass after their pause, like anyone
    bots = {s for s in in_round if table.seats[s].is_bot}
    assert bots and table.passed == bots and game.phase is Phase.WINDOW
    await clock.advance(table.rules.window - PAUSE - 0.1)
    assert game.phase is Phase.WINDOW  # the people kept silent: it stays open
    await clock.advance(0.1)
    assert game.events[-1] == ev.act(ev.CLOSE_WINDOW) and game.phase is Phase.PLAY


async def test_computer_seats_pass_after_the_same_pause_whatever_their_cards(
        manager: TableManager, clock: FakeClock) -> None:
    table = await _table(manager, TableRules())
    game = _game(table)
    for _ in range(6):  # the windows of several rounds
        await _drive(table, clock, lambda g: g.phase is Phase.WINDOW)
        stamp = table.stamp
        await clock.advance(PAUSE - 0.1)
        assert table.stamp == stamp and not table.passed  # nobody acted before the pause
        await clock.advance(0.1)
        if table.stamp == stamp:  # nobody called: both computers passed, at once
            assert table.passed == {s for s in range(game.n) if table.seats[s].is_bot}
        await _drive(table, clock, _next_round(game.round_number))
        if game.over:
            break


async def test_a_computers_thinking_time_is_inside_its_pause(
        manager: TableManager, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """A slow decision (a search) does not make the pass come later."""

    class Slow:
        def __init__(self, bot: Bot) -> None:
            self.bot, self.level = bot, bot.level

        def decide(self, view: SeatView) -> Event | None:
            assert isinstance(clock, PausingClock)
            clock.move(THINK)  # the search takes time
            return self.bot.decide(view)

    monkeypatch.setattr("tables.bot_driver.make_bot",
                        lambda level, seed=0: Slow(make_bot(level, seed)))
    table = await _table(manager, TableRules())  # the window of round 1 is open
    assert isinstance(clock, PausingClock)
    await clock.quiet()
    stamp = table.stamp
    assert _game(table).phase is Phase.WINDOW and not table.passed
    left = PAUSE - 2 * THINK  # both computers thought already
    await clock.advance(left - 0.05)
    assert not table.passed and table.stamp == stamp
    await clock.advance(0.1)  # the pause since the window opened is over
    assert table.passed or table.stamp != stamp
