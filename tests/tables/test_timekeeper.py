"""The clocks of a table on their own: which decision gets a clock (R16-R18),
and that a clock runs out on its table only for the moment it was armed for,
only while people can reach the table, and in full after an outage."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta

import pytest

from engine import events as ev
from engine.chance import SeededChance
from engine.game import Game
from engine.rules import TableRules
from tables.clock import FakeClock
from tables.snapshot import Status
from tables.table_deps import TableConfig
from tables.timekeeper import CLICK_RECHECK, CLICKS_WAITED_FOR, Timekeeper, decision_seconds

CONFIG = TableConfig(idle_timeout=timedelta(minutes=10), lobby_timeout=timedelta(minutes=15),
                     lobby_grace=timedelta(minutes=2), pause_notice=timedelta(seconds=3))


class FakeTable:
    def __init__(self, status: Status = Status.PLAYING) -> None:
        self.lock = asyncio.Lock()
        self.status = status
        self.moment = "1"
        self.reachable = True
        self.seconds: float | None = 20
        self.said: list[str] = []
        self.clicks_waiting = 0
        self.event_count = 1

    def decision_seconds(self) -> float | None:
        return self.seconds

    async def time_ran_out(self, retry: Callable[[float], None]) -> None:
        assert self.lock.locked()
        self.said.append(f"time ran out at {self.moment}")

    async def end(self, reason: str = "admin") -> None:
        self.said.append(f"end {reason}")

    async def cancel(self, user_id: int | None, reason: str = "cancelled") -> None:
        self.said.append(f"cancel {reason}")

    async def show(self) -> None:
        self.said.append("show")

    def wake_computers(self) -> None:
        self.said.append("wake")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _keeper(table: FakeTable, clock: FakeClock) -> Timekeeper:
    return Timekeeper(table, 1, clock, CONFIG, clock.now())


def _game(players: int = 3) -> Game:
    return Game(TableRules(), [f"P{i}" for i in range(players)], SeededChance(1))


def test_windows_always_get_a_clock_turns_not_for_a_lone_person() -> None:
    game = _game()
    assert game.waiting().window
    assert decision_seconds(game, {1, 2}, turn=20, window=8) == 8
    assert decision_seconds(game, {0, 1, 2}, turn=20, window=8) is None  # nobody to wait for
    game.apply(ev.act(ev.CLOSE_WINDOW))
    people = [s for s in range(3) if s not in game.waiting().seats]
    assert decision_seconds(game, set(people), turn=20, window=8) is None  # R18
    assert decision_seconds(game, {people[0]}, turn=20, window=8) == 20


async def test_a_clock_runs_out_once_and_only_for_its_moment(clock: FakeClock) -> None:
    table = FakeTable()
    keeper = _keeper(table, clock)
    keeper.decision_changed()
    keeper.decision_changed()  # the same moment: the clock keeps running
    await clock.advance(19)
    table.moment = "2"  # someone acted: this moment's clock is armed now
    keeper.decision_changed()
    await clock.advance(19)
    assert table.said == []
    await clock.advance(1)
    assert table.said == ["time ran out at 2"]


async def test_a_clock_waits_for_a_click_that_reached_the_bot_in_time(clock: FakeClock) -> None:
    """Past capacity a click waits for a slot after its acknowledgement: the
    clock that runs out meanwhile lets it be played first."""
    table = FakeTable()
    keeper = _keeper(table, clock)
    keeper.decision_changed()
    table.clicks_waiting = 1
    await clock.advance(20)
    assert table.said == []
    await clock.advance(2)
    assert table.said == []
    table.moment = "2"  # the click is played: this clock's moment is over
    table.clicks_waiting = 0
    await clock.advance(CLICK_RECHECK)
    assert table.said == []


async def test_a_click_holds_the_clock_for_a_while_only(clock: FakeClock) -> None:
    """A refused click ends its wait; clicks that keep coming cannot hold the
    clock for longer than CLICKS_WAITED_FOR."""
    table = FakeTable()
    keeper = _keeper(table, clock)
    keeper.decision_changed()
    table.clicks_waiting = 1
    await clock.advance(20 + 1)
    table.clicks_waiting = 0  # refused (another card, a stale button): nothing was played
    await clock.advance(CLICK_RECHECK)
    assert table.said == ["time ran out at 1"]
    table.moment, table.said = "2", []
    keeper.decision_changed()
    table.clicks_waiting = 1  # and stays so
    await clock.advance(20 + CLICKS_WAITED_FOR.total_seconds() - 1)
    assert table.said == []
    await clock.advance(1 + CLICK_RECHECK)
    assert table.said == ["time ran out at 2"]


async def test_an_outage_stops_the_clock_and_gives_it_back_in_full(clock: FakeClock) -> None:
    table = FakeTable()
    keeper = _keeper(table, clock)
    keeper.decision_changed()
    await clock.advance(15)
    table.reachable = False
    keeper.reach_changed()
    await clock.advance(60)
    assert table.said == ["show"]  # the pause shows after three seconds; nobody runs out
    table.reachable = True
    keeper.reach_changed()
    await clock.advance(0)
    assert table.said == ["show", "show", "wake"]
    await clock.advance(19)
    assert keeper.clocks.deadline == clock.now() + timedelta(seconds=1)
    await clock.advance(1)
    assert table.said[-1] == "time ran out at 1"


async def test_an_idle_table_ends_and_a_lobby_times_out(clock: FakeClock) -> None:
    table = FakeTable()
    _keeper(table, clock).human_acted()
    await clock.advance(600)
    assert table.said == ["end idle"]
    lobby = FakeTable(Status.LOBBY)
    _keeper(lobby, clock).arm_lobby()
    await clock.advance(899)
    assert lobby.said == []
    await clock.advance(1)
    assert lobby.said == ["cancel lobby_timeout"]


# --- a clock waits for the table message (a REST outage) ------------------------------


def _showing(clock: FakeClock) -> tuple[FakeTable, Timekeeper]:
    """A table whose clocks wait to be shown, its 20 s turn armed."""
    table = FakeTable()
    keeper = Timekeeper(table, 1, clock, CONFIG, clock.now(), shows=True)
    keeper.decision_changed()
    return table, keeper


async def test_a_clock_starts_only_once_the_message_showing_it_lands(clock: FakeClock) -> None:
    table, keeper = _showing(clock)
    assert keeper.clocks.held == 20
    await clock.advance(60)  # the message never landed: no clock runs out
    assert table.said == []
    keeper.shown(0, clock.now())  # a message of an earlier moment starts nothing
    await clock.advance(60)
    assert table.said == []
    drawn = clock.now()
    await clock.advance(1)  # drawn, then a second on its way
    assert not keeper.shown(1, drawn)  # it showed `drawn` + 20 s: that is the deadline
    assert keeper.clocks.deadline == drawn + timedelta(seconds=20)
    await clock.advance(18.9)
    assert table.said == []
    await clock.advance(0.2)
    assert table.said == ["time ran out at 1"]


async def _failing_after(clock: FakeClock, seconds: float) -> tuple[FakeTable, Timekeeper]:
    """A 20 s turn shown, its clock run `seconds`; then an edit for the table fails."""
    table, keeper = _showing(clock)
    keeper.shown(1, clock.now())
    await clock.advance(seconds)
    keeper.show_failed()  # Discord answers 503
    return table, keeper


async def test_a_clock_waits_with_its_time_left_while_edits_fail(clock: FakeClock) -> None:
    table, keeper = await _failing_after(clock, 12)
    assert keeper.unshown and keeper.clocks.held == pytest.approx(8)
    await clock.advance(120)
    assert table.said == []
    keeper.show_failed()  # failing again changes nothing
    assert keeper.clocks.held == pytest.approx(8)
    assert not keeper.shown(1, clock.now())
    assert table.said == ["wake"]  # the computers, who waited too, go on
    await clock.advance(7.9)
    assert table.said == ["wake"]
    await clock.advance(0.2)
    assert table.said == ["wake", "time ran out at 1"]


async def test_a_message_that_landed_late_starts_the_clock_from_then(clock: FakeClock) -> None:
    _, keeper = _showing(clock)
    drawn = clock.now()
    await clock.advance(5)
    assert keeper.shown(1, clock.now(), late=True)  # shown again: the deadline moved on
    assert keeper.clocks.deadline == drawn + timedelta(seconds=25)


async def test_without_a_presenter_nothing_waits_to_be_shown(clock: FakeClock) -> None:
    table = FakeTable()
    keeper = _keeper(table, clock)
    keeper.decision_changed()
    keeper.show_failed()
    assert keeper.clocks.held is None and not keeper.unshown
    await clock.advance(20)
    assert table.said == ["time ran out at 1"]


async def test_a_panel_edit_that_lands_lets_a_shown_clock_run_on(clock: FakeClock) -> None:
    table, keeper = await _failing_after(clock, 5)  # a hand panel's edit failed
    await clock.advance(30)
    keeper.shown(-1, clock.now())  # another request for the table landed
    assert keeper.clocks.held is None
    await clock.advance(15.1)
    assert table.said == ["wake", "time ran out at 1"]


async def test_a_panel_edit_does_not_start_a_clock_never_shown(clock: FakeClock) -> None:
    table, keeper = _showing(clock)
    keeper.shown(-1, clock.now())  # a panel landed; the table message did not
    await clock.advance(60)
    assert keeper.clocks.held == 20 and table.said == []
