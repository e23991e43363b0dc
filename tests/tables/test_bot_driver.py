"""The computer-player driver against a table of its own (`Driven`): it
hands over one legal move per decision, stands in for an illegal one, waits
out an outage, drops a decision whose moment passed, and stops when a save
fails until the table's retry wakes it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from engine import events as ev
from engine.chance import SeededChance
from engine.events import Event
from engine.game import Game, Phase
from engine.rules import TableRules
from engine.views import SeatView
from tables.bot_driver import BotDriver, Move
from tables.clock import FakeClock, settle
from tables.slots import Slots
from tables.snapshot import SeatInfo, stamp_of
from tables.table_clocks import TableClocks
from tests.tables.conftest import InlineExecutor

CLOSE = ev.act(ev.CLOSE_WINDOW)
SEATS = [SeatInfo(0, None, "normal", "Bot 1"), SeatInfo(1, None, "normal", "Bot 2")]


class FakeTable:
    """A table of two computer seats: moves apply straight to the game."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.passed: set[int] = set()
        self.game = Game(TableRules(), [s.name for s in SEATS], SeededChance(3))
        self.reachable = True
        self.moves: list[Move] = []
        self.failing = False
        self.retries: list[Callable[[float], None]] = []

    @property
    def moment(self) -> str:
        return stamp_of(len(self.game.events))

    def live_game(self) -> Game | None:
        return self.game if self.reachable and not self.game.over else None

    async def computer_move(self, move: Move) -> None:
        assert self.lock.locked()
        if self.failing:
            raise OSError("disk full")
        self.moves.append(move)
        if isinstance(move, Event):
            self.game.apply(move)
            self.passed.clear()
            return
        self.passed.update(move)
        if set(self.game.waiting().seats) <= self.passed:  # as the table closes it
            self.game.apply(CLOSE)
            self.passed.clear()

    async def step(self, action: Callable[[], Awaitable[None]],
                   retry: Callable[[float], None]) -> bool:
        try:
            await action()
        except OSError:
            self.retries.append(retry)
            return False
        return True


class Fixed:
    """A computer player that always decides `event`."""

    def __init__(self, event: Event | None) -> None:
        self.event = event
        self.level = "fixed"

    def decide(self, view: SeatView) -> Event | None:
        return self.event


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _driver(table: FakeTable, clock: FakeClock) -> BotDriver:
    driver = BotDriver(table, 1, clock, TableClocks(clock), InlineExecutor(), pause=1.0)
    driver.seat(SEATS, seed=3)
    return driver


async def _run(driver: BotDriver) -> None:
    driver.wake()
    assert driver.task is not None
    await driver.task


async def test_computers_play_a_game_to_its_end(clock: FakeClock) -> None:
    table = FakeTable()
    await _run(_driver(table, clock))
    assert table.game.over and table.moves


async def test_an_illegal_turn_is_replaced_by_the_first_legal_event(
        clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tables.bot_driver.make_bot", lambda level, seed=0: Fixed(CLOSE))
    table = FakeTable()
    table.game.apply(CLOSE)
    assert table.game.phase is Phase.PLAY and not table.game.can(CLOSE)
    first_legal = table.game.legal_events(table.game.waiting().seats[0])[0]
    assert await _driver(table, clock)._take_turn()
    assert table.moves == [first_legal]


async def test_an_illegal_answer_in_a_window_is_silence(
        clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tables.bot_driver.make_bot",
                        lambda level, seed=0: Fixed(ev.act(ev.FOLD, 0)))
    table = FakeTable()
    assert await _driver(table, clock)._take_turn()
    assert table.moves == [[0, 1]]  # both at once: one pause for the whole window


async def test_nothing_moves_in_an_outage(clock: FakeClock) -> None:
    table = FakeTable()
    table.reachable = False
    await _run(_driver(table, clock))
    assert table.moves == []


async def test_a_decision_whose_moment_passed_is_dropped(clock: FakeClock) -> None:
    table = FakeTable()
    table.game.apply(CLOSE)
    driver = _driver(table, clock)

    async def meanwhile(seconds: float) -> None:  # someone else moved during the pause
        table.game.apply(table.game.legal_events()[0])

    clock.sleep = meanwhile  # type: ignore[method-assign]
    assert await driver._take_turn() and table.moves == []


async def test_a_failed_save_stops_the_driver_until_the_retry_wakes_it(
        clock: FakeClock) -> None:
    table = FakeTable()
    table.failing = True
    driver = _driver(table, clock)
    await _run(driver)
    assert table.moves == [] and len(table.retries) == 1
    table.failing = False
    table.retries[0](0.5)  # the table arranges the retry on the driver's clock
    await clock.advance(0.5)
    assert driver.task is not None
    await driver.task
    assert table.moves


async def test_a_computer_s_move_waits_for_a_slot_taken_before_the_table_s_lock(
        clock: FakeClock) -> None:
    limit = 1
    slots = Slots(lambda: limit)
    table = FakeTable()
    driver = BotDriver(table, 1, clock, TableClocks(clock), InlineExecutor(), pause=1.0,
                       slots=slots)
    driver.seat(SEATS, seed=3)
    async with slots.hold():  # the only slot, held by other work
        turn = asyncio.create_task(driver._take_turn())
        await settle()
        assert table.moves == [] and not table.lock.locked()  # waits, holding no lock
    assert await turn
    assert len(table.moves) == 1 and slots.busy == 0
